// barrier_plan.cpp - the barriers of a kernel, read once --------------------//
#include "compiler/gpu/barrier_plan.h"

#include <optional>

#include "compiler/analysis/memories.h"
#include "compiler/gpu/facts.h"
#include "compiler/ir/fold.h"
#include "compiler/ir/visitor.h"
#include "compiler/support/check.h"
#include "compiler/sync/quals.h"

namespace exgc::gpu {

namespace {

std::optional<BarrierKind> kind_of(analysis::MemId mechanism) {
  using analysis::MemId;
  switch (mechanism) {
  case MemId::CudaMbarrier: return BarrierKind::Mbarrier;
  case MemId::CudaClusterSync: return BarrierKind::ClusterSync;
  case MemId::Sm90_WgmmaCommitGroup: return BarrierKind::WgmmaCommitGroup;
  case MemId::Sm90_TmaCommitGroup: return BarrierKind::TmaCommitGroup;
  case MemId::CudaCommitGroup:
  case MemId::Sm80_CommitGroup: return BarrierKind::CommitGroup;
  case MemId::DRAM:
  case MemId::CudaGmemLinear:
  case MemId::CudaGridConstant:
  case MemId::CudaSmemLinear:
  case MemId::Sm90_SmemSwizzled:
  case MemId::CudaRmem:
  case MemId::CudaRmemUniform:
  case MemId::CudaRmemPacked32:
  case MemId::Sm90_RmemMatrixA:
  case MemId::Sm90_RmemMatrixD:
  case MemId::Sm90_tensorMap: return std::nullopt; // not a barrier mechanism
  }
  return std::nullopt;
}

/// Every barrier allocation of a task body, every Arrive on each, and what
/// its Awaits grant (the union of their second sync-timelines).
class Barriers : public IRVisitor {
public:
  std::vector<const Alloc *> allocs;
  std::map<uint32_t, std::vector<const Arrive *>> arrives; // by Sym id
  std::map<uint32_t, sync::SyncTl> await_second;           // by Sym id

protected:
  void visit_node(const Alloc *a) override {
    if (a->type.kind == Type::Kind::Barrier)
      allocs.push_back(a);
    IRVisitor::visit_node(a);
  }
  void visit_node(const Arrive *a) override {
    for (const Expr &b : a->barriers)
      if (const Sym *s = named_buffer(b)) {
        std::vector<const Arrive *> &list = arrives[s->id];
        if (list.empty() || list.back() != a) // `>> raw[cta, k] >> raw[:, k]`: one Arrive
          list.push_back(a);
      }
    IRVisitor::visit_node(a);
  }
  void visit_node(const Await *a) override {
    const Sym *s = named_buffer(a->bar);
    std::optional<sync::SyncTl> tl = sync::lookup_sync_tl(a->timeline);
    if (s && tl) {
      sync::SyncTl &acc = await_second[s->id];
      acc.full |= tl->full;
      acc.temp |= tl->temp;
    }
    IRVisitor::visit_node(a);
  }
};

class Planner {
public:
  Planner(KernelFacts &facts, DiagEngine &diag) : facts_(facts), diag_(diag) {}

  bool plan(const Alloc *a, const std::vector<const Arrive *> &arrives, BarrierPlan &p) {
    const analysis::MemoryRef mech = analysis::resolve_memory(a->type.mem);
    std::optional<BarrierKind> kind = mech ? kind_of(mech.info->id) : std::nullopt;
    EXGC_CHECK(kind) << "barrier '" << a->name.name << "' of a memory typecheck admits as none";
    p.kind = *kind;
    p.mechanism = mech.info->name;
    for (size_t d = 0; d < a->type.ring.size(); ++d) {
      if (!a->type.ring[d])
        continue;
      if (p.ring_dim >= 0)
        return diag_.report(a->loc, DiagKind::BadBarrierPlan, a->name.name,
                            "has two ring dimensions; a barrier has at most one");
      p.ring_dim = static_cast<int>(d);
      const_int(a->type.ring[d], p.ring); // typecheck: a positive literal
    }
    return p.kind != BarrierKind::Mbarrier || mbarrier(a, mech, arrives, p);
  }

private:
  bool mbarrier(const Alloc *a, const analysis::MemoryRef &mech,
                const std::vector<const Arrive *> &arrives, BarrierPlan &p) {
    // In a cluster, dimension 0 is the CTA holding the element (the stage
    // checked it): each CTA keeps the ring of its own elements.
    auto sharded = facts_.cluster_barriers.find(a->name.id);
    if (sharded != facts_.cluster_barriers.end()) {
      p.cta_dims = 1;
      p.arriving_ctas = sharded->second.arriving_ctas;
    }
    const size_t ring_dim = static_cast<size_t>(p.cta_dims);
    if (a->type.shape.size() != ring_dim + 1 || p.ring_dim != static_cast<int>(ring_dim))
      return diag_.report(a->loc, DiagKind::BadBarrierPlan, a->name.name,
                          std::string("must be 'barrier[") + (p.cta_dims ? "ncta, " : "") +
                              "(n) @ ring(R)]' (a ring of R mbarriers per CTA" +
                              (p.cta_dims ? ", after the dimension of the cluster's CTAs)"
                                          : ")"));
    p.extent = a->type.shape[ring_dim];
    if (const Expr *pre = mech.kwarg("pre_arrive"); pre && *pre)
      const_int(*pre, p.pre_arrive); // typecheck: a non-negative literal
    if (arrives.empty())
      return diag_.report(a->loc, DiagKind::BadBarrierPlan, a->name.name,
                          "has no Arrive: an Await on it would wait forever");
    for (const Arrive *arr : arrives) {
      auto n = facts_.arrives.find(arr);
      if (n == facts_.arrives.end())
        continue; // outside the checked body: the checker reported it
      const int64_t count = n->second.arrivals() * p.arriving_ctas;
      if (p.arrive_count && count != p.arrive_count) {
        p.mixed_arrivals = arr;
        break;
      }
      p.arrive_count = count;
    }
    return true;
  }

  KernelFacts &facts_;
  DiagEngine &diag_;
};

} // namespace

bool plan_barriers(const Block &task_body, KernelFacts &facts, DiagEngine &diag) {
  Barriers found;
  for (const Stmt &s : task_body)
    found.visit(s);
  Planner planner(facts, diag);
  bool ok = true;
  for (const Alloc *a : found.allocs) {
    BarrierPlan p;
    if (!planner.plan(a, found.arrives[a->name.id], p)) {
      ok = false;
      continue;
    }
    facts.barriers[a->name.id] = p;
    // The writers' half of what an Await on this barrier grants: their
    // generic writes reach a later async-proxy access only through a proxy
    // fence before the release (sync::needs_proxy_fence, as the checker reads it).
    for (const Arrive *arrive : found.arrives[a->name.id])
      if (auto fx = facts.arrives.find(arrive); fx != facts.arrives.end())
        fx->second.proxy_fence = sync::needs_proxy_fence(*sync::lookup_sync_tl(arrive->timeline),
                                                         found.await_second[a->name.id]);
  }
  for (const Stmt &s : task_body)
    if (const auto *a = s.as<Alloc>(); a && facts.barriers.count(a->name.id))
      facts.top_barriers.push_back(a);
  return ok;
}

} // namespace exgc::gpu
