// sync_support.h - helpers of the primitives that insert synchronization -----//
// Owns: what insert_barrier_alloc, insert_arrive, insert_await and
// set_trailing_barrier_expr share: barrier expressions written as strings
// (`"raw[k]"`, `"war[m, :, k]"`, `"cg"`) resolved at a place of the proc,
// timeline arguments, the device-function test, and the re-check of an
// inserted statement by the typecheck. Sync statements do nothing
// sequentially, so these primitives keep the meaning by construction; what
// can be checked statically is that the statement is well formed where it is.
#pragma once
#include <string>

#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// The barrier expression `text` names at the place of statement `at` (a
/// barrier allocated before it, in an enclosing block, or a barrier argument;
/// with `self`, `at` itself too): `Read(bar, idx)`, or `WindowExpr` when a
/// subscript is a slice (multicast). Indices are sizes, index arguments and
/// iterators of the loops around `at`. Reports SyncExprSyntax and aborts.
Expr barrier_expr(Interpreter &in, const Proc &p, const Stmt &at, bool self,
                  const std::string &text, SrcLoc loc);

/// The statement a gap cursor is next to (it is in `p`: resolved here).
Stmt gap_anchor(Interpreter &in, const Proc &p, const Value &gap, const char *prim, SrcLoc loc);

/// Where an Arrive or Await goes: the `gap` argument (its anchor, and
/// whether the gap is after it), checked to be in a device function, and the
/// `timeline` argument.
struct SyncSite {
  Stmt at;
  bool after = false;
  std::string timeline;
};
SyncSite sync_site(Interpreter &in, const CallSite &call, const char *what);

/// Reports SyncOutsideDevice for `what` unless `node` is in a device function
/// (in_device_function, cursor.h).
void require_device(Interpreter &in, const ProcNode &p, NodeId node, const std::string &what,
                    SrcLoc loc);

/// The timeline name a descriptor argument holds (`cuda_temporal`).
std::string timeline_arg(Interpreter &in, const PrimArg &arg);

/// Typechecks `out` and reports the first error located at `locs` as
/// SyncInsertRejected("what", message), with its notes; aborts.
void check_inserted(Interpreter &in, const Proc &out, const std::string &what,
                    const std::vector<SrcLoc> &locs, SrcLoc loc);

} // namespace exgc::schedule
