// simplify.h - the simplifier of a proc's index expressions ---------------------//
// Owns: simplification of a whole proc that never changes a value: the
// constant folding of ir/fold.h, index arithmetic in canonical form where
// that is smaller (index_form.h: `16 * (n + 1) - n * 16` is `16`, `n / 4 / 2`
// is `n / 8`), and folding an
// `if` whose condition the IndexSolver proves true or false under the
// enclosing loop ranges, conditions and the proc's asserts. Data arithmetic
// is left alone (beyond what a literal `if` decides).
#pragma once
#include "compiler/analysis/solver.h"
#include "compiler/ir/nodes.h"

namespace exgc::analysis {

/// `p` with every expression simplified and every `if` whose condition is
/// provably true or false (under its context) replaced by the branch that
/// runs. An Unknown answer keeps the `if`. Returns `p` when nothing changes.
Proc simplify_proc(const Proc &p, IndexSolver &solver);

} // namespace exgc::analysis
