// lift_scope.cpp - swap a loop or if with the loop or if around it ---------------------//
// lift_scope(p, stmt): `stmt` (a loop or an if) must be the only statement of
// the body of its enclosing loop or if. The two swap:
//  - for x: for y: s            -> for y: for x: s        (as reorder_loops)
//  - for i: if c: A else: B     -> if c: for i: A else: for i: B
//  - if c: for i: A             -> for i: if c: A
//  - if c1: if c2: A else: B    -> if c2: (if c1: A) else: (if c1: B)
// The lifted statement and the old parent keep their ids.
// Checked: loop/loop: reorder_loops' checks; if out of a loop: c does not use
// the iterator. Conditions are control values (the typecheck refuses data in
// conditions) and no statement writes a control value, so evaluating one
// once instead of per iteration, or where the other condition is false,
// gives the same answers and cannot fail (Exo's gap of conditions reading
// config fields the body writes cannot arise).
// Fails when: the statement is not a loop or if, is not the only statement of
// a loop or if body, or the enclosing if has an else; the condition uses the
// iterator; reorder_loops' checks fail (loop/loop).
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {


Value lift_scope(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("stmt").value, call.loc);
  if (!s.as<For>() && !s.as<If>())
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'lift_scope'", "a loop or an if");
  Located l;
  locate(*p, s->id, l);
  Stmt parent = l.parent;
  if (!parent || (!parent.as<For>() && !parent.as<If>()))
    in.fail(call.loc, DiagKind::LiftScopeBadShape, "it is not inside a loop or an if");
  if (l.block->size() != 1)
    in.fail(call.loc, DiagKind::LiftScopeBadShape, "it is not the only statement of its enclosing body");
  if (const If *pi = parent.as<If>(); pi && !pi->else_body.empty())
    in.fail(call.loc, DiagKind::LiftScopeBadShape, "the enclosing if has an else branch");
  Block out;
  if (const For *pf = parent.as<For>()) {
    if (const For *sf = s.as<For>()) {
      check_loop_swap(in, p, parent, call.loc);
      Stmt inner = pf->edited([&](For &n) { n.body = sf->body; });
      out = {sf->edited([&](For &n) { n.body = {inner}; })};
    } else {
      const If *si = s.as<If>();
      if (analysis::mentions(si->cond, pf->iter))
        in.fail(call.loc, DiagKind::LiftScopeCondUsesIter, print_expr(si->cond), pf->iter.name);
      Stmt then_loop = pf->edited([&](For &n) { n.body = si->then_body; });
      Block else_loop;
      if (!si->else_body.empty()) {
        Sym it = Sym::fresh(pf->iter.name);
        else_loop = {For::make(it, pf->lo, pf->hi, pf->mode,
                               copy_block(si->else_body, {{pf->iter.id, iter_var(it)}}, false), pf->loc)};
      }
      out = {si->edited([&](If &n) {
        n.then_body = {then_loop};
        n.else_body = else_loop;
      })};
    }
  } else {
    const If *pi = parent.as<If>();
    if (const For *sf = s.as<For>()) {
      Stmt inner = pi->edited([&](If &n) { n.then_body = sf->body; });
      out = {sf->edited([&](For &n) { n.body = {inner}; })};
    } else {
      const If *si = s.as<If>();
      Stmt inner = pi->edited([&](If &n) { n.then_body = si->then_body; });
      out = {si->edited([&](If &n) {
        n.then_body = {inner};
        if (!si->else_body.empty())
          n.else_body = {If::make(pi->cond, si->else_body, {}, pi->loc)};
      })};
    }
  }
  return Value::of_proc(replace_stmt(p, parent->id, [&](const Stmt &) { return out; }));
}

} // namespace exgc::schedule
