// lower.h - a proc at concrete sizes as a sync program ----------------------//
// Owns: the translation of a checked proc into the abstract machine program
// of compiler/sync/ (docs/sync.md), so that the checker can
// prove that the proc's parallel reading agrees with its sequential one.
// Control values (sizes, loop iterators, indices) stay symbolic; data values
// are never simulated, so control that depends on data cannot be lowered.
// Thread collectives come from the GPU semantics stage (compiler/gpu/facts.h),
// never re-derived. Every lowered statement keeps its .exg location.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>

#include "compiler/gpu/facts.h"
#include "compiler/gpu/gpu_check.h"
#include "compiler/support/diagnostics.h"
#include "compiler/sync/program.h"

namespace exgc::synclower {

/// What a sync statement came from, for reports.
struct Origin {
  SrcLoc loc;
  const gpu::KernelFacts *kernel = nullptr; // null on the host
  const gpu::CallSite *call_site = nullptr; // in the inlined body of a call in device code
};

/// An instruction whose atomic float reductions may commit in any order.
struct Reassociated {
  SrcLoc loc;
  std::string instr, buffer;
};

struct Lowered {
  sync::Program program;
  std::unordered_map<const sync::Stmt *, Origin> origins;
  std::vector<Reassociated> reassociated; // one per call, in program order
};

/// Lowers `proc` with its control arguments bound to `sizes` (by name; the
/// caller checked that every one is given). `facts` are the GPU semantics
/// stage's results for `proc`. False after reporting what cannot be lowered.
bool lower_proc(const ProcNode &proc, const std::map<std::string, int64_t> &sizes,
                const gpu::GpuFacts &facts, const gpu::CalleeLookup &callee,
                const SourceManager &sources, DiagEngine &diag, Lowered &out);

} // namespace exgc::synclower
