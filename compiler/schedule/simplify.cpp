// simplify.cpp - fold constants and decided conditions ---------------------------------//
// simplify(p): every expression with its control constants folded (`x + 0`,
// `x * 1`, `2 * 3`, `(x + 2) + 3`), and every `if` whose condition is
// provably true or false under the asserts, enclosing loop ranges and
// conditions replaced by the branch that runs (analysis/simplify.h).
// Checked: nothing: each step keeps every value (a condition is folded only
// when Z3 proves it; an Unknown keeps the `if`).
// Fails when: never.
#include "compiler/analysis/simplify.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value simplify_proc(Interpreter &, const CallSite &call) {
  analysis::IndexSolver solver;
  return Value::of_proc(analysis::simplify_proc(call.proc(), solver));
}

} // namespace exgc::schedule
