// fuse.cpp - merge two adjacent loops -----------------------------------------------//
// fuse(p, loop1, loop2): `for i in seq(lo, hi): S1` directly followed by `for
// j in seq(lo, hi): S2` becomes `for i in seq(lo, hi): S1; S2[j := i]`. The
// merged loop keeps loop1's id and mode.
// Checked: loop2 directly follows loop1; both bounds are equal (lower and
// upper, exactly with Z3: Exo compares only the upper bound); and no
// dependence would be reversed: no S1 access at iteration i and S2 access at
// iteration i' < i touch the same element, one of them writing (the reverse
// of fission's check).
// fuse(p, if1, if2): `if c1: A else: B` directly followed by `if c2: C else:
// D` becomes `if c1: A; C else: B; D` (the reference's fuse of ifs). Checked:
// adjacency and c1 == c2 under the asserts and enclosing scopes. Conditions
// are control values, which no statement writes, so c2 after A or B is c2
// before: the statements run in the same order either way.
// Fails when: they are not two loops or two ifs; they are not adjacent; a
// bound or condition may differ (counterexample); a dependence would be
// reversed (notes at both accesses, counterexample); the solver gives up.
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

namespace {

bool adjacent(const Proc &p, const Stmt &s1, const Stmt &s2) {
  Located l1, l2;
  locate(*p, s1->id, l1);
  locate(*p, s2->id, l2);
  return l1.block == l2.block && l2.index == l1.index + 1;
}

Value fuse_ifs(Interpreter &in, const CallSite &call, const Proc &p, const Stmt &s1, const Stmt &s2) {
  const If *i1 = s1.as<If>(), *i2 = s2.as<If>();
  if (!adjacent(p, s1, s2))
    in.fail(call.loc, DiagKind::FuseIfsNotAdjacent, s1->loc.line, s2->loc.line);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  const std::string c1 = print_expr(i1->cond), c2 = print_expr(i2->cond);
  auto implies = [](const Expr &a, const Expr &b) {
    return BinOp::make(BinOpKind::Or, UnOp::make(UnOpKind::Not, a), b);
  };
  const std::string what = "that the conditions '" + c1 + "' and '" + c2 + "' agree";
  analysis::Context ctx = context_at(p, s1);
  require(in, dep, ctx, implies(i1->cond, i2->cond), call.loc, what, DiagKind::FuseConditionsDiffer, c1, c2);
  require(in, dep, ctx, implies(i2->cond, i1->cond), call.loc, what, DiagKind::FuseConditionsDiffer, c1, c2);
  Stmt merged = i1->edited([&](If &n) {
    n.then_body.insert(n.then_body.end(), i2->then_body.begin(), i2->then_body.end());
    n.else_body.insert(n.else_body.end(), i2->else_body.begin(), i2->else_body.end());
  });
  Proc out = replace_stmt(p, s2->id, [](const Stmt &) { return Block{}; });
  return Value::of_proc(replace_stmt(out, s1->id, [&](const Stmt &) -> Block { return {merged}; }));
}

} // namespace

Value fuse(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s1 = stmt_arg(in, p, call.arg("loop1").value, call.loc), s2 = stmt_arg(in, p, call.arg("loop2").value, call.loc);
  if (s1.as<If>() && s2.as<If>())
    return fuse_ifs(in, call, p, s1, s2);
  const For *f1 = s1.as<For>(), *f2 = s2.as<For>();
  if (!f1 || !f2)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'fuse'", "two loops or two ifs");
  if (!adjacent(p, s1, s2))
    in.fail(call.loc, DiagKind::FuseNotAdjacent, f1->iter.name, f2->iter.name);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  analysis::Context ctx = context_at(p, s1);
  require(in, dep, ctx, BinOp::make(BinOpKind::Eq, f1->lo, f2->lo), call.loc,
          "that loops '" + f1->iter.name + "' and '" + f2->iter.name + "' start together",
          DiagKind::FuseBoundsDiffer, f1->iter.name, f2->iter.name, "lower", print_expr(f1->lo),
          print_expr(f2->lo));
  require(in, dep, ctx, BinOp::make(BinOpKind::Eq, f1->hi, f2->hi), call.loc,
          "that loops '" + f1->iter.name + "' and '" + f2->iter.name + "' end together",
          DiagKind::FuseBoundsDiffer, f1->iter.name, f2->iter.name, "upper", print_expr(f1->hi),
          print_expr(f2->hi));
  Block body2 = copy_block(f2->body, {{f2->iter.id, iter_var(f1->iter)}}, false);
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::Effects e1 = coll.of(f1->body), e2 = coll.of(body2);
  analysis::Conflict c;
  auto rel = [](const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) { return b[0] < a[0]; };
  analysis::Answer ans = dep.conflict(ctx, {{f1->iter, f1->lo, f1->hi}}, e1, e2, rel, &c);
  if (ans == analysis::Answer::Unknown)
    fail_unknown(in, call.loc, "that loops '" + f1->iter.name + "' and '" + f2->iter.name + "' can be fused", solver);
  if (ans == analysis::Answer::Conflict)
    fail_conflict(in, call.loc, c, DiagKind::DependenceBlocksFuse, f1->iter.name, f2->iter.name, c.first.buf.name);
  Stmt merged = f1->edited([&](For &n) { n.body.insert(n.body.end(), body2.begin(), body2.end()); });
  Proc out = replace_stmt(p, s2->id, [](const Stmt &) { return Block{}; });
  return Value::of_proc(replace_stmt(out, s1->id, [&](const Stmt &) -> Block { return {merged}; }));
}

} // namespace exgc::schedule
