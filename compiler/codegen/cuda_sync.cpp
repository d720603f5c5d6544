// cuda_sync.cpp - barriers and sync statements of one kernel ---------------//
#include "compiler/codegen/cuda_sync.h"

#include "compiler/analysis/memories.h"
#include "compiler/codegen/abi.h"
#include "compiler/ir/printer.h"
#include "compiler/support/check.h"

namespace exgc::codegen {

namespace {

/// The barrier `bar` names and its indices (null for a slice: `bar[:, k]`
/// names every CTA's element in a cluster).
const Sym *barrier_sym(const Expr &bar, std::vector<Expr> &idx) {
  if (const auto *r = bar.as<Read>())
    idx = r->idx;
  if (const auto *w = bar.as<WindowExpr>())
    for (const WindowIdx &i : w->idx)
      idx.push_back(i.is_slice ? Expr() : i.lo);
  return named_buffer(bar);
}

} // namespace

bool SyncEmitter::plan() {
  // The GPU stage read each barrier: its mechanism, ring and arrive count.
  for (const Alloc *a : facts_.top_barriers) {
    const uint32_t id = a->name.id;
    Ring r;
    r.sym = a->name;
    r.plan = &facts_.barriers.at(id);
    if (r.is(gpu::BarrierKind::CommitGroup))
      return fail(a->type.mem ? a->type.mem->loc : a->loc,
                  std::string("'") + r.plan->mechanism + "' barriers");
    if (const Arrive *mixed = r.plan->mixed_arrivals)
      return fail(mixed->loc,
                  "Arrives on '" + a->name.name + "' by collectives of different sizes");
    if (r.is(gpu::BarrierKind::Mbarrier)) {
      auto at = facts_.shared.offset.find(a);
      EXGC_CHECK(at != facts_.shared.offset.end()) << "a ring the GPU stage did not place";
      r.offset = at->second;
    }
    uses_sm90_ = true;
    rings_[id] = r;
    order_.push_back(id);
  }
  return true;
}

void SyncEmitter::emit_setup(Writer &w, const std::string &tid, const std::string &smem) {
  bool any = false;
  for (uint32_t id : order_) {
    Ring &r = rings_.at(id);
    if (!r.is(gpu::BarrierKind::Mbarrier))
      continue;
    any = true;
    r.base = names_.take_internal("exg_" + r.sym.name + "_bar");
    r.used = names_.take_internal("exg_" + r.sym.name + "_used");
    w.line("// '" + r.sym.name + "': " + std::to_string(r.plan->ring) + " mbarrier(s) at byte " +
           std::to_string(r.offset) + ", " + std::to_string(r.plan->arrive_count) +
           " arrival(s) per phase; element j is slot j % " + std::to_string(r.plan->ring) +
           ", parity (j / " + std::to_string(r.plan->ring) + ") & 1");
    w.line("const uint32_t " + r.base + " = exg::sm90::smem_addr(" + smem + " + " +
           std::to_string(r.offset) + ");");
    w.line("int64_t " + r.used + " = 0; // elements of earlier tasks");
  }
  if (!any)
    return;
  w.open("if (" + tid + " == 0)");
  for (uint32_t id : order_) {
    const Ring &r = rings_.at(id);
    if (!r.is(gpu::BarrierKind::Mbarrier))
      continue;
    w.line("for (uint32_t s = 0; s < " + std::to_string(r.plan->ring) +
           "; ++s) exg::sm90::mbarrier_init(" +
           r.base + " + 8 * s, " + std::to_string(r.plan->arrive_count) + ");");
  }
  w.line("exg::sm90::fence_mbarrier_init();");
  w.close();
  if (facts_.config.env.cluster_dim <= 1)
    return void(w.line("__syncthreads();"));
  // Neighbours arrive on and multicast into this CTA's barriers: they must
  // all be initialised before any CTA of the cluster runs a task.
  w.line("exg::sm90::cluster_arrive();");
  w.line("exg::sm90::cluster_wait();");
}

void SyncEmitter::emit_task_end(Writer &w) {
  for (uint32_t id : order_) {
    const Ring &r = rings_.at(id);
    if (r.is(gpu::BarrierKind::Mbarrier))
      w.line(r.used + " += " + ex_.ctrl_wide(r.plan->extent) + " - " +
             std::to_string(r.plan->pre_arrive) + ";");
  }
}

bool SyncEmitter::alloc(const Alloc *a) {
  if (!rings_.count(a->name.id))
    return fail(a->loc, "a barrier allocated below the top of the task body");
  CxxBinding b;
  b.kind = CxxBinding::Kind::Barrier;
  b.sym = a->name;
  b.in_device = true;
  b.decl_loc = a->loc;
  ex_.env().bind(a->name, b);
  return true;
}

const SyncEmitter::Ring *SyncEmitter::ring_of(const Expr &bar, std::string &index) {
  std::vector<Expr> idx;
  const Sym *s = barrier_sym(bar, idx);
  auto it = s ? rings_.find(s->id) : rings_.end();
  if (it == rings_.end()) {
    fail(bar->loc, "this barrier expression");
    return nullptr;
  }
  const Ring &r = it->second;
  if (r.is(gpu::BarrierKind::Mbarrier)) {
    if (idx.size() != static_cast<size_t>(r.plan->cta_dims) + 1 || !idx.back()) {
      fail(bar->loc, "this barrier expression");
      return nullptr;
    }
    // The logical element, counted over every task so far. The CTA index (a
    // cluster's dimension 0) selects whose ring: this CTA's own, or a remote
    // one the Arrive reaches through the cluster address of the same slot.
    index = "(" + ex_.ctrl_wide(idx.back()) + " + " + r.used + " - " +
            std::to_string(r.plan->pre_arrive) + ")";
  }
  return &r;
}

// Without pre-arrived elements a logical element j is never negative (the
// bounds check proved its index at least 0; earlier tasks' count is), and the
// _nonneg forms let the compiler see it: bit operations for a ring of 2^n.
std::string SyncEmitter::ring_fn(const Ring &r, const std::string &name) {
  return r.plan->pre_arrive == 0 ? name + "_nonneg" : name;
}

std::string SyncEmitter::slot_address(const Expr &bar) {
  std::string j;
  const Ring *r = ring_of(bar, j);
  if (!r)
    return "";
  if (!r->is(gpu::BarrierKind::Mbarrier)) {
    fail(bar->loc, std::string("a trailing '") + r->plan->mechanism + "' barrier");
    return "";
  }
  return r->base + " + 8 * exg::sm90::" + ring_fn(*r, "ring_slot") + "(" + j + ", " +
         std::to_string(r->plan->ring) + ")";
}

void SyncEmitter::emit_proxy_fence(Writer &w) {
  uses_sm90_ = true;
  w.line("exg::sm90::fence_proxy_async(); // generic-proxy writes -> async proxy (all state spaces)");
}

bool SyncEmitter::stmt(const Stmt &s, Writer &w) {
  if (const auto *f = s.as<Fence>()) {
    auto fx = facts_.fences.find(f);
    if (fx == facts_.fences.end() || fx->second.form != gpu::FenceForm::WgmmaFence)
      return fail(s->loc, "'Fence(" + f->first + ", " + f->second + ")'");
    uses_sm90_ = true;
    w.line("exg::sm90::wgmma_fence(); // Fence(wgmma_fence_1, wgmma_fence_2)");
    return true;
  }
  if (const auto *a = s.as<Arrive>()) {
    // The GPU stage decided whether a proxy fence goes before the release
    // (gpu::ArriveFacts) and whether whole warps arrive once per warp.
    auto who = facts_.arrives.find(a);
    if (who != facts_.arrives.end() && who->second.proxy_fence)
      emit_proxy_fence(w);
    const std::string per = who != facts_.arrives.end() && who->second.per_warp ? "_warp" : "";
    if (auto remote = facts_.remote_arrives.find(a); remote != facts_.remote_arrives.end()) {
      // `>> bar[cta, k] >> bar[:, k]`: element k of every listed CTA's ring.
      std::string slot = slot_address(a->barriers[0]);
      if (slot.empty())
        return false;
      const std::vector<int64_t> &ranks = remote->second;
      bool consecutive = true;
      for (size_t i = 1; i < ranks.size(); ++i)
        consecutive = consecutive && ranks[i] == ranks[i - 1] + 1;
      if (!per.empty() && ranks.size() > 1 && consecutive) {
        // A warp's arrivals on several CTAs: one lane each, at once.
        w.line("exg::sm90::mbarrier_arrive_cluster_warp_ranks(" + slot + ", " +
               std::to_string(ranks.front()) + ", " + std::to_string(ranks.size()) +
               "); // Arrive(" + a->timeline + ") >> " + print_expr(a->barriers[0]) + " in CTAs " +
               std::to_string(ranks.front()) + " to " + std::to_string(ranks.back()));
        return true;
      }
      for (int64_t rank : ranks)
        w.line("exg::sm90::mbarrier_arrive_cluster" + per + "(" + slot + ", " +
               std::to_string(rank) + "); // Arrive(" + a->timeline + ") >> " +
               print_expr(a->barriers[0]) + " in CTA " + std::to_string(rank));
      return true;
    }
    for (const Expr &bar : a->barriers) {
      std::string j;
      const Ring *r = ring_of(bar, j);
      if (!r)
        return false;
      std::string text = "Arrive(" + a->timeline + ") >> " + print_expr(bar);
      if (r->is(gpu::BarrierKind::WgmmaCommitGroup))
        w.line("exg::sm90::wgmma_commit_group(); // " + text);
      else if (r->is(gpu::BarrierKind::TmaCommitGroup))
        w.line("exg::sm90::bulk_commit_group(); // " + text);
      else if (r->is(gpu::BarrierKind::ClusterSync))
        w.line("exg::sm90::cluster_arrive(); // " + text);
      else
        w.line("exg::sm90::mbarrier_arrive" + per + "(" + slot_address(bar) + "); // " + text);
    }
    return true;
  }
  const auto *aw = s.as<Await>();
  std::string j;
  const Ring *r = ring_of(aw->bar, j);
  if (!r)
    return false;
  std::string text = "Await(" + print_expr(aw->bar) + ", " + aw->timeline + ", " +
                     print_expr(aw->n) + ")";
  int64_t n = 0;
  if (r->is(gpu::BarrierKind::WgmmaCommitGroup)) {
    if (!const_int(aw->n, n) || n < 0 || n > 7)
      return fail(aw->n->loc, "a wgmma wait count other than 0 to 7");
    w.line("exg::sm90::wgmma_wait_group<" + std::to_string(n) + ">(); // " + text);
    return true;
  }
  if (r->is(gpu::BarrierKind::TmaCommitGroup)) {
    // `.read`: the stores' shared memory may be reused; their global writes
    // complete by the kernel's end, which is all the sync check grants them.
    if (!const_int(aw->n, n) || n < 0 || n > 63)
      return fail(aw->n->loc, "a bulk-group wait count other than 0 to 63");
    w.line("exg::sm90::bulk_wait_group_read<" + std::to_string(n) + ">(); // " + text);
    // The wait covers the executing thread's bulk groups only, and only the
    // lane that issued a store committed one; the model lets the whole warp
    // (the group's native unit, which the GPU stage requires here) go on.
    w.line("__syncwarp(); // the other lanes wait for the issuing lane's wait");
    return true;
  }
  if (r->is(gpu::BarrierKind::ClusterSync)) {
    w.line("exg::sm90::cluster_wait(); // " + text);
    return true;
  }
  if (!const_int(aw->n, n) || n != 0)
    return fail(aw->n->loc, "an mbarrier Await with a skip count");
  std::string ring = std::to_string(r->plan->ring);
  std::string wait = "exg::sm90::mbarrier_wait_parity(" + slot_address(aw->bar) +
                     ", exg::sm90::" + ring_fn(*r, "ring_parity") + "(" + j + ", " + ring +
                     ")); // " + text;
  // Pre-arrived elements (j < 0) count as complete: no wait (ring_fn: j < 0
  // only with pre-arrived elements).
  if (r->plan->pre_arrive == 0) {
    w.line(wait);
    return true;
  }
  w.open("if (" + j + " >= 0)");
  w.line(wait);
  w.close();
  return true;
}

} // namespace exgc::codegen
