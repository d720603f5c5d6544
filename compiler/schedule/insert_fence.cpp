// insert_fence.cpp - add a Fence at a gap in device code -----------------------//
// insert_fence(p, gap, L1, L2): `Fence(L1, L2)` at `gap`, a cursor made with
// `c.before()` or `c.after()`. The fence orders what the current collective
// did on timeline L1 before it with what it does on L2 after it.
// Checked: L1 and L2 are synchronization timelines (`cuda_in_order`,
// `wgmma_fence_1`, ...); the gap is inside a `with CudaDeviceFunction` (a
// fence means nothing in host code). The sequential meaning cannot change: a
// fence has no sequential effect. Whether the fence is the one the parallel
// program needs (and whether its collective can execute it) is the
// synchronization checker's and the backend's to decide, as in the reference.
// Fails when: `gap` is not a gap cursor (CursorKindMismatch); a timeline is
// not a synchronization timeline (UnknownTimeline); the gap is in host code
// (SyncOutsideDevice).
#include "compiler/analysis/gpu_names.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/sync_support.h"

namespace exgc::schedule {

Value insert_fence(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Cursor gap = gap_arg(in, p, call.arg("gap").value, "insert_fence", call.loc);
  std::string tl[2];
  for (int k = 0; k < 2; ++k) {
    const Expr &m = call.arg(k ? "L2" : "L1").value.meta;
    const auto *name = m.as<Var>();
    tl[k] = name ? name->name.name : print_expr(m);
    if (!name || !analysis::is_sync_timeline(tl[k]))
      in.fail(call.loc, DiagKind::UnknownTimeline, "synchronization", tl[k]);
  }
  require_device(in, *p, gap.node, "Fence(" + tl[0] + ", " + tl[1] + ")", call.loc);
  return Value::of_proc(insert_at_gap(in, p, call.arg("gap").value, Fence::make(tl[0], tl[1], call.loc),
                                      "insert_fence", call.loc));
}

} // namespace exgc::schedule
