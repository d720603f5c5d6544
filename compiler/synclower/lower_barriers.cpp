// lower_barriers.cpp - allocations, barriers and sync statements -----------//
// Owns: Lowerer's allocations (data buffers go on to lower_buffers.cpp,
// barriers are declared with the GPU stage's plan: one-shot, rings) and
// their frees at the end of a block, references to barrier elements, and
// the sync statements Fence, Arrive and Await. The class is declared in
// lowerer.h.
#include "compiler/synclower/lowerer.h"

namespace exgc::synclower::lower_detail {

using analysis::MemSpace;

void Lowerer::free_buffer(const Sym &name, SrcLoc loc) {
  std::string sync_name;
  bool shared = false, mbarrier = false;
  if (auto b = bufs_.find(name.id); b != bufs_.end()) {
    if (!b->second.tracked)
      return;
    sync_name = b->second.name;
    shared = b->second.mem->space == MemSpace::Shared;
  } else if (auto bar = barriers_.find(name.id); bar != barriers_.end()) {
    sync_name = bar->second;
    mbarrier = mbarriers_.count(name.id) != 0;
  } else {
    return;
  }
  auto f = make(sync::StmtKind::Free, loc);
  f->name = sync_name;
  // Freed shared memory may be reused by the CTA's next task: every thread
  // must be ordered after every access (docs/sync.md).
  f->has_check = shared;
  f->check = shared ? sync::bit(sync::Qual::Cuda2) : 0;
  // An mbarrier of a task is the same physical barrier in the CTA's next
  // task (the kernel is persistent, and phases carry over): every thread
  // must be ordered after every Arrive and Await on it, or a producer that
  // runs ahead completes a phase its consumer has not tested yet, which
  // parity waits cannot tell apart. With that order and every element
  // arrived exactly once (one-shot), the next task starts from the state
  // the model gives a fresh barrier.
  if (mbarrier) {
    f->has_check = true;
    f->check = sync::bit(sync::Qual::Mbar);
  }
  emit(std::move(f));
}

void Lowerer::alloc(const Alloc *a) {
  if (a->type.kind == Type::Kind::Data)
    return declare_data(a->name, a->type, a->loc);
  if (a->type.kind != Type::Kind::Barrier)
    return;
  // The GPU stage read the barrier (gpu/barrier_plan.h), as codegen does.
  const std::map<uint32_t, gpu::BarrierPlan> *plans = kernel_ ? &kernel_->barriers : nullptr;
  auto planned = plans ? plans->find(a->name.id) : decltype(plans->end()){};
  if (!plans || planned == plans->end())
    return void(unsupported(a->loc, "a barrier outside the task body of a device function"));
  const gpu::BarrierPlan &plan = planned->second;
  // In a cluster, the GPU stage checked that dimension 0 of an mbarrier is
  // the CTA holding each element (its shard), so `bar[cta, k]` is CTA
  // cta's element and an Arrive's `>> bar[:, k]` arrives on every CTA's.
  if (kernel_->config.env.cluster_dim > 1 && plan.kind == gpu::BarrierKind::Mbarrier &&
      !kernel_->cluster_barriers.count(a->name.id))
    return void(unsupported(a->loc, "an mbarrier the GPU stage did not shard over the cluster"));
  auto b = make(sync::StmtKind::Barrier, a->loc);
  b->name = names_.bind(a->name);
  for (const Expr &e : a->type.shape)
    b->dims.push_back(control(e));
  switch (plan.kind) {
  case gpu::BarrierKind::Mbarrier:
    b->one_shot_arrive = true;
    b->checked = true;
    b->pre_arrive = static_cast<int>(plan.pre_arrive);
    mbarriers_.insert(a->name.id);
    break;
  case gpu::BarrierKind::ClusterSync:
    b->one_shot_arrive = b->one_shot_await = true;
    break;
  case gpu::BarrierKind::WgmmaCommitGroup:
  case gpu::BarrierKind::TmaCommitGroup:
  case gpu::BarrierKind::CommitGroup:
    break;
  }
  if (plan.ring_dim >= 0) {
    b->ring_dim = plan.ring_dim;
    b->ring_depth = static_cast<int>(plan.ring);
  }
  barriers_[a->name.id] = b->name;
  emit(std::move(b));
}

std::optional<sync::SyncTl> Lowerer::timeline(const std::string &name, SrcLoc loc) {
  std::optional<sync::SyncTl> tl = sync::lookup_sync_tl(name);
  if (!tl)
    unsupported(loc, "the sync-timeline '" + name + "'");
  return tl;
}

std::optional<sync::BarrierRef> Lowerer::barrier_ref(const Expr &e) {
  sync::BarrierRef ref;
  Sym buf;
  std::vector<Coord> coords;
  if (const auto *r = e.as<Read>()) {
    buf = r->buf;
    coords = points(r->idx);
  } else if (const auto *w = e.as<WindowExpr>()) {
    buf = w->buf;
    coords = window_coords(*w);
  } else if (const auto *v = e.as<Var>()) {
    buf = v->name;
  }
  auto it = barriers_.find(buf.id);
  if (it == barriers_.end()) {
    unsupported(e->loc, "this barrier expression");
    return std::nullopt;
  }
  ref.name = it->second;
  ref.idx = index(coords);
  return ref;
}

void Lowerer::fence(const Fence *f) {
  if (!kernel_)
    return void(unsupported(f->loc, "a Fence on the host"));
  auto l1 = timeline(f->first, f->loc), l2 = timeline(f->second, f->loc);
  if (!l1 || !l2)
    return;
  auto s = make(sync::StmtKind::Fence, f->loc);
  s->l1 = *l1;
  s->l2 = *l2;
  emit(std::move(s));
}

void Lowerer::arrive(const Arrive *a) {
  auto l1 = timeline(a->timeline, a->loc);
  if (!l1)
    return;
  auto s = make(sync::StmtKind::Arrive, a->loc);
  s->l1 = *l1;
  for (const Expr &b : a->barriers)
    if (auto ref = barrier_ref(b))
      s->bars.push_back(*ref);
  emit(std::move(s));
}

void Lowerer::await(const Await *a) {
  auto l2 = timeline(a->timeline, a->loc);
  std::optional<sync::BarrierRef> ref = barrier_ref(a->bar);
  const auto *n = a->n.as<IntImm>();
  if (!n)
    return void(unsupported(a->loc, "an Await count that is not an integer literal"));
  if (!l2 || !ref)
    return;
  auto s = make(sync::StmtKind::Await, a->loc);
  s->l2 = *l2;
  s->bars.push_back(*ref);
  s->n = n->value;
  emit(std::move(s));
}

} // namespace exgc::synclower::lower_detail
