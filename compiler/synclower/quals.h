// quals.h - which timeline an access is made on -----------------------------//
// Owns: the qual dicts (docs/sync.md, "Checking .exg procs"): from the memory an
// access touches and the timeline of the instruction that makes it, the
// access's initial qual, the extended quals it checks prior records with, and
// whether one thread of its collective speaks for all (convergent). Also which
// memories the checker tracks at all (3.4: host memory and grid constants are
// exempt).
#pragma once
#include <optional>
#include <string>

#include "compiler/analysis/gpu_names.h"
#include "compiler/analysis/memories.h"
#include "compiler/sync/quals.h"

namespace exgc::synclower {

struct AccessQuals {
  sync::Qual initial = sync::Qual::Cuda2;
  sync::QualMask ext = 0;
  bool convergent = false;
};

/// Does the checker keep histories for data in `mem`?
bool tracked_memory(const analysis::MemoryInfo &mem);

/// The quals of an access to `mem` on `timeline` (an instr's `timeline:`, or
/// `cuda_in_order` for plain statements); nullopt when the pair is not in the
/// table (the instruction cannot touch that memory).
std::optional<AccessQuals> access_quals(const analysis::MemoryInfo &mem,
                                        analysis::InstrTimeline timeline);

} // namespace exgc::synclower
