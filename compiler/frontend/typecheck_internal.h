// typecheck_internal.h - the typecheck's shared state (private) -----------//
// Owns: Declared (what a name in scope denotes) and Checker, whose methods are
// split by concern over typecheck.cpp (procs, statements, scopes),
// typecheck_expr.cpp (expressions and indices), typecheck_call.cpp (calls,
// memories, GPU annotations, sync statements, instr attributes). The bounds
// check (typecheck_bounds.cpp) runs on procs that passed, with its own walk.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/analysis/memories.h"
#include "compiler/frontend/program.h"
#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc {
struct MathFunction;
}

namespace exgc::tc {

/// What a declared name denotes inside one proc.
struct Declared {
  enum class Kind { Control, Data, Barrier };
  Kind kind = Kind::Data;
  Sym sym;
  ValueType type = ValueType::F32; // control: size/index/bool; data: element type
  std::vector<Expr> shape;         // extents; empty for scalars
  bool is_window = false;          // window argument or window statement
  bool is_arg = false;
  bool is_iter = false;
  std::string read_only;           // why it cannot be written; "" when writable
  Expr mem;                        // the `@` annotation (null: DRAM / none)
  SrcLoc decl;

  size_t rank() const { return shape.size(); }
  /// "size argument", "loop iterator", "barrier", "tensor", ... for messages.
  std::string describe() const;
};

/// Where an expression is used; decides which values it may contain.
enum class Use { Index, Bound, Cond, Assert, Extent, Data, ControlArg };
const char *use_name(Use u); // "an index", "a loop bound", ...

class Checker {
public:
  Checker(const Program &program, DiagEngine &diag) : program_(program), diag_(diag) {}
  /// Typechecks one proc or instr; true when it reported nothing.
  bool check_proc(const ProcNode &p);

  // --- typecheck.cpp: scopes and statements
  void declare(const Declared &b);
  const Declared *lookup(const Sym &s, SrcLoc use);
  void check_block(const Block &b);
  void check_stmt(const Stmt &s);
  void check_type(const Type &t, const std::string &name, bool is_arg);
  void check_size_fits(const Type &t, const std::string &name);
  void check_write(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc);

  // --- typecheck_expr.cpp: expressions
  /// The type of `e` in position `use`; reports problems and returns Meta
  /// after an error so callers do not cascade.
  ValueType check_expr(const Expr &e, Use use);
  void check_indices(const std::vector<Expr> &idx);
  ValueType check_builtin(const Call &c, const Expr &self, Use use);
  ValueType check_aligned(const Call &c, const Expr &self, Use use);
  /// Reports BuiltinArgs unless `c` has `n` positional arguments and no keywords.
  bool check_arity(const Call &c, const Expr &self, size_t n);
  /// The tensor or window a layout query (stride, offset, aligned) names, or
  /// null after reporting BuiltinArgs.
  const Declared *queried_buffer(const Call &c);
  ValueType check_math(const MathFunction &m, const Call &c, const Expr &self, Use use);
  /// A buffer named whole (`A` or `A[]`, as a call argument or in stride()).
  const Declared *whole_buffer(const Expr &e);
  bool is_constant(const Expr &e) const;

  // --- typecheck_call.cpp: calls, annotations, sync, attributes
  void check_call(const CallStmt &c);
  /// The proc a call names, or null after reporting it unknown or ambiguous.
  Proc callee_of(const CallStmt &c);
  void check_call_arg(const CallStmt &c, const ProcNode &callee, const Arg &param,
                      const Expr &actual);
  const Declared *tensor_arg(const ProcNode &callee, const Arg &param, const Expr &actual,
                             size_t &rank);
  void check_tensor_arg(const CallStmt &c, const ProcNode &callee, const Arg &param,
                        const Expr &actual, const Declared &b, size_t rank);
  void check_template_args(const CallStmt &c, const ProcNode &callee,
                           const std::vector<std::string> &tparams);
  void check_trailing_barriers(const CallStmt &c, const ProcNode &callee);
  void check_barrier_ref(const Expr &e, const char *where, bool allow_slices);
  void check_memory(const Expr &mem, analysis::MemKind want, const std::string &what, SrcLoc at);
  /// A tensor map names one box extent per dimension of the window it is on.
  void check_tensor_map_rank(const Expr &mem, size_t rank, SrcLoc at);
  void check_loop_mode(const For &f);
  void check_unit(const Expr &u);
  void check_context(const With &w);
  void check_attrs(const ProcNode &p);
  void check_atomic_param(const ProcNode &instr, const Arg &param, SrcLoc at);

  const Program &program_;
  DiagEngine &diag_;
  const ProcNode *proc_ = nullptr;
  std::map<uint32_t, Declared> bindings_;          // by Sym id
  std::vector<std::map<std::string, uint32_t>> scopes_; // visible names, innermost last
  unsigned errors_at_start_ = 0;
};

/// RAII scope push for Checker.
struct ScopeGuard {
  explicit ScopeGuard(Checker &c) : c_(c) { c_.scopes_.emplace_back(); }
  ~ScopeGuard() { c_.scopes_.pop_back(); }
  Checker &c_;
};

/// Bounds and precondition checks of one typechecked proc (typecheck_bounds.cpp).
/// Callees in `ill_typed` are not looked into (their calls were reported).
void check_bounds(const Program &program, const ProcNode &p,
                  const std::set<const ProcNode *> &ill_typed, DiagEngine &diag);

/// print_expr, shortened for messages.
std::string show(const Expr &e);

} // namespace exgc::tc
