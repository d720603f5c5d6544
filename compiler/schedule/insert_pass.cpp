// insert_pass.cpp - add a `pass` at a gap -----------------------------------//
// insert_pass(p, gap): a `pass` statement at `gap`, a cursor made with
// `c.before()` or `c.after()` (a place for later primitives to aim at, such
// as the end of a loop body).
// Checked: nothing: `pass` does nothing.
// Fails when: `gap` is not a gap cursor (a statement, a block or a pattern).
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value insert_pass(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  return Value::of_proc(
      insert_at_gap(in, p, call.arg("gap").value, Pass::make(call.loc), "insert_pass", call.loc));
}

} // namespace exgc::schedule
