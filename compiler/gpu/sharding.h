// sharding.h - distributed memory -----------------------------------------//
// Owns: sharding inference (docs/gpu.md, "Distributed memory"). A device
// allocation has its logical shape; CUDA keeps one copy per thread
// (registers) or per CTA (shared memory). The leading dimensions indexed by
// the parallel loops that split those owners are distributed: each owner
// keeps only its part. Every use must index them with those loops'
// iterators alone, in a way that gives each logical element one owner, and
// all uses must agree. Otherwise the parallel reading differs from the
// sequential one (a scalar register written by 32 threads is one value
// sequentially and 32 copies on the GPU), which is reported at the use.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/analysis/gpu_names.h"
#include "compiler/gpu/facts.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

/// A `cuda_threads` iterator in scope.
struct ThreadIter {
  std::string name;
  int64_t pitch = 0;
  int64_t tile_count = 0;
};
using ThreadIters = std::map<uint32_t, ThreadIter>;

class ShardTracker {
public:
  ShardTracker(DiagEngine &diag, const DeviceEnv &env, std::map<uint32_t, ShardFacts> &out)
      : diag_(diag), env_(env), out_(out) {}

  /// An allocation at tiling `t`; false after reporting.
  bool alloc(const Alloc *a, const Tiling &t);
  /// A use of `buf` at tiling `t`: its index expressions, left to right, with
  /// null for an interval. A buffer that is not a tracked allocation is fine.
  bool use(const Sym &buf, const std::vector<const Expr *> &idx, const Tiling &t,
           const ThreadIters &iters, SrcLoc loc);

private:
  struct Tracked {
    const Alloc *alloc = nullptr;
    Tiling tiling;       // at the allocation
    CollType native;     // the owner of one copy, aligned
    std::string mem;
    analysis::UnitKind unit = analysis::UnitKind::CudaThread; // the memory's native unit
    bool failed = false; // reported once already
    bool seen = false;
    std::vector<int64_t> pitches; // of the distributed dimensions, from the first use
    int64_t base = 0;             // first thread of the first use's owner
    SrcLoc first;
  };
  bool fail(Tracked &t) {
    t.failed = true;
    return false;
  }

  DiagEngine &diag_;
  DeviceEnv env_;
  std::map<uint32_t, ShardFacts> &out_;
  std::map<uint32_t, Tracked> tracked_;
};

} // namespace exgc::gpu
