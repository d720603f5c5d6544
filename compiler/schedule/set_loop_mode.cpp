// set_loop_mode.cpp - choose how the GPU runs a loop ---------------------------//
// set_loop_mode(p, loop, mode): mode is `seq`, `seq(unroll=k)`, `cuda_tasks`
// or `cuda_threads(unit=U)`.
// Checked: nothing sequential can change (a loop means the same in every
// mode); whether the parallel reading is right is the sync checker's job.
// Fails when: `loop` is not a loop, or `mode` is not a loop mode with its
// keyword arguments.
#include "compiler/analysis/gpu_names.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value set_loop_mode(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  loop_arg(in, p, call.arg("loop").value, "set_loop_mode", call.loc, s);
  const Expr &mode = call.arg("mode").value.meta;
  LoopMode m;
  if (const auto *v = mode.as<Var>()) {
    m.name = v->name.name;
  } else if (const auto *c = mode.as<Call>(); c && c->args.empty()) {
    m.name = c->func;
    m.kwargs = c->kwargs;
  } else {
    fail_arg(in, call.arg("mode"), "a loop mode",
            "another descriptor");
  }
  if (!analysis::is_loop_mode(m.name))
    fail_arg(in, call.arg("mode"), "a loop mode",
            "'" + m.name + "'");
  for (const KwArg &k : m.kwargs)
    if (!analysis::loop_mode_accepts(m.name, k.key))
      in.fail(call.loc, DiagKind::ScriptUnknownKeyword, m.name, k.key);
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &old) -> Block {
    return {old.as<For>()->edited([&](For &n) { n.mode = m; })};
  }));
}

} // namespace exgc::schedule
