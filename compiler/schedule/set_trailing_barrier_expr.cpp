// set_trailing_barrier_expr.cpp - set the barrier an instr call completes on --//
// set_trailing_barrier_expr(p, call, barrier): `f(...)` becomes
// `f(...) >> barrier` (`"raw[k]"`, or `"raw[k, :]"` for a multicast),
// replacing any trailing barrier it had. The call keeps its id.
// Checked: nothing sequential changes (a trailing barrier only says which
// barrier the instruction's asynchronous work arrives on). What can be checked
// here: the name is a barrier visible at the call; its indices use names
// visible there; and the typecheck accepts the call with it (the callee has a
// `barrier:` attribute of the barrier's mechanism, indices in bounds).
// Fails when: `call` is not a call (CursorKindMismatch); the barrier does not
// parse or is not visible (SyncExprSyntax); the typecheck refuses the call
// (SyncInsertRejected, with its message).
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/sync_support.h"

namespace exgc::schedule {

Value set_trailing_barrier_expr(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const CallStmt *cs = call_stmt_arg(in, call, s);
  Expr bar = barrier_expr(in, p, s, false, call.arg("barrier").value.str, call.loc);
  Stmt n = cs->edited([&](CallStmt &c) { c.barriers = {bar}; });
  Proc out = replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {n}; });
  check_inserted(in, out, "the trailing barrier", {call.loc, cs->loc}, call.loc);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
