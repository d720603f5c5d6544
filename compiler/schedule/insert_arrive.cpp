// insert_arrive.cpp - add an Arrive at a gap ----------------------------------//
// insert_arrive(p, gap, timeline, barriers): `Arrive(timeline) >> b0 >> b1`
// at `gap`, with each barrier a string (`"raw[k]"`, `"war[m, :, k]"` for a
// multicast) or a list of them.
// Checked: nothing sequential changes (an Arrive does nothing sequentially;
// whether it synchronizes the right threads is the sync checker's job). What
// can be checked here: the gap is inside a `with CudaDeviceFunction` block
// (every barrier mechanism lives on the device); each name is a barrier
// allocated before the gap or a barrier argument; the indices use names
// visible there; and the typecheck accepts the statement where it is (a
// synchronization timeline, one index per dimension, indices in bounds).
// Fails when: `gap` is not a gap cursor (CursorKindMismatch); it is outside a
// device function (SyncOutsideDevice); a barrier does not parse or is not
// visible (SyncExprSyntax); the typecheck refuses the Arrive
// (SyncInsertRejected, with its message).
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/sync_support.h"

namespace exgc::schedule {

Value insert_arrive(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  SyncSite site = sync_site(in, call, "Arrive");
  std::vector<Value> texts = call.arg("barriers").value.kind == Value::Kind::List
                                 ? *call.arg("barriers").value.list
                                 : std::vector<Value>{call.arg("barriers").value};
  std::vector<Expr> bars;
  for (const Value &t : texts) {
    if (t.kind != Value::Kind::Str)
      fail_arg(in, call.arg("barriers"),
              "a barrier string or a list of them", t.type_name());
    bars.push_back(barrier_expr(in, p, site.at, site.after, t.str, call.loc));
  }
  if (bars.empty())
    fail_arg(in, call.arg("barriers"),
            "a barrier string or a list of them", "an empty list");
  Stmt s = Arrive::make(site.timeline, bars, call.loc);
  Proc out = insert_at_gap(in, p, call.arg("gap").value, s, "insert_arrive", call.loc);
  check_inserted(in, out, "Arrive", {call.loc}, call.loc);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
