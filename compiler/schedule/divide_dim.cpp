// divide_dim.cpp - split one dimension of an allocation in two --------------------//
// divide_dim(p, alloc, dim, quot): dimension `dim` of `t`, of extent n,
// becomes two, of extents n / quot and quot, and every access index e in it
// becomes e / quot, e % quot:
//   t: f32[n]  t[i] = ..   -- (0, 4) -->   t: f32[n / 4, 4]  t[i / 4, i % 4] = ..
// Checked: quot >= 1, and n is a multiple of quot for every size the asserts
// and the scopes around the allocation allow (IndexSolver): then e -> (e /
// quot, e % quot) maps [0, n) one to one onto the new dimensions, so each old
// element is one new element and the meaning is unchanged. Windows and
// whole-buffer call arguments are refused (the rewrite changes only element
// accesses; Exo refuses them too).
// Fails when: `alloc` is not the allocation of a data buffer
// (CursorKindMismatch); `dim` is not one of its dimensions (DimOutOfRange);
// quot < 1 (DivideFactorNotPositive); n may not be a multiple of quot
// (DimNotMultiple, counterexample); the buffer is windowed or passed whole
// (DimChangeIndirect); the solver gives up (SolverUnknown).
#include "compiler/ir/printer.h"
#include "compiler/schedule/dim_support.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value divide_dim(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const Alloc *a = buffer_alloc(in, p, call.arg("alloc").value, call.loc, "divide_dim", s);
  size_t dim = dim_arg(in, *a, call.arg("dim"));
  int64_t quot = call.arg("quot").value.int_value;
  if (quot < 1)
    in.fail(call.loc, DiagKind::DivideFactorNotPositive, quot);
  require_element_uses(in, p, *a, "divide_dim", call.loc);
  const Expr &n = a->type.shape[dim];
  Expr q = IntImm::make(quot);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  require(in, dep, context_at(p, s),
          BinOp::make(BinOpKind::Eq, BinOp::make(BinOpKind::Mod, n, q), IntImm::make(0)), call.loc,
          "that extent '" + print_expr(n) + "' is a multiple of " + std::to_string(quot),
          DiagKind::DimNotMultiple, print_expr(n), dim, a->name.name, quot);

  std::vector<Expr> shape = a->type.shape;
  shape[dim] = tidy_index(BinOp::make(BinOpKind::Div, n, q));
  shape.insert(shape.begin() + static_cast<long>(dim) + 1, q);
  return Value::of_proc(relayout(p, s, shape, [&](const std::vector<Expr> &idx) {
    std::vector<Expr> out = idx;
    out[dim] = tidy_index(BinOp::make(BinOpKind::Div, idx[dim], q));
    out.insert(out.begin() + static_cast<long>(dim) + 1, tidy_index(BinOp::make(BinOpKind::Mod, idx[dim], q)));
    return out;
  }));
}

} // namespace exgc::schedule
