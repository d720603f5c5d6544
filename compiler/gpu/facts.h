// facts.h - what the GPU semantics stage tells codegen ----------------------//
// Owns: the results of compiler/gpu/ for one proc: per device function, its
// launch configuration and task nest, its barriers, its arrays' sizes and
// shared-memory layout, each `cuda_threads` loop's iterator and guard as
// index arithmetic on the thread index, the scope of each Fence, and how many
// leading dimensions of each device allocation are distributed over threads
// (CTAs for shared memory), the warp roles and each `CudaWarps` block's warps,
// and in clusters the CTA shards of mbarriers, remote arrives and multicasts.
// Codegen emits from these facts instead of
// re-deriving them, so what was checked is what is emitted.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/gpu/barrier_plan.h"
#include "compiler/gpu/collective.h"
#include "compiler/gpu/launch_config.h"
#include "compiler/gpu/shared_layout.h"
#include "compiler/gpu/task_nest.h"
#include "compiler/ir/nodes.h"

namespace exgc::gpu {

/// A `cuda_threads` loop or `CudaWarps` block as a narrowing of the thread
/// grid (the sync lowering's view): the grid's extents before it and after
/// refining them for its unit, the narrowed dimension of the refined grid,
/// and iteration j's box [offset + j * width, + width) in that dimension,
/// relative to the enclosing box.
struct GridNarrowing {
  std::vector<int64_t> parent_domain, domain;
  size_t dim = 0;
  int64_t width = 0, offset = 0;
};

struct ThreadLoopFacts {
  bool trivial = false;              // the unit does not narrow: the iterator is 0
  CollIndex iter = CollIndex::constant(0);    // the iterator's value
  CollIndex guarded = CollIndex::constant(0); // what the guards bound
  std::optional<int64_t> guard_lo, guard_hi;  // lo <= guarded < hi
  int64_t pitch = 0;                 // thread-index distance between iterations
  int64_t tile_count = 0;
  GridNarrowing grid; // when not trivial
};

/// The collectives a Fence can order, narrowest first.
enum class FenceScope { Thread, Warp, Warpgroup, Cta, Cluster };

struct ShardFacts {
  size_t distributed = 0; // leading dimensions owned by different threads / CTAs
};

/// A role of `CudaDeviceFunction(warps=[warp_role(...)])`: the warps
/// [lo, hi) of each CTA, in declaration order from warp 0.
struct WarpRole {
  std::string name;
  int64_t lo = 0, hi = 0;
  int64_t setmaxnreg = 0; // registers per thread after setmaxnreg; 0: none
  bool increase = false;  // setmaxnreg.inc (else .dec)
  SrcLoc loc;
};

/// A `with CudaWarps(...)` block. At task scope: the warps [lo, hi) of the
/// CTA run its body. Nested (inside another CudaWarps, or under a
/// `cuda_threads` loop of a blockDim kernel): warps [lo, hi) of the enclosing
/// collective, whose threads `guard_lo <= guarded < guard_hi` select.
struct WarpsBlockFacts {
  int64_t lo = 0, hi = 0;
  int role = -1; // index in KernelFacts::roles; -1 when it names no role
  bool nested = false;
  bool trivial = false; // nested (0, 1) of a one-warp collective: narrows nothing
  CollIndex guarded = CollIndex::constant(0);
  std::optional<int64_t> guard_lo, guard_hi;
  GridNarrowing grid; // when not trivial
};

/// An mbarrier array of a kernel whose clusters have several CTAs: dimension
/// 0 names the CTA whose shared memory holds each element (its shard).
struct ClusterBarrierFacts {
  // CTAs whose Arrives reach one element (the home CTA's and the remote
  // ones'): an mbarrier's arrive count is an Arrive's arrivals() x this.
  int64_t arriving_ctas = 1;
};

/// The CTAs of a multicast instruction's collective, in groups of `ncta`
/// cluster ranks `stride` apart; rank r multicasts to the group holding r
/// (exg::sm90::multicast_mask(r, ncta, stride), the `{cta_mask}` hole).
struct MulticastGroup {
  int64_t ncta = 1, stride = 1;
};

/// Who performs an Arrive on an mbarrier. A collective of whole warps arrives
/// once per warp: its lanes meet (__syncwarp orders their earlier memory
/// operations before lane 0's) and lane 0's release arrive covers them, as
/// every thread's own arrive would; 32 times fewer arrivals on one shared-memory
/// word per phase. Any other collective arrives once per thread.
struct ArriveFacts {
  int64_t threads = 1;   // threads of the collective that runs the Arrive
  bool per_warp = false; // they are whole warps of a CTA
  // The Arrive's generic-proxy writes reach an Await of the barrier that
  // grants async-proxy access (TMA, wgmma): a proxy fence goes before the
  // release (barrier_plan.cpp).
  bool proxy_fence = false;
  int64_t arrivals() const { return per_warp ? threads / 32 : threads; }
};

/// What a Fence is on the GPU. A Fence with neither form (an ordering the
/// checker models but no instruction gives) has no FenceFacts.
enum class FenceForm {
  // Fence(cuda_in_order, cuda_in_order or cuda_generic_and_async_proxy): the
  // barrier of `scope`'s collective, after a proxy fence when it orders
  // generic-proxy accesses before async-proxy ones.
  Barrier,
  // Fence(wgmma_fence_1, wgmma_fence_2): wgmma.fence, by a warpgroup.
  WgmmaFence,
};

struct FenceFacts {
  FenceForm form = FenceForm::Barrier;
  FenceScope scope = FenceScope::Thread;
  bool proxy_fence = false;
};

struct KernelFacts {
  LaunchConfig config; // the device function's keywords (launch_config.h)
  TaskNest tasks;      // its `cuda_tasks` loops and the task body (task_nest.h)
  std::vector<WarpRole> roles; // empty when the device function gives blockDim
  std::map<const With *, WarpsBlockFacts> warps;
  // The collective that runs each Arrive: its arrivals() are an mbarrier's
  // arrive count per phase.
  std::map<const Arrive *, ArriveFacts> arrives;
  std::map<const For *, ThreadLoopFacts> loops;
  std::map<const Fence *, FenceFacts> fences;
  std::map<uint32_t, ShardFacts> shards; // by the allocation's Sym id
  SharedLayout shared; // every array's stored elements, shared memory's offsets
  // Every barrier allocated in the task body, by Sym id (barrier_plan.h);
  // those at the body's top level in order.
  std::map<uint32_t, BarrierPlan> barriers;
  std::vector<const Alloc *> top_barriers;
  // Clusters of several CTAs only: mbarrier arrays by Sym id; each Arrive
  // that reaches other CTAs, with the cluster ranks each of its threads
  // arrives on (its own included); each call of a multicast instruction.
  std::map<uint32_t, ClusterBarrierFacts> cluster_barriers;
  std::map<const Arrive *, std::vector<int64_t>> remote_arrives;
  std::map<const CallStmt *, MulticastGroup> multicasts;
};

/// A call of a proc in device code, whose body was inlined (device_calls.h).
struct CallSite {
  SrcLoc loc;
  std::string callee;
};

struct GpuFacts {
  std::map<const With *, KernelFacts> kernels;
  // Given to the stage with the proc: the top statements of each body
  // inlined from a call in device code, by id, for notes at the call of
  // what is found inside.
  std::map<NodeId, CallSite> inlined_from;
  const KernelFacts *kernel(const With *w) const {
    auto it = kernels.find(w);
    return it == kernels.end() ? nullptr : &it->second;
  }
};

} // namespace exgc::gpu
