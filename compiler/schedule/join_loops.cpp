// join_loops.cpp - one loop from two that run the same body over adjacent ranges --//
// join_loops(p, loop1, loop2): `for i in seq(lo, mid): s` directly followed by
// `for j in seq(mid, hi): s[i := j]` becomes `for i in seq(lo, hi): s`. The
// first loop keeps its id and mode (cursors to it follow the joined loop).
// Checked: loop2 directly follows loop1; the bodies are the same code up to
// the iterator (loop2's body with j renamed to i is loop1's node for node,
// each name bound inside matched to its counterpart and every other name the
// same binding, not only the same spelling: same_code); loop1's end equals
// loop2's start (Z3), and
// lo <= mid <= hi: Exo checks only the equality, but when mid < lo or hi <
// mid one of the loops runs zero times and the joined range would add or drop
// iterations.
// Fails when: the arguments are not loops (CursorKindMismatch); loop2 does
// not directly follow loop1 (FuseNotAdjacent); the bodies differ
// (JoinBodiesDiffer); the ranges may not meet (JoinRangesApart) or may be
// out of order (JoinRangesOrder), each with a counterexample; the solver
// gives up (SolverUnknown).
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value join_loops(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s1 = stmt_arg(in, p, call.arg("loop1").value, call.loc);
  Stmt s2 = stmt_arg(in, p, call.arg("loop2").value, call.loc);
  const For *f1 = s1.as<For>(), *f2 = s2.as<For>();
  if (!f1 || !f2)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'join_loops'", "two loops");
  Located l;
  locate(*p, s1->id, l);
  if (l.index + 1 >= l.block->size() || (*l.block)[l.index + 1]->id != s2->id)
    in.fail(call.loc, DiagKind::FuseNotAdjacent, f1->iter.name, f2->iter.name);
  Block renamed = copy_block(f2->body, {{f2->iter.id, iter_var(f1->iter)}}, false);
  if (!same_code(renamed, f1->body))
    in.fail(call.loc, DiagKind::JoinBodiesDiffer, f1->iter.name, f2->iter.name);

  analysis::Context ctx = context_at(p, s1);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  std::string mid = print_expr(f1->hi), start = print_expr(f2->lo);
  require(in, dep, ctx, BinOp::make(BinOpKind::Eq, f1->hi, f2->lo), call.loc,
          "that loop '" + f1->iter.name + "' ends where loop '" + f2->iter.name + "' starts",
          DiagKind::JoinRangesApart, f1->iter.name, mid, f2->iter.name, start);
  Expr ordered = BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Le, f1->lo, f1->hi),
                             BinOp::make(BinOpKind::Le, f2->lo, f2->hi));
  require(in, dep, ctx, ordered, call.loc,
          "that the ranges of loops '" + f1->iter.name + "' and '" + f2->iter.name + "' are in order",
          DiagKind::JoinRangesOrder, print_expr(f1->lo), mid, print_expr(f2->hi));
  Stmt joined = f1->edited([&](For &n) { n.hi = f2->hi; });
  return Value::of_proc(replace_block(p, {s1, s2}, {joined}));
}

} // namespace exgc::schedule
