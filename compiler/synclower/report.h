// report.h - a hazard as diagnostics at .exg lines --------------------------//
// Owns: turning the checker's first hazard (compiler/sync/report.h) into
// diagnostics a kernel engineer can act on: an error at the later access, a
// note at the earlier one, the threads in words (warp 1, warpgroup 0, the
// CPU), the loop values, and the kind of synchronization that would order
// the two accesses.
#pragma once
#include <string>

#include "compiler/support/diagnostics.h"
#include "compiler/sync/report.h"
#include "compiler/synclower/lower.h"

namespace exgc::synclower {

/// `check_text` is the check as written (`gemm(M=900, N=700)`); `check_loc`
/// its declaration (invalid for --check-size).
/// `derived`: why exgc chose the sizes (derived_sizes.h); empty for declared ones.
void report_hazard(const sync::Hazard &h, const Lowered &lowered, const std::string &check_text,
                   const std::string &derived,
                   SrcLoc check_loc, DiagEngine &diag);

/// `threads` in words, e.g. "warp 1 of CTA 0" or "threads 0..63"; `kernel`
/// gives the CTA's shape (null: raw thread ids).
std::string threads_in_words(const sync::ThreadSet &threads, const gpu::KernelFacts *kernel);

} // namespace exgc::synclower
