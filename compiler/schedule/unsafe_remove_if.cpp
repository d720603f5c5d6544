// unsafe_remove_if.cpp - drop guards without checking them --------------------//
// unsafe_remove_if(p, stmt, recursive=False): `if c: body` becomes `body`;
// with recursive=True, every `if` inside `stmt` (and `stmt` itself when it is
// one) is replaced by its body, each at once (the reference keeps only the
// last child's edits, gap 9; here one rewrite removes them all). `stmt` keeps
// its id when it is not an if.
// Checked: NOTHING about the meaning: the guarded code now also runs where the
// condition was false (out-of-range elements whose values the schedule knows
// to be harmless, as in the GEMM's TMA and wgmma steps). The driver warns of
// the unsafe steps each schedule applied (UnsafeStepsApplied), and the whole result is
// still typechecked again, so an access the removal moved out of bounds is an
// error at the end of the schedule.
// Fails when: `stmt` is not an if and recursive is False
// (CursorKindMismatch); an if to remove has an else branch, which removing it
// would drop (UnsafeRemoveIfElse).
#include "compiler/ir/mutator.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

struct RemoveIfs : IRMutator {
  Interpreter *in;
  SrcLoc loc;
  Block mutate_node(const If *op, const Stmt &) override {
    if (!op->else_body.empty())
      in->fail(loc, DiagKind::UnsafeRemoveIfElse, op->loc.line);
    return mutate(op->then_body);
  }
};

} // namespace

Value unsafe_remove_if(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("stmt").value, call.loc);
  bool recursive = call.arg("recursive").value.int_value != 0;
  const auto *i = s.as<If>();
  if (!i && !recursive)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'unsafe_remove_if'",
            "an if (or any statement, with recursive=True)");
  RemoveIfs r;
  r.in = &in;
  r.loc = call.loc;
  if (i && !recursive) {
    if (!i->else_body.empty())
      in.fail(call.loc, DiagKind::UnsafeRemoveIfElse, i->loc.line);
    Block body = i->then_body;
    return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) { return body; }));
  }
  Block out = r.mutate(s);
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) { return out; }));
}

} // namespace exgc::schedule
