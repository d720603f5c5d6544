// shift_loop.cpp - rebase a loop's iterator ------------------------------------------//
// shift_loop(p, loop, new_lo): `for i in seq(lo, hi): body` becomes `for i in
// seq(new_lo, new_lo + hi - lo): body[i := i - new_lo + lo]` (folded). The
// loop keeps its id and mode. `new_lo` is an int or an index expression
// (`"n-3"`, loop_support.h's control_arg).
// Checked: new_lo >= 0 for every size the asserts and enclosing scopes allow
// (exactly, with Z3), as Exo requires: iterators stay non-negative. The
// iterations run in the same order with the same values of `lo + (i -
// new_lo)`, so nothing else can change.
// Fails when: `loop` is not a loop; new_lo is not a control value; new_lo may
// be negative (with a counterexample); the solver gives up.
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value shift_loop(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const For *f = loop_arg(in, p, call.arg("loop").value, "shift_loop", call.loc, s);
  Expr lo = control_arg(in, p, s, call.arg("new_lo"));
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  require(in, dep, context_at(p, s), BinOp::make(BinOpKind::Ge, lo, IntImm::make(0)), call.loc,
          "that '" + print_expr(lo) + "' is not negative", DiagKind::ShiftNegative, print_expr(lo),
          f->iter.name);
  Expr hi = folded(BinOpKind::Add, lo, folded(BinOpKind::Sub, f->hi, f->lo));
  Expr old = folded(BinOpKind::Add, folded(BinOpKind::Sub, iter_var(f->iter), lo), f->lo);
  Stmt n = f->edited([&](For &e) {
    e.lo = lo;
    e.hi = hi;
    e.body = copy_block(f->body, {{f->iter.id, old}}, false);
  });
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {n}; }));
}

} // namespace exgc::schedule
