// fission.cpp - split loops and ifs at a gap --------------------------------------//
// fission(p, gap, n_lifts=1): the loop or if around `gap` (a gap cursor, or a
// statement: the gap after it) is split in two, the first holding what is
// before the gap, the second what is after; with n_lifts = k, the k
// enclosing loops/ifs are split one after another, each at the gap between
// the two halves of the previous split.
// `for i: S1; S2` becomes `for i: S1` then `for i': S2`; `if c: S1; S2 else:
// E` becomes `if c: S1 else: E` then `if c: S2`, and a gap in the else branch
// (`else: E1; E2`) `if c: S else: E1` then `if not c: E2`. The first part keeps the ids (cursors
// to the loop follow it); statements of S2 keep theirs.
// Checked, per level: nothing S1 allocates or binds is used by S2 (lift the
// allocation first); for a loop, no dependence goes from the second part of
// an iteration to the first part of a later one: no S1 access at iteration i
// and S2 access at iteration i' < i touch the same element, one of them
// writing (reductions commute), decided exactly with Z3; for an if, nothing:
// its condition is a control value, which no statement writes (Exo's gap of
// conditions reading config fields written by the body cannot arise).
// Fails when: the gap is not inside a loop or if, or is at the start or end of
// its body; an allocation is used across the gap;
// a dependence would be broken (notes at both accesses, counterexample); the
// solver gives up.
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

namespace {

/// One level: splits the parent of the gap at `(block, k)`; returns the new
/// proc and the id of the first half.
Proc split_once(Interpreter &in, const Proc &p, const Located &l, size_t k, SrcLoc loc, NodeId &first) {
  Stmt parent = l.parent;
  if (!parent || (!parent.as<For>() && !parent.as<If>()))
    in.fail(loc, DiagKind::FissionNoScope);
  if (k == 0 || k >= l.block->size())
    in.fail(loc, DiagKind::FissionGapAtEdge, k == 0 ? "start" : "end");
  Block s1(l.block->begin(), l.block->begin() + k), s2(l.block->begin() + k, l.block->end());
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::Effects e1 = coll.of(s1), e2 = coll.of(s2);
  for (uint32_t d : e1.defs)
    if (e2.mentioned.count(d))
      in.fail(loc, DiagKind::FissionAllocUsedAcross, declared_name(s1, d));
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  analysis::Conflict c;
  first = parent->id;
  if (const For *f = parent.as<For>()) {
    auto rel = [](const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) { return b[0] < a[0]; };
    analysis::Answer ans = dep.conflict(context_at(p, parent), {{f->iter, f->lo, f->hi}}, e1, e2, rel, &c);
    if (ans == analysis::Answer::Unknown)
      fail_unknown(in, loc, "that loop '" + f->iter.name + "' can be split", solver);
    if (ans == analysis::Answer::Conflict)
      fail_conflict(in, loc, c, DiagKind::DependenceBlocksFission, f->iter.name, c.first.buf.name);
    Sym it2 = Sym::fresh(f->iter.name);
    Block body2 = copy_block(s2, {{f->iter.id, iter_var(it2)}}, false);
    Stmt one = f->edited([&](For &n) { n.body = s1; });
    Stmt two = For::make(it2, f->lo, f->hi, f->mode, body2, f->loc);
    return replace_stmt(p, parent->id, [&](const Stmt &) -> Block { return {one, two}; });
  }
  // The condition is a control value (the typecheck refuses data in
  // conditions) and nothing writes control values: evaluating it again after
  // S1 gives the same answer. The other branch stays with the first half; a
  // gap in the else branch makes the second half `if not c: S2`.
  const If *i = parent.as<If>();
  const bool in_then = l.block == &i->then_body;
  Stmt one = i->edited([&](If &n) { (in_then ? n.then_body : n.else_body) = s1; });
  Expr cond = in_then ? i->cond : UnOp::make(UnOpKind::Not, i->cond, i->cond->loc);
  Stmt two = If::make(cond, s2, {}, i->loc);
  return replace_stmt(p, parent->id, [&](const Stmt &) -> Block { return {one, two}; });
}

} // namespace

Value fission(Interpreter &in, const CallSite &call) {
  Proc p = call.proc();
  const Value &g = call.arg("gap").value;
  int64_t n = call.arg("n_lifts").value.int_value;
  Cursor c = cursor_arg(in, p, g, call.loc);
  Located l = resolve(in, p, c, call.loc);
  size_t k = c.kind == Cursor::Kind::GapBefore ? l.index : l.index + c.count;
  for (int64_t level = 0; level < n; ++level) {
    NodeId first = 0;
    p = split_once(in, p, l, k, call.loc, first);
    Located next;
    EXGC_CHECK(locate(*p, first, next)) << "split lost its first half";
    l = next;
    k = next.index + 1;
  }
  return Value::of_proc(p);
}

} // namespace exgc::schedule
