// resize_dim.cpp - shrink or shift one dimension of an allocation -----------------//
// resize_dim(p, alloc, dim, size, offset): dimension `dim` of `t` gets extent
// `size`, and every access `t[.., e, ..]` (e in that dimension) becomes
// `t[.., e - offset, ..]`: the buffer keeps only the elements [offset,
// offset + size) of that dimension.
//   t: f32[n]                     t: f32[4]
//   t[i + 2] = ..   -- (0, 4, 2) -->   t[i] = ..
// `size` and `offset` are ints or index expressions over the size and index
// arguments and the iterators of the loops around the allocation.
// Checked (IndexSolver, under the asserts, the scopes around the allocation
// and, per access, the loops and ifs between it and the access): size >= 1,
// and every access lies in the kept part: offset <= e < offset + size. Each
// kept element then maps to one new element and nothing else was touched, so
// the meaning is unchanged. Windows of the buffer (one index per dimension)
// are shifted the same way, and the elements read or written through them
// (by a window name or a callee) are among the accesses checked; the
// buffer passed whole to a call is refused (the callee's type would change).
// Fails when: `alloc` is not the allocation of a data buffer
// (CursorKindMismatch); `dim` is not one of its dimensions (DimOutOfRange);
// `size` or `offset` does not parse or names something not visible at the
// allocation (ExprNotAtAlloc); size may be below 1 (DimSizeNotPositive); an
// access may leave the kept part (ResizeDropsAccess: note at the access,
// counterexample); the buffer is passed whole or windowed with fewer
// indices (DimChangeIndirect); the solver gives up (SolverUnknown).
#include "compiler/ir/fold.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/dim_support.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value resize_dim(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const Alloc *a = buffer_alloc(in, p, call.arg("alloc").value, call.loc, "resize_dim", s);
  size_t dim = dim_arg(in, *a, call.arg("dim"));
  analysis::Context ctx = context_at(p, s);
  Expr size = alloc_index_arg(in, p, ctx, *a, call.arg("size"));
  Expr offset = alloc_index_arg(in, p, ctx, *a, call.arg("offset"));
  // Windows are rewritten too; what is read through them (a window name, a
  // callee's body) is among the accesses checked below.
  require_element_uses(in, p, *a, "resize_dim", call.loc, /*windows_ok=*/true);

  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  require(in, dep, ctx, BinOp::make(BinOpKind::Ge, size, IntImm::make(1)), call.loc,
          "that size '" + print_expr(size) + "' is positive", DiagKind::DimSizeNotPositive,
          print_expr(size));
  Expr end = fold_constants(BinOp::make(BinOpKind::Add, offset, size));
  require_at_accesses(
      in, p, s,
      [&](const std::vector<Expr> &idx) {
        return BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Le, offset, idx[dim]),
                           BinOp::make(BinOpKind::Lt, idx[dim], end));
      },
      "that the access lies in the kept part of '" + a->name.name + "'",
      [&](const analysis::Access &acc) {
        return in.diag().report(call.loc, DiagKind::ResizeDropsAccess, acc.text, a->name.name,
                                print_expr(offset), print_expr(end), dim);
      },
      call.loc);

  std::vector<Expr> shape = a->type.shape;
  shape[dim] = size;
  auto shift = [&](const Expr &e) { return tidy_index(BinOp::make(BinOpKind::Sub, e, offset)); };
  auto reindex = [&](const std::vector<Expr> &idx) {
    std::vector<Expr> out = idx;
    out[dim] = shift(idx[dim]);
    return out;
  };
  // `x[lo:hi]` becomes `x[lo - offset:hi - offset]`, with the bounds a slice
  // leaves out written (they meant the old extent). The re-check of the
  // result bounds-checks each window.
  auto rewindow = [&](const std::vector<WindowIdx> &w) {
    std::vector<WindowIdx> out = w;
    const WindowIdx &i = w[dim];
    if (!i.is_slice)
      out[dim] = WindowIdx::point(shift(i.lo));
    else
      out[dim] = WindowIdx::slice(shift(i.lo ? i.lo : IntImm::make(0)),
                                  shift(i.hi ? i.hi : a->type.shape[dim]));
    return out;
  };
  return Value::of_proc(relayout(p, s, shape, reindex, rewindow));
}

} // namespace exgc::schedule
