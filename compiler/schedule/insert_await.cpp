// insert_await.cpp - add an Await at a gap ------------------------------------//
// insert_await(p, gap, barrier, timeline, n): `Await(barrier, timeline, n)`
// at `gap`; `barrier` is a string (`"raw[k]"`, points only).
// Checked: nothing sequential changes (an Await does nothing sequentially;
// whether it waits for the right work is the sync checker's job). What can be
// checked here: the gap is inside a `with CudaDeviceFunction` block; the name
// is a barrier allocated before the gap or a barrier argument; the indices use
// names visible there; and the typecheck accepts the statement where it is (a
// synchronization timeline, points only, in bounds, `n >= 0`).
// Fails when: `gap` is not a gap cursor (CursorKindMismatch); it is outside a
// device function (SyncOutsideDevice); the barrier does not parse or is not
// visible (SyncExprSyntax); the typecheck refuses the Await
// (SyncInsertRejected, with its message).
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/sync_support.h"

namespace exgc::schedule {

Value insert_await(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  SyncSite site = sync_site(in, call, "Await");
  Expr bar = barrier_expr(in, p, site.at, site.after, call.arg("barrier").value.str, call.loc);
  Expr n = IntImm::make(call.arg("n").value.int_value, call.loc);
  Stmt s = Await::make(bar, site.timeline, n, call.loc);
  Proc out = insert_at_gap(in, p, call.arg("gap").value, s, "insert_await", call.loc);
  check_inserted(in, out, "Await", {call.loc}, call.loc);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
