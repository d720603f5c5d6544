// difftest_work.h - what one run of a proc costs, for the size search -----//
// Owns: the work estimate of a difftest case: how many assignments and
// reductions one run of a proc executes (its callees' included), as C++ over
// its control arguments. The size search keeps the runs of a case cheap; the
// product of the sizes alone cannot see loop nests (a triple loop over n
// costs n^3, not n).
#pragma once
#include <functional>
#include <string>

#include "compiler/codegen/difftest_ctrl.h"

namespace exgc::codegen {

/// The proc or instruction a proc calls by a name (null when unknown).
using CalleeOf = std::function<Proc(const ProcNode *, const std::string &)>;

/// The statements one run of `p` executes, as an int64_t C++ expression over
/// the control arguments `ctrl` names; past exgdt::kMaxWork it saturates.
/// Exact where no loop bound depends on an enclosing iterator; a loop whose
/// body's work does counts its trips times the larger work of its first and
/// last iteration. Conditions are not evaluated (an `if` costs its dearer
/// branch), and a bound the printer cannot write counts its loop once.
std::string work_expr(const ProcNode &p, const CtrlPrinter &ctrl, const CalleeOf &callee);

} // namespace exgc::codegen
