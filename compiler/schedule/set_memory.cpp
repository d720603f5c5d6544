// set_memory.cpp - choose where an allocated buffer lives ---------------------//
// set_memory(p, alloc, mem): `x: f32[n] @ DRAM` -> `x: f32[n] @ mem`.
// Checked: nothing sequential can change (a memory only says where the
// elements live); which code may touch them there is the typecheck's and the
// backends' to check (the whole-proc re-check runs after the schedule).
// Fails when: `alloc` is not the allocation of a data buffer (a barrier's
// mechanism is not a memory); `mem` is not a known memory (UnknownMemory), is a
// barrier mechanism or special window (MemoryKindMismatch), or has the wrong
// number of parameters (MemoryParams).
#include "compiler/schedule/edit.h"
#include "compiler/schedule/memory_arg.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value set_memory(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("alloc").value, call.loc);
  const auto *a = s.as<Alloc>();
  if (!a || a->type.kind != Type::Kind::Data)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'set_memory'", "the allocation of a buffer");
  const Expr &mem = call.arg("mem").value.meta;
  memory_arg(in, mem, analysis::MemKind::Memory, "'" + a->name.name + "'", call.loc);
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &old) -> Block {
    return {old.as<Alloc>()->edited([&](Alloc &n) { n.type.mem = mem; })};
  }));
}

} // namespace exgc::schedule
