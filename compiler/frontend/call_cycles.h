// call_cycles.h - procs that call themselves, through any chain of calls --//
// Owns: the typecheck's refusal of recursion. A proc's meaning is its body
// run once, with each call run to its end; code that calls a proc within
// itself has no such meaning that ends, and no backend can emit it. Checked
// over the whole program, so `--verify` refuses what `-o` would (the
// backends keep the same check for procs that schedules make).
#pragma once
#include <set>
#include <vector>

#include "compiler/frontend/program.h"
#include "compiler/support/diagnostics.h"

namespace exgc::tc {

/// Reports, for procs visited in the order of `procs`, each call that closes
/// a cycle of calls (RecursiveCall, at the call, with a note at the callee),
/// and adds every proc on a cycle to `on_cycle`.
void check_call_cycles(const Program &program, const std::vector<const ProcNode *> &procs,
                       DiagEngine &diag, std::set<const ProcNode *> &on_cycle);

} // namespace exgc::tc
