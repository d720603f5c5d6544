// reorder_stmts.cpp - swap two adjacent statements ------------------------------//
// reorder_stmts(p, block): `block` names two adjacent statements (a block
// cursor of two, a pattern `"a = _; b = _"`, or one statement: it and the
// next); `s1; s2` becomes `s2; s1`. Both keep their ids.
// Checked: neither statement declares (allocates, binds as a window) what the
// other names; and the two commute: no access of s1 and access of s2 touch the
// same element of the same buffer with one of them writing (two `+=` into one
// element commute: a real sum), decided exactly with Z3 over every reachable
// point (the asserts, the loops and ifs around the pair and, per access, those
// inside each statement). Control values are never written, so conditions and
// bounds read the same on both sides. Sync statements have no sequential
// effect (their placement is the sync checker's to prove).
// Fails when: `block` does not name two adjacent statements
// (CursorKindMismatch, CursorNoSibling); one statement declares what the
// other uses (ReorderDeclUsed); the two may touch one element, one writing
// (DependenceBlocksReorderStmts: notes at both accesses, counterexample); the
// solver gives up (SolverUnknown).
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// The name of what `s` declares with id `id` (an allocation or a window).
std::string declared_name(const Stmt &s, uint32_t id) {
  if (const auto *a = s.as<Alloc>(); a && a->name.id == id)
    return a->name.name;
  if (const auto *w = s.as<WindowStmt>(); w && w->name.id == id)
    return w->name.name;
  return "?";
}

} // namespace

Value reorder_stmts(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Located l;
  Block stmts = block_arg(in, p, call.arg("block").value, call.loc, "reorder_stmts", &l);
  if (stmts.size() == 1) {
    if (l.index + 1 >= l.block->size())
      in.fail(call.loc, DiagKind::CursorNoSibling, "next");
    stmts.push_back((*l.block)[l.index + 1]);
  }
  if (stmts.size() != 2)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'reorder_stmts'", "two adjacent statements");
  const Stmt &s1 = stmts[0], &s2 = stmts[1];

  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::Effects e1 = coll.of(s1), e2 = coll.of(s2);
  // Only a top-level declaration of one statement is visible to the other
  // (anything deeper is scoped inside it).
  for (uint32_t d : e1.defs)
    if (e2.mentioned.count(d))
      in.fail(call.loc, DiagKind::ReorderDeclUsed, declared_name(s1, d), "first", "second");
  for (uint32_t d : e2.defs)
    if (e1.mentioned.count(d))
      in.fail(call.loc, DiagKind::ReorderDeclUsed, declared_name(s2, d), "second", "first");

  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  analysis::Conflict c;
  analysis::Answer ans = dep.conflict(context_at(p, s1), {}, e1, e2, nullptr, &c);
  if (ans == analysis::Answer::Unknown)
    fail_unknown(in, call.loc, "that the two statements commute", solver);
  if (ans == analysis::Answer::Conflict)
    fail_conflict(in, call.loc, c, DiagKind::DependenceBlocksReorderStmts, c.first.buf.name);
  return Value::of_proc(replace_block(p, stmts, {s2, s1}));
}

} // namespace exgc::schedule
