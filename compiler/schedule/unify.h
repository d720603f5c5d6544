// unify.h - solving a callee's arguments from code that is its body -----------//
// Owns: the unification `replace` runs (replace.cpp says the rules): a walk
// of the callee's body and a block in step, collecting bindings (iterators,
// data arguments) and index equations; solving the size, index and window
// arguments from those equations; proving every equation with the
// IndexSolver; and building the call. Every failure is reported at the
// step's line and aborts.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/analysis/dependence.h"
#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

class Unifier {
public:
  Unifier(Interpreter &in, const Proc &p, const ProcNode &callee, SrcLoc loc);

  /// Matches the callee's statements `c` against the block's `b`, under `ctx`.
  void match_block(const Block &c, const Block &b, analysis::Context ctx);
  /// Fixes size/index/bool parameter `name` to `value` (for parameters the
  /// body does not determine); false when `name` is not such a parameter.
  bool bind(const std::string &name, const Expr &value);
  /// Solves the control and window arguments; reports what stays unknown.
  void solve();
  /// Proves every equation under its context.
  void verify();
  /// The call, located at the step.
  Stmt make_call(const std::string &callee_name);

private:
  /// What a tensor parameter is bound to: a window of `buf`.
  struct Window {
    Sym buf;
    ValueType type = ValueType::F32;
    std::vector<bool> slice;  // per dimension of buf
    std::vector<Expr> at;     // point index, or slice start (null until solved)
  };
  /// One index equation: callee side (callee names) == block side.
  struct Equation {
    Expr callee, block;
    analysis::Context ctx;
    Stmt at_c, at_b;
  };
  /// One access of a tensor parameter, to solve its window from.
  struct Access {
    uint32_t param;
    Sym bbuf; // the block's buffer
    std::vector<Expr> cidx, bidx;
    analysis::Context ctx;
    Stmt at_c, at_b;
  };

  void match_stmt(const Stmt &c, const Stmt &b, const analysis::Context &ctx);
  void match_expr(const Expr &c, const Expr &b, const analysis::Context &ctx, const Stmt &at_c,
                  const Stmt &at_b);
  void match_access(const Sym &cbuf, const std::vector<Expr> &cidx, const Sym &bbuf,
                    const std::vector<Expr> &bidx, const analysis::Context &ctx, const Stmt &at_c,
                    const Stmt &at_b);
  /// Refuses binding data parameter `param` to `b` (matched in the block's
  /// statement `at_b`) when the call would compute `b` in another type.
  void require_same_computation(const Arg &param, const Expr &b, const Stmt &at_b);
  static std::string first_line(const Stmt &s);
  [[noreturn]] void mismatch(const Stmt &at_c, const Stmt &at_b, const std::string &why);
  /// The callee expression with solved parameters and matched iterators
  /// replaced; unsolved parameters stay.
  Expr subst(const Expr &e) const;
  bool solve_equation(const Equation &eq);
  bool solve_window(const Access &a);
  const Arg *param(uint32_t id) const;
  bool is_template(const Arg &a) const;

  Interpreter &in_;
  Proc p_;
  const ProcNode &callee_;
  SrcLoc loc_;
  std::map<uint32_t, Expr> values_;     // control or data scalar parameter -> argument
  std::map<uint32_t, Window> windows_;  // tensor parameter -> window
  std::map<uint32_t, Expr> iters_;      // callee iterator -> block iterator (a Var)
  std::set<uint32_t> block_iters_;      // the block's matched iterators
  std::set<uint32_t> written_;          // tensor parameters the body writes or reduces
  std::set<uint32_t> block_written_;    // buffers the block writes or reduces
  std::vector<Equation> eqs_;
  std::vector<Access> accesses_;
};

} // namespace exgc::schedule
