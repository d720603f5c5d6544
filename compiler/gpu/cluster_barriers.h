// cluster_barriers.h - mbarriers and multicast in clusters of several CTAs -//
// Owns: barrier sharding over the CTAs of a cluster (an
// mbarrier element lives in one CTA) and the CTA
// groups of multicast instructions. With clusterDim C > 1 an mbarrier array
// is `bar: barrier[C, ...]`: dimension 0 is the CTA holding the element, so
// an Await, a local Arrive and a plain trailing barrier index it with a
// `cuda_cta_in_cluster` iterator; an Arrive may add `>> bar[:, ...]` (a
// remote arrive on every CTA's element) and a multicast instruction
// (`barrier: Mech[cuda_cta_in_cluster]`) takes `>> bar[:, ...]`, completing
// on the barrier of each CTA it writes. Results go to KernelFacts
// (cluster_barriers, remote_arrives, multicasts): the arrive counts and the
// `{cta_mask}` codegen emits, the ranks a remote arrive reaches. Runs inside
// KernelChecker's walk (kernel_checker.h), which gives the tiling and the
// thread iterators.
#pragma once
#include <optional>
#include <string>

#include "compiler/gpu/facts.h"
#include "compiler/gpu/sharding.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

/// The CTA groups of the collectives of `t` for a device of `block_dim`
/// threads per CTA: each collective spans `ncta` CTAs `stride` ranks apart.
/// Empty optional and `err` when a collective mixes parts of CTAs with
/// several CTAs, or spans CTAs along two dimensions of the grid.
std::optional<MulticastGroup> cta_group(const Tiling &t, int64_t block_dim, std::string &err);

class ClusterBarriers {
public:
  ClusterBarriers(DiagEngine &diag, KernelFacts &facts) : diag_(diag), facts_(facts) {}

  /// A barrier allocation; false after reporting.
  bool alloc(const Alloc *a);
  bool arrive(const Arrive *a, const ThreadIters &iters);
  bool await(const Await *a, const ThreadIters &iters);
  /// The trailing barriers of a call of `instr` at tiling `t`.
  bool call(const CallStmt *c, const ProcNode &instr, const Tiling &t, const ThreadIters &iters);
  /// Whether `bar` names an mbarrier sharded over the cluster's CTAs.
  bool is_sharded(const Expr &bar) const {
    const Expr *first = nullptr;
    bool whole = false;
    return sharded(bar, &first, whole) != nullptr;
  }

private:
  /// The sharded barrier `bar` names (null when it is not one), with the
  /// expression's first index: a point (`cta`) or null for `:`.
  const Alloc *sharded(const Expr &bar, const Expr **first, bool &whole) const;
  /// `first` is an iterator over the CTAs of the cluster; else reports.
  bool cta_index(const Alloc &a, const Expr *first, SrcLoc loc, const ThreadIters &iters);
  bool report(const Alloc &a, SrcLoc loc, const std::string &why);

  DiagEngine &diag_;
  KernelFacts &facts_;
  std::map<uint32_t, const Alloc *> allocs_;
  std::map<uint32_t, SrcLoc> first_arrive_;
};

} // namespace exgc::gpu
