// check.h - one `check` of a proc's synchronization -------------------------//
// Owns: running a `check proc(M=..., ...)` declaration (or `--check-size`):
// binding the sizes to the proc's control arguments, checking its
// preconditions at them, lowering (lower.h), running the sync checker and
// reporting its first hazard at the .exg lines involved (report.h).
#pragma once
#include <string>
#include <vector>

#include "compiler/gpu/facts.h"
#include "compiler/gpu/gpu_check.h"
#include "compiler/support/diagnostics.h"
#include "compiler/sync/check.h"

namespace exgc::synclower {

struct CheckRequest {
  std::string proc;
  std::vector<KwArg> sizes; // integer literals, by control-argument name
  SrcLoc loc;               // the declaration; invalid for --check-size
  std::string derived;      // non-empty: sizes exgc derived from the declared ones, and why
};

/// `gemm(M=900, N=700, K=272)`: the check as written.
std::string check_text(const CheckRequest &req);

/// Runs `req` on `proc`. `facts` are the GPU semantics stage's for `proc`.
/// With `sync_text`, the lowered program's text form is appended to it;
/// with `stats`, the run's counters (tasks replayed, iterations skipped).
/// False after reporting (bad sizes, a hazard, a construct the lowering
/// cannot follow, the check's budget).
bool run_check(const ProcNode &proc, const CheckRequest &req, const gpu::GpuFacts &facts,
               const gpu::CalleeLookup &callee, const sync::CheckOptions &opts,
               const SourceManager &sources, DiagEngine &diag, std::string *sync_text,
               sync::RunStats *stats = nullptr);

} // namespace exgc::synclower
