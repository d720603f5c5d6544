// barrier_plan.h - the barriers of a kernel, read once ----------------------//
// Owns: what each barrier allocated in a task body is, decided in the GPU
// stage for the sync lowering and the CUDA backend alike: its mechanism (an
// enum; the memory's name only for messages), its ring (the dimension with
// `@ ring(R)`, and R), an mbarrier's pre-arrived elements, its arrive count
// per phase (the arrivals of the collective that runs its Arrives, times the
// CTAs whose Arrives reach one element) and, in a cluster, its CTA
// dimension. An mbarrier is `barrier[(n) @ ring(R)]` (after the CTA
// dimension in a cluster) with some Arrive; anything else is a located error
// here, not in a backend.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

struct KernelFacts;

enum class BarrierKind {
  Mbarrier,         // CudaMbarrier: split arrive / wait, a ring of R per CTA
  ClusterSync,      // CudaClusterSync: the split cluster barrier
  WgmmaCommitGroup, // Sm90_WgmmaCommitGroup: wgmma commit / wait_group
  TmaCommitGroup,   // Sm90_TmaCommitGroup: bulk commit / wait_group.read
  CommitGroup,      // CudaCommitGroup, Sm80_CommitGroup: cp.async groups
};

struct BarrierPlan {
  BarrierKind kind = BarrierKind::Mbarrier;
  const char *mechanism = ""; // the memory's name, for messages
  int ring_dim = -1;          // the dimension with `@ ring(R)`; -1: none
  int64_t ring = 1;           // R: an mbarrier's slots per CTA
  int64_t pre_arrive = 0;     // elements arrived before the first task
  int64_t arrive_count = 0;   // an mbarrier's arrivals per phase
  // Arrives by collectives of different sizes: no one count per phase to
  // initialise an mbarrier with. A backend limit (an arrive could carry a
  // count), not a GPU-semantics error: the sync checker models any number of
  // arrivals and names the race a mismatch causes; the backend refuses it.
  const Arrive *mixed_arrivals = nullptr; // the first Arrive of another size
  int cta_dims = 0;           // 1 in a cluster: dimension 0 is the CTA
  int64_t arriving_ctas = 1;  // CTAs whose Arrives reach one element
  Expr extent;                // an mbarrier's elements per task
};

/// Plans every barrier allocated in the task body of `facts` (its Arrives'
/// collectives and cluster shards known) into `facts.barriers`, those at the
/// body's top level also into `facts.top_barriers` in order. Reports a
/// barrier no rule allows and returns false.
bool plan_barriers(const Block &task_body, KernelFacts &facts, DiagEngine &diag);

} // namespace exgc::gpu
