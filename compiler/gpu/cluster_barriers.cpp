// cluster_barriers.cpp - mbarriers and multicast in clusters ---------------//
#include "compiler/gpu/cluster_barriers.h"

#include "compiler/analysis/memories.h"
#include "compiler/gpu/units.h"
#include "compiler/ir/printer.h"

namespace exgc::gpu {

std::optional<MulticastGroup> cta_group(const Tiling &t, int64_t block_dim, std::string &err) {
  MulticastGroup g;
  bool spans = false;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    int64_t pitch = t.pitch(i), box = t.dims[i].box();
    if (pitch % block_dim != 0) {
      // A dimension inside the CTA, unless it also reaches past it.
      if (pitch * t.dims[i].extent > block_dim && box > 1) {
        err = "its collective (" + t.str() + ") mixes threads of one CTA with several CTAs";
        return std::nullopt;
      }
      continue;
    }
    if (box <= 1)
      continue;
    if (spans) {
      err = "its collective (" + t.str() + ") spans CTAs along two dimensions";
      return std::nullopt;
    }
    spans = true;
    g.ncta = box;
    g.stride = pitch / block_dim;
  }
  return g;
}

namespace {

bool is_mbarrier(const Alloc &a) {
  return analysis::resolve_memory(a.type.mem).is(analysis::MemId::CudaMbarrier);
}

/// The instruction's `barrier: Mech[units]` splits its trailing barrier over
/// units (the CTAs it multicasts to).
bool barrier_over_units(const ProcNode &instr) {
  const InstrAttr *bar = instr.attr("barrier");
  return bar && bar->values.size() == 1 && bar->values[0].as<Read>();
}

/// The indices of a barrier expression after the CTA dimension, as text.
std::string ring_indices(const Expr &bar) {
  std::string out;
  if (const auto *r = bar.as<Read>())
    for (size_t d = 1; d < r->idx.size(); ++d)
      out += print_expr(r->idx[d]) + ",";
  if (const auto *w = bar.as<WindowExpr>())
    for (size_t d = 1; d < w->idx.size(); ++d)
      out += (w->idx[d].is_slice ? std::string(":") : print_expr(w->idx[d].lo)) + ",";
  return out;
}

} // namespace

bool ClusterBarriers::report(const Alloc &a, SrcLoc loc, const std::string &why) {
  diag_.report(loc, DiagKind::ClusterBarrierShard, a.name.name, facts_.config.env.cluster_dim, why)
      .note(a.loc, "'" + a.name.name + "' is allocated here");
  return false;
}

bool ClusterBarriers::alloc(const Alloc *a) {
  if (facts_.config.env.cluster_dim <= 1 || a->type.kind != Type::Kind::Barrier || !is_mbarrier(*a))
    return true;
  int64_t c = 0;
  if (a->type.shape.size() < 2 || !int_literal(a->type.shape[0], c) ||
      c != facts_.config.env.cluster_dim) {
    diag_.report(a->loc, DiagKind::ClusterBarrierShard, a->name.name, facts_.config.env.cluster_dim,
                 "each element lives in one CTA's shared memory, so dimension 0 must be the CTA "
                 "(extent " + std::to_string(facts_.config.env.cluster_dim) + "), before the ring dimension");
    return false;
  }
  allocs_[a->name.id] = a;
  facts_.cluster_barriers[a->name.id] = ClusterBarrierFacts{};
  return true;
}

const Alloc *ClusterBarriers::sharded(const Expr &bar, const Expr **first, bool &whole) const {
  const Sym *buf = nullptr;
  *first = nullptr;
  whole = false;
  if (const auto *r = bar.as<Read>()) {
    buf = &r->buf;
    *first = r->idx.empty() ? nullptr : &r->idx[0];
  } else if (const auto *w = bar.as<WindowExpr>()) {
    buf = &w->buf;
    if (!w->idx.empty() && !w->idx[0].is_slice)
      *first = &w->idx[0].lo;
    else
      whole = !w->idx.empty() && !w->idx[0].lo && !w->idx[0].hi;
  }
  auto it = buf ? allocs_.find(buf->id) : allocs_.end();
  return it == allocs_.end() ? nullptr : it->second;
}

