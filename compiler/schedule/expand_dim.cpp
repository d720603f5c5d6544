// expand_dim.cpp - give an allocation a new leading dimension ----------------//
// expand_dim(p, alloc, size, idx): `t: f32[4]` becomes `t: f32[size, 4]` and
// every access `t[k]` becomes `t[idx, k]` (a scalar `t` becomes `t[idx]`).
// `size` and `idx` are integers or index expressions in proc syntax over the
// size and index arguments and the iterators of the loops around `alloc`:
//   for i in seq(0, n):                    for i in seq(0, n):
//       t: f32[4]        -- (n, "i") -->       t: f32[n, 4]
//       t[k] = ...                             t[i, k] = ...
// Checked (IndexSolver, under the asserts and the loops and ifs around
// `alloc`): size >= 1, and 0 <= idx < size, so every access stays in bounds;
// each old element maps to one new element for a given idx, so the meaning
// is unchanged. A solver that gives up is reported as could-not-prove.
// Fails when: `alloc` is not the allocation of a data buffer; `size` or
// `idx` does not parse or names something not visible at `alloc`
// (ExprNotAtAlloc); size may be below 1 (DimSizeNotPositive) or idx outside
// [0, size) (IndexOutsideDim), each with a counterexample; the buffer is
// passed whole to a call (BufferPassedWhole).
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/dim_support.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// A call argument that names the whole tensor (`f(t)`).
struct WholeUse : IRVisitor {
  uint32_t buf;
  size_t rank;
  SrcLoc at;
  std::string callee;
  bool found = false;
  void visit_node(const CallStmt *op) override {
    for (const Expr &a : op->args)
      if (const auto *r = a.as<Read>(); r && r->buf.id == buf && r->idx.size() != rank && !found) {
        found = true;
        at = a->loc;
        callee = op->callee;
      }
    IRVisitor::visit_node(op);
  }
};

} // namespace

Value expand_dim(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const Alloc *a = buffer_alloc(in, p, call.arg("alloc").value, call.loc, "expand_dim", s);
  analysis::Context ctx = context_at(p, s);
  Expr size = alloc_index_arg(in, p, ctx, *a, call.arg("size"));
  Expr idx = alloc_index_arg(in, p, ctx, *a, call.arg("idx"));
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  require(in, dep, ctx, BinOp::make(BinOpKind::Ge, size, IntImm::make(1)), call.loc,
          "that size '" + print_expr(size) + "' is positive", DiagKind::DimSizeNotPositive,
          print_expr(size));
  Expr in_range = BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Ge, idx, IntImm::make(0)),
                              BinOp::make(BinOpKind::Lt, idx, size));
  require(in, dep, ctx, in_range, call.loc,
          "that '" + print_expr(idx) + "' is in [0, " + print_expr(size) + ")",
          DiagKind::IndexOutsideDim, print_expr(idx), print_expr(size));
  WholeUse whole;
  whole.buf = a->name.id;
  whole.rank = a->type.shape.size();
  whole.visit(p->body);
  if (whole.found) {
    in.diag().report(call.loc, DiagKind::BufferPassedWhole, a->name.name, whole.callee)
        .note(whole.at, "'" + a->name.name + "' is passed here");
    throw ScriptAbort{};
  }
  std::vector<Expr> shape = a->type.shape;
  shape.insert(shape.begin(), size);
  return Value::of_proc(relayout(
      p, s, shape,
      [&](const std::vector<Expr> &old) {
        std::vector<Expr> out{idx};
        out.insert(out.end(), old.begin(), old.end());
        return out;
      },
      [&](const std::vector<WindowIdx> &old) {
        std::vector<WindowIdx> out{WindowIdx::point(idx)};
        out.insert(out.end(), old.begin(), old.end());
        return out;
      }));
}

} // namespace exgc::schedule
