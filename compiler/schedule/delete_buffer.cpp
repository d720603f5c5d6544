// delete_buffer.cpp - remove an allocation nothing uses ----------------------//
// delete_buffer(p, alloc): `x: f32[n]` is deleted.
// Checked: no statement after the allocation, in its block, names `x` at
// all (reads, writes, windows, call arguments, barrier uses): deleting an
// unused buffer changes nothing.
// Fails when: `alloc` is not an allocation, or the buffer is used
// (BufferInUse, with a note at the first use).
#include "compiler/ir/visitor.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// The first statement or expression that names `buf`.
struct FirstUse : IRVisitor {
  uint32_t buf;
  SrcLoc at;
  bool found = false;
  void hit(const Sym &s, SrcLoc loc) {
    if (!found && s.id == buf) {
      found = true;
      at = loc;
    }
  }
  void visit_node(const Read *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowExpr *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Assign *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
};

} // namespace

Value delete_buffer(Interpreter &in, const CallSite &call) {
  const Proc &p = call.args[0].proc;
  Stmt s = stmt_arg(in, p, call.args[1], call.loc);
  const auto *a = s.as<Alloc>();
  if (!a)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'delete_buffer'", "an allocation");
  Located l;
  locate(*p, s->id, l);
  FirstUse use;
  use.buf = a->name.id;
  for (size_t i = l.index + 1; i < l.block->size() && !use.found; ++i)
    use.visit((*l.block)[i]);
  if (use.found) {
    in.diag().report(call.loc, DiagKind::BufferInUse, a->name.name)
        .note(use.at, "'" + a->name.name + "' is used here");
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
