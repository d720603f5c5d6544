// emu/exec/mbarrier_release.cpp - an mbarrier.init another CTA cannot see yet //
// The rule (PTX ISA, "Memory Consistency Model" and 9.7.13.4 membar/fence):
// mbarrier.init is a write to the initializing thread's shared::cta memory.
// A thread of another CTA of the cluster that operates on the object (a
// remote arrive or expect_tx through a shared::cluster address, or the
// complete_tx of a TMA load or bulk copy it issues into that CTA) sees the
// init only if it is released at cluster scope after the init. The ISA
// provides fence.mbarrier_init.release.cluster for exactly this ("the
// synchronizing effect of the fence only applies to the prior mbarrier.init
// operations executed by the same thread on mbarrier objects in .shared::cta
// state space"), and its example pairs it with barrier.cluster.arrive.relaxed,
// which releases nothing itself. So an init counts as released once, after it:
//   - the initializing thread executes fence.mbarrier_init.release.cluster, or
//   - any thread of its CTA executes a release at cluster scope or wider:
//     barrier.cluster.arrive without .relaxed (its default is .release),
//     fence.sc/acq_rel/release at .cluster/.gpu/.sys, membar.gl/.sys.
// The second is lenient (it takes another thread's release as cumulative,
// without checking that the init is ordered before it), so the detector
// flags only inits that nothing released. Same-CTA use (the CTA's threads,
// or TMA loads that a thread of the same CTA issues) needs no cluster
// release: bar.sync and program order order it, and is not checked.
#include "emu/exec/ops.h"

#include <algorithm>
#include <cstdio>

namespace emu::exec {

void mbarrier_init_noted(Exec &x, Cta &owner, uint32_t off, int lane) {
  if (x.cluster->ctas.size() < 2)
    return; // no other CTA can use it
  uint32_t t = x.warp->id * 32 + uint32_t(lane);
  auto &v = owner.unreleased_inits;
  auto it = std::find_if(v.begin(), v.end(), [off](const auto &e) { return e.first == off; });
  if (it != v.end())
    it->second = t;
  else
    v.emplace_back(off, t);
}

void mbarrier_inval_noted(Cta &owner, uint32_t off) {
  auto &v = owner.unreleased_inits;
  v.erase(std::remove_if(v.begin(), v.end(), [off](const auto &e) { return e.first == off; }), v.end());
}

void cluster_release(Exec &x, uint32_t mask, bool inits_only) {
  auto &v = x.cta->unreleased_inits;
  if (v.empty())
    return;
  if (!inits_only) {
    v.clear();
    return;
  }
  uint32_t base = x.warp->id * 32;
  v.erase(std::remove_if(v.begin(), v.end(),
                         [&](const auto &e) { return e.second >= base && e.second < base + 32 &&
                                                     (mask >> (e.second - base) & 1); }),
          v.end());
}

void check_init_released(Exec &x, const Cta &owner, uint32_t off, int lane, const char *what) {
  if (&owner == x.cta || owner.unreleased_inits.empty())
    return;
  for (const auto &e : owner.unreleased_inits) {
    if (e.first != off)
      continue;
    char b[400];
    std::snprintf(b, sizeof b,
                  "%s of CTA rank %u operates on the mbarrier at shared 0x%x of CTA rank %u, whose "
                  "mbarrier.init (by thread %u of that CTA) was not released to the cluster: the init needs "
                  "fence.mbarrier_init.release.cluster (or another release at cluster scope, such as "
                  "barrier.cluster.arrive without .relaxed) before another CTA uses the object",
                  what, x.cta->rank, off + kSmemBase, owner.rank, e.second);
    detected(x, lane, Detector::MbarrierInitRelease, Hazard::BarrierMisuse, b);
    return;
  }
}

} // namespace emu::exec
