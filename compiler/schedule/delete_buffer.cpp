// delete_buffer.cpp - remove an allocation nothing uses ----------------------//
// delete_buffer(p, alloc): `x: f32[n]` is deleted.
// Checked: no statement after the allocation, in its block, names `x` at
// all (reads, writes, windows, call arguments, barrier uses): deleting an
// unused buffer changes nothing.
// Fails when: `alloc` is not an allocation, or the buffer is used
// (BufferInUse, with a note at the first use).
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
Value delete_buffer(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("alloc").value, call.loc);
  const auto *a = s.as<Alloc>();
  if (!a)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'delete_buffer'", "an allocation");
  Located l;
  locate(*p, s->id, l);
  SrcLoc at;
  if (first_use(*l.block, l.index + 1, l.block->size(), a->name.id, at)) {
    in.diag().report(call.loc, DiagKind::BufferInUse, a->name.name)
        .note(at, "'" + a->name.name + "' is used here");
    throw ScriptAbort{};
  }
  bool only = l.block->size() == 1;
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block {
    if (only)
      return {Pass::make(call.loc)}; // a block is never empty
    return {};
  }));
}

} // namespace exgc::schedule
