// derived_sizes.h - sizes a `check` adds to the declared ones ---------------//
// Owns: the sizes at which a proc's rings wrap. A `check` at sizes where an
// mbarrier ring of R slots holds at most R elements never reuses a slot, so a
// kernel whose data slots are fewer than its barrier slots (or whose reuse is
// otherwise wrong) passes it. Beside each declared check, exgc checks the
// sizes at which every ring wraps at least twice, once for each residue of R:
// per ring whose extent depends on one size, that size set to the smallest
// value giving the extent 2R, 2R + 1, ..., 3R - 1 at which the preconditions
// hold, the other sizes as declared. Also the edges of the tiles: per
// `cuda_tasks` loop whose trip count depends on a size, the smallest and the
// largest value of it giving 2 tasks (a ragged last tile, and whole tiles).
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/nodes.h"
#include "compiler/synclower/check.h"

namespace exgc::synclower {

/// The checks derived from `declared` (its sizes changed; `derived` says
/// why), none equal to `declared` or to each other.
std::vector<CheckRequest> derived_checks(const ProcNode &proc, const CheckRequest &declared);

} // namespace exgc::synclower
