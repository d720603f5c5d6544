// sink_alloc.cpp - move an allocation into the loop or if after it ----------------//
// sink_alloc(p, alloc): `t: T; for i: body` becomes `for i: t: T; body`, and
// `t: T; if c: A else: B` becomes `if c: t: T; A else: t': T; B` (an
// allocation in each branch that names `t`; the else one is a new binding of
// the same name). The loop, the if and their statements keep their ids.
// Checked: the statement after the allocation is a loop or an if, and
// nothing after that statement names `t` (its values do not flow out). For a
// loop, no value flows from one iteration into a later one: for every read of
// `t` (or `+=` into it) and every reachable instance of it, the element is
// written earlier in the same iteration, by a statement before the reading
// one (at its level or an enclosing one inside the loop body), or else no
// earlier iteration writes or reduces into that element (then the read saw
// an undefined value before, as it does after). Decided with Z3, a
// forall-exists question (DependenceAnalyzer::flows); a write under a
// condition or bound the solver cannot read covers nothing. Exo checks nothing here
// (a TODO). An if runs a branch at most once: nothing can flow.
// Fails when: `alloc` is not the allocation of a data buffer
// (CursorKindMismatch); the next
// statement is not a loop or if (SinkAllocNoScope); `t` is used after it
// (SinkAllocUsedAfter, note at the use); a read may see a value of an earlier
// iteration (SinkAllocValueFlows: notes at the read and the write,
// counterexample); the
// solver gives up (SolverUnknown).
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// Walks a loop body, checking each read of `buf` against the writes of the
/// statements before it (at its own level and every enclosing level).
struct FlowCheck {
  Interpreter &in;
  const analysis::EffectCollector &coll;
  analysis::DependenceAnalyzer &dep;
  uint32_t buf;
  SrcLoc loc;
  analysis::LoopInstance loop;            // the loop the allocation moves into
  std::vector<analysis::Access> earlier;  // its writes and reduces into buf

  /// `ctx` holds the scopes down to `b`; `writes` the writes before it.
  void block(const Block &b, analysis::Context &ctx, std::vector<analysis::Access> writes) {
    for (const Stmt &s : b) {
      if (const auto *f = s.as<For>()) {
        ctx.scopes.push_back(analysis::Scope{true, f->iter, f->lo, f->hi, Expr(), false});
        block(f->body, ctx, writes);
        ctx.scopes.pop_back();
      } else if (const auto *i = s.as<If>()) {
        ctx.scopes.push_back(analysis::Scope{false, Sym(), Expr(), Expr(), i->cond, false});
        block(i->then_body, ctx, writes);
        ctx.scopes.back().negated = true;
        block(i->else_body, ctx, writes);
        ctx.scopes.pop_back();
      } else if (const auto *w = s.as<With>()) {
        block(w->body, ctx, writes);
      }
      analysis::Effects fx = coll.of(s);
      if (!s.as<For>() && !s.as<If>() && !s.as<With>())
        for (const analysis::Access &a : fx.accesses)
          if (a.buf.id == buf && a.kind != analysis::AccessKind::Write)
            check_read(a, ctx, writes);
      for (analysis::Access &a : fx.accesses)
        if (a.buf.id == buf && a.kind == analysis::AccessKind::Write)
          writes.push_back(std::move(a));
    }
  }

  /// Refuses a read that may see a value an earlier iteration wrote, where
  /// this iteration did not write the element before the read.
  void check_read(const analysis::Access &r, const analysis::Context &ctx,
                  const std::vector<analysis::Access> &writes) {
    analysis::Conflict c;
    analysis::Answer ans = dep.flows(ctx, r, writes, loop, earlier, &c);
    if (ans == analysis::Answer::NoConflict)
      return;
    if (ans == analysis::Answer::Unknown)
      fail_unknown(in, loc, "that '" + r.text + "' reads no value of an earlier iteration", dep.solver());
    auto d = in.diag().report(loc, DiagKind::SinkAllocValueFlows, r.text);
    d.note(r.loc, "'" + r.text + "' " + analysis::access_verb(r.kind) + " '" + r.buf.name + "' here");
    d.note(c.first.loc, "'" + c.first.text + "' " + analysis::access_verb(c.first.kind) +
                            " it in an earlier iteration");
    if (!c.cex.values.empty())
      d.note(loc, "for example " + c.cex.str());
    throw ScriptAbort{};
  }
};

/// The first statement or expression in `b` that names `buf`.
bool first_use(const Block &b, const Sym &buf, SrcLoc &at) {
  for (const Stmt &s : b)
    if (analysis::mentions(Block{s}, buf)) {
      at = s->loc;
      return true;
    }
  return false;
}

} // namespace

Value sink_alloc(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("alloc").value, call.loc);
  const auto *a = s.as<Alloc>();
  if (!a || a->type.kind != Type::Kind::Data)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'sink_alloc'", "the allocation of a buffer");
  Located l;
  locate(*p, s->id, l);
  const Stmt next = l.index + 1 < l.block->size() ? (*l.block)[l.index + 1] : Stmt();
  if (!next || (!next.as<For>() && !next.as<If>()))
    in.fail(call.loc, DiagKind::SinkAllocNoScope, a->name.name);
  Block after(l.block->begin() + static_cast<long>(l.index + 2), l.block->end());
  if (SrcLoc at; first_use(after, a->name, at)) {
    in.diag().report(call.loc, DiagKind::SinkAllocUsedAfter, a->name.name,
                     next.as<For>() ? "loop" : "if")
        .note(at, "'" + a->name.name + "' is used here");
    throw ScriptAbort{};
  }

  Block moved;
  if (const auto *f = next.as<For>()) {
    analysis::EffectCollector coll(*p, callee_lookup(in, p));
    analysis::IndexSolver solver;
    analysis::DependenceAnalyzer dep(solver);
    FlowCheck check{in, coll, dep, a->name.id, call.loc, {f->iter, f->lo, f->hi}, {}};
    for (const analysis::Access &acc : coll.of(f->body).accesses)
      if (acc.buf.id == a->name.id && acc.kind != analysis::AccessKind::Read)
        check.earlier.push_back(acc); // an earlier `+=` leaves a value too
    analysis::Context ctx = context_at(p, next);
    ctx.scopes.push_back(analysis::Scope{true, f->iter, f->lo, f->hi, Expr(), false});
    check.block(f->body, ctx, {});
    moved = {f->edited([&](For &n) { n.body.insert(n.body.begin(), s); })};
  } else {
    const If *i = next.as<If>();
    bool in_else = analysis::mentions(i->else_body, a->name);
    moved = {i->edited([&](If &n) {
      if (analysis::mentions(i->then_body, a->name) || !in_else)
        n.then_body.insert(n.then_body.begin(), s);
      if (!in_else)
        return;
      // The else branch gets its own binding, unless the allocation went
      // only there (then it keeps the original one, and its id).
      bool both = n.then_body.front().same_as(s);
      Sym name = both ? Sym::fresh(a->name.name) : a->name;
      Stmt decl = s;
      if (both) {
        decl = Alloc::make(name, a->type, a->loc);
        n.else_body = rename_buffer(i->else_body, a->name, name);
      }
      n.else_body.insert(n.else_body.begin(), decl);
    })};
  }
  return Value::of_proc(replace_block(p, {s, next}, moved));
}

} // namespace exgc::schedule
