// bounds_checker.h - the exact bounds check's state (private) -------------//
// Owns: BoundsChecker, the Z3-backed walk of one typechecked proc. This is
// its declaration; its bodies are split over bounds_checker.cpp (views,
// arithmetic and the walk over statements), typecheck_bounds.cpp
// (statements, calls and their preconditions) and
// typecheck_bounds_follow.cpp (following a window argument that overhangs
// its buffer through the callee's behavior, at any depth). What it proves is
// listed atop typecheck_bounds.cpp; the rules are in docs/language.md.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>

#include "compiler/analysis/control_limits.h"
#include "compiler/analysis/memories.h"
#include "compiler/analysis/solver.h"
#include "compiler/frontend/typecheck_internal.h"

namespace exgc::tc::bounds {

using analysis::Counterexample;
using analysis::Validity;

/// How a buffer name reaches storage: its own extents and, per dimension,
/// the dimension of its base buffer and the offset there.
struct View {
  std::string name;
  std::vector<z3::expr> extent;
  std::vector<std::string> extent_text;
  std::vector<z3::expr> offset;  // origin in the root buffer, per own dim
  std::vector<z3::expr> stride;  // element stride, per own dim
  bool exempt = false;           // an instr's out_of_bounds parameter
  // Where the first element lies, for aligned(): `base` is the root's first
  // element in elements from address 0 when known (an opaque value for a
  // parameter, 0 for memory that starts aligned), and the first
  // element is base + sum of index * stride over `placed`.
  std::optional<z3::expr> base;
  std::vector<std::pair<z3::expr, z3::expr>> placed;
};

/// True when parameter `name` of `p` is listed in its attribute `key`
/// (`template:`, `out_of_bounds:`).
bool param_listed(const ProcNode &p, const char *key, const std::string &name);

class BoundsChecker {
public:
  BoundsChecker(const Program &prog, const ProcNode &p,
                const std::set<const ProcNode *> &ill_typed, DiagEngine &diag);

  void run();

private:
  z3::expr term(const Expr &e);
  /// A parameter's view: its first element's address is the caller's,
  /// unknown here but for what the asserts say of it (aligned()).
  View param_view(const Arg &a);
  View declared_view(const Sym &s, const Type &t, bool exempt);
  bool buffer_query(const Call &c, z3::expr &out);

  /// A condition under which view `v`'s first element is a multiple of `n`
  /// elements from address 0: the root's base is, the placements with
  /// constant strides sum to a multiple, and each other placement has its
  /// index or its stride a multiple (sufficient, and linear).
  z3::expr aligned(const View &v, int64_t n);

  /// Proves `goal` under the context; reports `kind` (with args) on failure.
  template <typename... Args>
  bool prove(const z3::expr &goal, SrcLoc loc, const std::string &what, DiagKind kind,
             const Args &...args) {
    Counterexample cex;
    Validity v = solver_.is_valid(ctx_, goal, &cex);
    pending_note_.clear();
    if (v == Validity::Valid)
      return true;
    if (v == Validity::Unknown) {
      diag_.report(loc, DiagKind::SolverUnknown, what, solver_.last_unknown_reason());
      return false;
    }
    auto d = diag_.report(loc, kind, args...);
    if (!cex.values.empty())
      d.note(loc, "for example " + cex.str());
    pending_note_ = "x";
    return false;
  }

  /// The arithmetic of control expression `e` is defined wherever it runs:
  /// every division and remainder by something other than a literal (an
  /// instr's template parameter) has a divisor >= 1, and every sum,
  /// difference, product and negation stays within int64_t, which is what
  /// the generated code computes in (Z3's integers are unbounded).
  void check_arith(const Expr &e);
  void collect_arith(const Expr &e, std::vector<Expr> &sums);
  void check_arith(const std::vector<Expr> &es);

  void check_index(const View &v, size_t d, const Expr &idx, SrcLoc loc);

  const View *view_of(const Sym &s) {
    auto it = views_.find(s.id);
    return it == views_.end() ? nullptr : &it->second;
  }

  void check_access(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc);
  void check_reads(const Expr &e);

  /// The view of window expression `we` over its buffer (not checked here).
  View window_view(const WindowExpr &we);

  // Window statements and call arguments need fit checks with their own
  // messages; this does the slice goals one by one.
  bool window_fits(const WindowExpr &we, const Expr &self, bool report);

  void walk(const Block &b);
  void walk(const Stmt &s);
  void check_barrier(const Expr &e);

  void check_call(const CallStmt &c);
  void check_behavior(const ProcNode &callee, const Arg &param, const WindowExpr &we,
                      const Expr &actual);

  // Following an overhanging window argument through the callee's behavior,
  // and the behaviors of whatever the callee passes it to, at any depth.
  /// The argument being followed: its base buffer, and the origin there.
  struct Overhang {
    const View *base;
    const WindowExpr *we;
    const Expr *actual;
    std::vector<z3::expr> origin;  // per base dim
    std::vector<size_t> slice_dims; // base dims the window spans
  };
  /// A name for (part of) the window inside some callee: own dim k is base
  /// dim dims[k]; base coordinate d is origin[d] + the index on that dim.
  struct Alias {
    std::vector<size_t> dims;
    std::vector<z3::expr> origin;
  };
  bool touch(const Overhang &o, const Alias &a, const std::vector<Expr> &idx, SrcLoc at,
             const std::string &who);
  Alias narrow(const Alias &a, const WindowExpr &w);
  const Alias *alias_of(const std::map<uint32_t, Alias> &aliases, const Expr &e, Alias &scratch);
  bool follow_reads(const Overhang &o, const std::map<uint32_t, Alias> &aliases, const Expr &e,
                    const std::string &who);
  bool follow_call(const Overhang &o, const ProcNode &callee, std::map<uint32_t, Alias> aliases,
                   std::vector<const ProcNode *> stack);
  bool follow_block(const Overhang &o, const ProcNode &callee, const Block &b,
                    std::map<uint32_t, Alias> &aliases, const std::vector<const ProcNode *> &stack);
  bool follow_stmt(const Overhang &o, const ProcNode &callee, const Stmt &s,
                   std::map<uint32_t, Alias> &aliases, const std::vector<const ProcNode *> &stack);
  /// The first and last element of `param`'s window, passed as `actual`.
  bool touch_whole(const Overhang &o, const Alias &a, const Arg &param, const Expr &actual,
                   const std::string &who);
  bool follow_nested(const Overhang &o, const ProcNode &caller, const CallStmt &call,
                     const std::map<uint32_t, Alias> &aliases,
                     const std::vector<const ProcNode *> &stack);

  const Program &prog_;
  const ProcNode &proc_;
  const std::set<const ProcNode *> &ill_typed_;
  DiagEngine &diag_;
  analysis::IndexSolver solver_;
  std::vector<z3::expr> ctx_;
  std::map<uint32_t, View> views_;
  unsigned fresh_ = 0;
  std::string pending_note_; // non-empty: prove() just reported an error
};

} // namespace exgc::tc::bounds