bool ClusterBarriers::cta_index(const Alloc &a, const Expr *first, SrcLoc loc,
                                const ThreadIters &iters) {
  const auto *v = first ? first->as<Var>() : nullptr;
  auto it = v ? iters.find(v->name.id) : iters.end();
  if (it != iters.end() && it->second.pitch == facts_.config.env.block_dim &&
      it->second.tile_count == facts_.config.env.cluster_dim)
    return true;
  return report(a, loc,
                "dimension 0 is the CTA holding the element; index it with the iterator of a "
                "'cuda_threads' loop over the cluster's CTAs (unit=cuda_cta_in_cluster), not '" +
                    (first ? print_expr(*first) : std::string(":")) + "'");
}

bool ClusterBarriers::arrive(const Arrive *a, const ThreadIters &iters) {
  const Alloc *bar = nullptr;
  bool home = false, remote = false;
  for (const Expr &e : a->barriers) {
    const Expr *first = nullptr;
    bool whole = false;
    bar = sharded(e, &first, whole);
    if (!bar)
      return true;
    // One element of each CTA's ring: the hardware arrives on the same slot.
    if (ring_indices(e) != ring_indices(a->barriers[0]))
      return report(*bar, e->loc,
                    "the expressions of one Arrive must name the same element of each CTA's "
                    "ring; they differ after dimension 0");
    if (whole) {
      remote = true;
      continue;
    }
    if (!cta_index(*bar, first, e->loc, iters))
      return false;
    home = true;
  }
  if (!home)
    return report(*bar, a->loc,
                  "an Arrive must name its own CTA's element (`" + bar->name.name +
                      "[cta, ...]`); `>> " + bar->name.name +
                      "[:, ...]` then adds every CTA's element");
  int64_t ctas = remote ? facts_.config.env.cluster_dim : 1;
  ClusterBarrierFacts &f = facts_.cluster_barriers[bar->name.id];
  auto [seen, fresh] = first_arrive_.try_emplace(bar->name.id, a->loc);
  if (!fresh && f.arriving_ctas != ctas)
    return report(*bar, a->loc,
                  "this Arrive reaches " + std::to_string(ctas) +
                      " CTA(s) per element and an earlier one " +
                      std::to_string(f.arriving_ctas) +
                      "; an mbarrier counts the same arrivals in every phase");
  f.arriving_ctas = ctas;
  if (remote)
    for (int64_t r = 0; r < facts_.config.env.cluster_dim; ++r)
      facts_.remote_arrives[a].push_back(r);
  return true;
}

bool ClusterBarriers::await(const Await *a, const ThreadIters &iters) {
  const Expr *first = nullptr;
  bool whole = false;
  const Alloc *bar = sharded(a->bar, &first, whole);
  return !bar || cta_index(*bar, first, a->bar->loc, iters);
}

bool ClusterBarriers::call(const CallStmt *c, const ProcNode &instr, const Tiling &t,
                           const ThreadIters &iters) {
  bool multicast = barrier_over_units(instr);
  if (multicast) {
    std::string err;
    std::optional<MulticastGroup> g = cta_group(t, facts_.config.env.block_dim, err);
    if (g && (g->ncta != facts_.config.env.cluster_dim || g->stride != 1))
      err = "its collective spans " + std::to_string(g->ncta) + " CTA(s) " +
            std::to_string(g->stride) +
            " rank(s) apart; only a multicast to the whole cluster is supported";
    if (!err.empty()) {
      diag_.report(c->loc, DiagKind::ClusterMulticast, instr.name, facts_.config.env.cluster_dim, err);
      return false;
    }
    facts_.multicasts[c] = *g;
  }
  for (const Expr &e : c->barriers) {
    const Expr *first = nullptr;
    bool whole = false;
    const Alloc *bar = sharded(e, &first, whole);
    if (!bar)
      continue;
    if (multicast && !whole)
      return report(*bar, e->loc,
                    "'" + instr.name + "' completes on the barrier of every CTA it writes; "
                    "write `" + bar->name.name + "[:, ...]`");
    if (!multicast && !cta_index(*bar, first, e->loc, iters))
      return false;
  }
  return true;
}

} // namespace exgc::gpu
