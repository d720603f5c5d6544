// rename.cpp - give a proc a new name ----------------------------------------//
// rename(p, name): the same proc called `name`. Checked: nothing (a name has
// no meaning of its own). Fails when: never.
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value rename_proc(Interpreter &, const CallSite &call) {
  auto p = std::make_shared<ProcNode>(*call.proc());
  p->name = call.arg("name").value.str;
  return Value::of_proc(p);
}

} // namespace exgc::schedule
