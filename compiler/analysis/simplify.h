// simplify.h - the shared simplifier of index expressions ----------------------//
// Owns: simplification that never changes a value: constant folding of
// control arithmetic and comparisons (floor `/` and `%`), `x + 0`, `x - 0`,
// `x * 1`, `x * 0` on control values, gathering the constants of a sum
// (`(x + 2) + 3` is `x + 5`), `and`/`or`/`not` of constants; in a proc, also
// index arithmetic in canonical form where that is smaller (index_form.h:
// `16 * (n + 1) - n * 16` is `16`, `n / 4 / 2` is `n / 8`), and folding an
// `if` whose condition the IndexSolver proves true or false under the
// enclosing loop ranges, conditions and the proc's asserts. Data arithmetic
// is left alone (beyond what a literal `if` decides).
#pragma once
#include "compiler/analysis/solver.h"
#include "compiler/ir/nodes.h"

namespace exgc::analysis {

/// `e` with constants folded (control arithmetic only); the same handle when
/// nothing changes.
Expr simplify_expr(const Expr &e);

/// `p` with every expression simplified and every `if` whose condition is
/// provably true or false (under its context) replaced by the branch that
/// runs. An Unknown answer keeps the `if`. Returns `p` when nothing changes.
Proc simplify_proc(const Proc &p, IndexSolver &solver);

} // namespace exgc::analysis
