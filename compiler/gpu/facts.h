// facts.h - what the GPU semantics stage tells codegen ----------------------//
// Owns: the results of compiler/gpu/ for one proc: per device function, its
// blockDim and clusterDim, each `cuda_threads` loop's iterator and guard as
// index arithmetic on the thread index, the scope of each Fence, and how many
// leading dimensions of each device allocation are distributed over threads
// (CTAs for shared memory). Codegen emits from these facts instead of
// re-deriving them, so what was checked is what is emitted.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "compiler/gpu/collective.h"
#include "compiler/ir/nodes.h"

namespace exgc::gpu {

struct ThreadLoopFacts {
  bool trivial = false;              // the unit does not narrow: the iterator is 0
  CollIndex iter = CollIndex::constant(0);    // the iterator's value
  CollIndex guarded = CollIndex::constant(0); // what the guards bound
  std::optional<int64_t> guard_lo, guard_hi;  // lo <= guarded < hi
  int64_t pitch = 0;                 // thread-index distance between iterations
  int64_t tile_count = 0;
  // The loop as a narrowing of the thread grid (the sync lowering's view):
  // the grid's extents before the loop and after refining them for its unit,
  // the narrowed dimension of the refined grid, and iteration j's box
  // [offset + j * width, + width) in it, relative to the enclosing box.
  std::vector<int64_t> parent_domain, domain;
  size_t dim = 0;
  int64_t width = 0, offset = 0;
};

/// The collectives a Fence can order, narrowest first.
enum class FenceScope { Thread, Warp, Cta, Cluster };

struct ShardFacts {
  size_t distributed = 0; // leading dimensions owned by different threads / CTAs
};

struct KernelFacts {
  DeviceEnv env;
  std::map<const For *, ThreadLoopFacts> loops;
  std::map<const Fence *, FenceScope> fences;
  std::map<uint32_t, ShardFacts> shards; // by the allocation's Sym id
};

struct GpuFacts {
  std::map<const With *, KernelFacts> kernels;
  const KernelFacts *kernel(const With *w) const {
    auto it = kernels.find(w);
    return it == kernels.end() ? nullptr : &it->second;
  }
};

} // namespace exgc::gpu
