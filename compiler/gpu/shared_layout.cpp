// shared_layout.cpp - a kernel's arrays: shapes and shared-memory offsets ---//
#include "compiler/gpu/shared_layout.h"

#include <algorithm>
#include <set>

#include "compiler/analysis/memories.h"
#include "compiler/gpu/facts.h"
#include "compiler/ir/fold.h"

namespace exgc::gpu {

namespace {

/// One owner's elements of `a`: the product of its dimensions from `first`
/// on, each a positive constant (at most 65536 elements in all).
bool stored_elements(const Alloc *a, size_t first, DiagKind kind, DiagEngine &diag,
                     int64_t &count) {
  count = 1;
  for (size_t d = first; d < a->type.shape.size(); ++d) {
    const Expr &e = a->type.shape[d];
    int64_t c;
    if (!const_int(e, c) || c < 1 || count * c > 65536)
      return diag.report(e->loc.valid() ? e->loc : a->loc, kind, a->name.name);
    count *= c;
  }
  return true;
}

class Layout {
public:
  Layout(KernelFacts &facts, DiagEngine &diag)
      : facts_(facts), out_(facts.shared), diag_(diag) {}
  bool ok = true;

  /// The mbarrier rings of the task body's top level: 8 bytes a slot.
  void rings() {
    for (const Alloc *a : facts_.top_barriers) {
      const BarrierPlan &p = facts_.barriers.at(a->name.id);
      if (p.kind == BarrierKind::Mbarrier)
        place(a, 8 * p.ring, 8);
    }
  }

  /// The arrays of one copy of the task body: the warps [lo, hi) run it.
  void block(const Block &b, int64_t lo, int64_t hi, bool roles) {
    for (const Stmt &s : b)
      stmt(s, lo, hi, roles);
  }

private:
  void stmt(const Stmt &s, int64_t lo, int64_t hi, bool roles) {
    if (const auto *a = s.as<Alloc>())
      return alloc(a, roles);
    if (const auto *f = s.as<For>())
      return block(f->body, lo, hi, roles);
    if (const auto *i = s.as<If>()) {
      block(i->then_body, lo, hi, roles);
      return block(i->else_body, lo, hi, roles);
    }
    const auto *w = s.as<With>();
    auto found = w ? facts_.warps.find(w) : facts_.warps.end();
    if (found == facts_.warps.end())
      return;
    const WarpsBlockFacts &wb = found->second;
    if (wb.nested)
      return block(w->body, lo, hi, roles);
    if (wb.hi <= lo || wb.lo >= hi)
      return; // none of this copy's warps
    block(w->body, std::max(lo, wb.lo), std::min(hi, wb.hi), roles);
  }

  void alloc(const Alloc *a, bool roles) {
    if (!seen_.insert(a).second || a->type.kind == Type::Kind::Barrier)
      return;
    const analysis::MemoryInfo *m = analysis::resolve_memory(a->type.mem).info;
    if (!m)
      return;
    auto shard = facts_.shards.find(a->name.id);
    const size_t owned = shard == facts_.shards.end() ? 0 : shard->second.distributed;
    const int64_t bytes = element_bytes(a->type.scalar);
    int64_t count = 1;
    if (m->id == analysis::MemId::CudaSmemLinear) {
      // One array per CTA (the stage checked the whole CTA allocates it).
      if (!stored_elements(a, 0, DiagKind::SharedShapeNotConstant, diag_, count))
        return void(ok = false);
      out_.elements[a] = count;
      if (roles)
        place(a, count * bytes, 16);
      else
        out_.static_bytes += count * bytes;
    } else if (m->id == analysis::MemId::Sm90_SmemSwizzled) {
      if (!stored_elements(a, owned, DiagKind::SharedShapeNotConstant, diag_, count))
        return void(ok = false);
      out_.elements[a] = count;
      place(a, count * bytes, 1024);
    } else if (m->id == analysis::MemId::CudaRmem && a->type.is_tensor()) {
      if (!stored_elements(a, owned, DiagKind::RegisterShapeNotConstant, diag_, count))
        return void(ok = false);
      out_.elements[a] = count;
    }
  }

  void place(const Alloc *a, int64_t bytes, int64_t align) {
    int64_t off = (out_.dynamic_bytes + align - 1) / align * align;
    out_.offset[a] = off;
    out_.dynamic_bytes = off + bytes;
    out_.align = std::max(out_.align, align);
  }

  KernelFacts &facts_;
  SharedLayout &out_;
  DiagEngine &diag_;
  std::set<const Alloc *> seen_;
};

} // namespace

bool lay_out_arrays(const With *w, KernelFacts &facts, DiagEngine &diag) {
  Layout layout(facts, diag);
  const Block &body = *facts.tasks.body;
  layout.rings();
  if (facts.roles.empty()) {
    layout.block(body, 0, facts.config.env.block_dim / 32, false);
  } else {
    for (const WarpRole &r : facts.roles)
      layout.block(body, r.lo, r.hi, true);
  }
  if (!layout.ok)
    return false;
  const SharedLayout &s = facts.shared;
  if (s.static_bytes > kMaxStaticShared)
    return diag.report(w->loc, DiagKind::SharedMemoryTooLarge, s.static_bytes, kMaxStaticShared);
  if (s.static_bytes + s.dynamic_bytes > kMaxShared)
    return diag.report(w->loc, DiagKind::SharedMemoryTooLarge, s.static_bytes + s.dynamic_bytes,
                       kMaxShared);
  return true;
}

} // namespace exgc::gpu
