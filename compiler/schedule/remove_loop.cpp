// remove_loop.cpp - replace a loop by one run of its body ------------------------//
// remove_loop(p, loop): `for i in seq(lo, hi): body` becomes `body`.
// Checked (Exo's condition, with its guard test fixed to hi > lo): the body
// does not use i; the loop runs at least once (hi > lo for every size the
// asserts and enclosing scopes allow, exactly with Z3); and the body is
// idempotent: it reduces into no buffer it does not allocate, and no element
// it reads is one it writes (so a second run changes nothing).
// Fails when: `loop` is not a loop; the body uses i; the loop may run zero
// times (with a counterexample); the body is not idempotent (notes at the
// accesses); the solver gives up.
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

void check_idempotent(Interpreter &in, const Proc &p, const Stmt &s, const Block &body,
                      const std::string &loop_name, SrcLoc loc, const For *across) {
  const DiagKind kind = across ? DiagKind::RecomputeReadsWritten : DiagKind::NotIdempotent;
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::Effects all = coll.of(body);
  analysis::Effects rd = all, wr = all;
  rd.accesses.clear();
  wr.accesses.clear();
  for (const analysis::Access &a : all.accesses) {
    if (a.kind == analysis::AccessKind::Reduce && !all.defs.count(a.buf.id)) {
      auto d = in.diag().report(loc, kind, loop_name, a.buf.name);
      d.note(a.loc, across ? "'" + a.text + " += ...' here reads the value it updates"
                           : "'" + a.text + "' reduces into '" + a.buf.name + "' here");
      throw ScriptAbort{};
    }
    (a.kind == analysis::AccessKind::Read ? rd : wr).accesses.push_back(a);
  }
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  analysis::Conflict c;
  // Across a loop, each side has its own copy of the iterator and no relation
  // between them: every pair of iterations, the same one included.
  std::vector<analysis::LoopInstance> loops;
  if (across)
    loops.push_back({across->iter, across->lo, across->hi});
  analysis::Answer ans = dep.conflict(context_at(p, s), loops, rd, wr, nullptr, &c);
  if (ans == analysis::Answer::Unknown)
    fail_unknown(in, loc,
                 across ? "that no iteration of '" + loop_name + "' reads what one writes"
                        : "that the body of '" + loop_name + "' is idempotent",
                 solver);
  if (ans == analysis::Answer::Conflict)
    fail_conflict(in, loc, c, kind, loop_name, c.first.buf.name);
}

Value remove_loop(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const For *f = loop_arg(in, p, call.arg("loop").value, "remove_loop", call.loc, s);
  if (analysis::mentions(f->body, f->iter))
    in.fail(call.loc, DiagKind::LoopIterUsed, f->iter.name);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  require(in, dep, context_at(p, s), BinOp::make(BinOpKind::Gt, f->hi, f->lo), call.loc,
          "that loop '" + f->iter.name + "' runs at least once", DiagKind::LoopMayNotRun, f->iter.name,
          print_expr(f->lo), print_expr(f->hi));
  check_idempotent(in, p, s, f->body, f->iter.name, call.loc);
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) { return f->body; }));
}

} // namespace exgc::schedule
