// cut_loop.cpp - split a loop's range at a point ------------------------------------//
// cut_loop(p, loop, cut): `for i in seq(lo, hi): body` becomes `for i in
// seq(lo, cut): body` then `for i in seq(cut, hi): body`. `cut` is an int or
// an index expression (`"n/2"`, `"n - 1"`: loop_support.h's control_arg). The
// first loop keeps the id; the second is a fresh copy with the same mode.
// Checked: lo <= cut <= hi for every size the asserts and enclosing scopes
// allow (exactly, with Z3; otherwise the halves would run iterations the
// loop did not).
// Fails when: `loop` is not a loop; `cut` is not a control value; cut may lie
// outside [lo, hi] (with a counterexample); the solver gives up.
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value cut_loop(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const For *f = loop_arg(in, p, call.arg("loop").value, "cut_loop", call.loc, s);
  Expr cut = control_arg(in, p, s, call.arg("cut"));
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  Expr goal = BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Le, f->lo, cut),
                          BinOp::make(BinOpKind::Le, cut, f->hi));
  require(in, dep, context_at(p, s), goal, call.loc,
          "that '" + print_expr(cut) + "' lies in the range of loop '" + f->iter.name + "'",
          DiagKind::CutOutOfRange, print_expr(cut), f->iter.name, print_expr(f->lo), print_expr(f->hi));
  Stmt one = f->edited([&](For &n) { n.hi = cut; });
  Sym it = Sym::fresh(f->iter.name);
  Stmt two = For::make(it, cut, f->hi, f->mode, copy_block(f->body, {{f->iter.id, iter_var(it)}}, true), f->loc);
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {one, two}; }));
}

} // namespace exgc::schedule
