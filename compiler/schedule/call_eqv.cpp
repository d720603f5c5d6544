// call_eqv.cpp - call a scheduled version of the callee ----------------------//
// call_eqv(p, call, g): `f(args)` becomes `g(args)` (same arguments, trailing
// barriers and id), where `g` is a schedule's result made from `f`.
// Checked: `f` and `g` have one origin: following each back through the
// schedules and steps that made it reaches the same proc (the reference's
// provenance union-find), so every step between them kept the meaning; and
// no unsafe step is on either path (an unsafe step may change the meaning).
// Steps keep a proc's arguments, so the call stays well typed; the result is
// typechecked again whole at the end. `g` must be a proc of the main module's
// scope or a schedule's result (schedules run in order: its schedule must
// come first).
// Fails when: `call` is not a call (CursorKindMismatch); `g` has no name a call
// can use (CalleeNotVisible: a schedule's intermediate proc); the origins
// differ or an unsafe step made one of them (CallNotEquivalent).
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value call_eqv(Interpreter &in, const CallSite &call) {
  const Proc &p = call.args[0].proc;
  Stmt s;
  const CallStmt *cs = call_stmt_arg(in, call, s);
  const Proc &g = call.args[2].proc;
  std::string name = callee_name(in, g);
  for (const auto &[result, q] : in.results())
    if (name.empty() && q.get() == g.get())
      name = result;
  if (name.empty())
    in.fail(call.loc, DiagKind::CalleeNotVisible, g->name);
  Proc f = callee_of(in, p, cs->callee);
  EXGC_CHECK(f) << "a call names a proc in scope or a result: " << cs->callee;
  bool unsafe = false;
  if (in.origin(f, &unsafe).get() != in.origin(g, &unsafe).get())
    in.fail(call.loc, DiagKind::CallNotEquivalent, name, cs->callee,
            "'" + name + "' is not made from '" + cs->callee + "' by schedules");
  if (unsafe)
    in.fail(call.loc, DiagKind::CallNotEquivalent, name, cs->callee,
            "an unsafe step made one of them");
  auto n = std::make_shared<CallStmt>(*cs);
  n->callee = name;
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {Stmt(n)}; }));
}

} // namespace exgc::schedule
