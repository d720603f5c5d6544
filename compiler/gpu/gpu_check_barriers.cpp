// gpu_check_barriers.cpp - barriers and Fences in a kernel -----------------//
// Owns: KernelChecker's checks of sync statements: the mechanism of each
// barrier, the unit a commit group or cluster barrier must be used by,
// the one slice an Arrive may take, an Await's count, and the scope and
// form of a Fence. The class is declared in kernel_checker.h.
#include "compiler/gpu/kernel_checker.h"

#include "compiler/analysis/gpu_names.h"
#include "compiler/ir/printer.h"
#include "compiler/sync/quals.h"

namespace exgc::gpu::check_detail {

void KernelChecker::note_barrier(const Alloc *a) {
  const analysis::MemoryInfo *m = analysis::find_memory(analysis::memory_name(a->type.mem));
  if (m && m->kind == analysis::MemKind::BarrierMechanism)
    barriers_[a->name.id] = m;
}

const analysis::MemoryInfo *KernelChecker::mechanism(const Expr &bar) const {
  const Sym *s = named_buffer(bar);
  auto it = s ? barriers_.find(s->id) : barriers_.end();
  return it == barriers_.end() ? nullptr : it->second;
}

void KernelChecker::barrier_scope(const Stmt &s, const Expr &bar, const char *what) {
  const analysis::MemoryInfo *m = mechanism(bar);
  if (!m || m->id == analysis::MemId::CudaMbarrier)
    return;
  std::string err;
  // Every barrier mechanism names its unit (memories.cpp).
  std::optional<CollType> unit = scope_type(*m->native_unit);
  if (unit && at_scope(tiling_, *unit, err))
    return;
  diag_.report(s->loc, DiagKind::BarrierScope, what, print_expr(bar), m->name,
               analysis::unit_name(*m->native_unit), scope_words(tiling_));
  fail();
}

bool KernelChecker::barrier_slices(const Expr &bar, const char *what) {
  const auto *w = bar.as<WindowExpr>();
  if (!w)
    return true;
  bool cta = false, other = false;
  for (size_t d = 0; d < w->idx.size(); ++d)
    if (w->idx[d].is_slice)
      (d == 0 ? cta : other) = true;
  if (!other && (!cta || cluster_barriers_.is_sharded(bar)))
    return true;
  diag_.report(bar->loc, DiagKind::BarrierArriveSlice, print_expr(bar), what, w->buf.name);
  return fail();
}

void KernelChecker::await(const Stmt &s, const Await &a) {
  barrier_scope(s, a.bar, "Await");
  const analysis::MemoryInfo *m = mechanism(a.bar);
  if (!m || (m->name != std::string("CudaMbarrier") && m->name != std::string("CudaClusterSync")))
    return;
  int64_t n = -1;
  if (int_literal(a.n, n) && n == 0)
    return;
  diag_.report(a.n->loc, DiagKind::BarrierAwaitCount, print_expr(a.bar), m->name,
               print_expr(a.n));
  fail();
}

void KernelChecker::fence(const Fence *f) {
  std::string err;
  using analysis::SyncTimeline;
  const SyncTimeline first = analysis::sync_timeline(f->first);
  const SyncTimeline second = analysis::sync_timeline(f->second);
  if (first == SyncTimeline::WgmmaFence1 || second == SyncTimeline::WgmmaFence2) {
    if (!warpgroup_ || !at_scope(tiling_, *warpgroup_, err)) {
      diag_.report(f->loc, DiagKind::WgmmaFenceScope, scope_words(tiling_));
      fail();
    } else if (first == SyncTimeline::WgmmaFence1 && second == SyncTimeline::WgmmaFence2) {
      facts_.fences[f] = FenceFacts{FenceForm::WgmmaFence, FenceScope::Warpgroup, false};
    }
    return; // any other form: codegen says it cannot emit it
  }
  const bool barrier = first == SyncTimeline::CudaInOrder &&
                       (second == SyncTimeline::CudaInOrder ||
                        second == SyncTimeline::CudaGenericAndAsyncProxy);
  for (const auto &[type, scope] : fence_scopes_)
    if (at_scope(tiling_, type, err)) {
      // The typecheck admits known timelines only.
      if (barrier)
        facts_.fences[f] = FenceFacts{FenceForm::Barrier, scope,
                                      sync::needs_proxy_fence(*sync::lookup_sync_tl(f->first),
                                                              *sync::lookup_sync_tl(f->second))};
      return;
    }
  diag_.report(f->loc, DiagKind::FenceScope, scope_words(tiling_));
  fail();
}

} // namespace exgc::gpu::check_detail
