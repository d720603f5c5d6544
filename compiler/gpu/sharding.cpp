// sharding.cpp - distributed memory ---------------------------------------//
#include "compiler/gpu/sharding.h"

#include <algorithm>
#include <set>

#include "compiler/analysis/memories.h"
#include "compiler/gpu/units.h"
#include "compiler/ir/printer.h"

namespace exgc::gpu {

namespace {

std::string unit_words(UnitKind unit) {
  switch (unit) {
  case UnitKind::CudaThread: return "thread";
  case UnitKind::CudaCtaInCluster: return "CTA";
  case UnitKind::CudaWarp: return "warp";
  case UnitKind::CudaWarpgroup: return "warpgroup";
  case UnitKind::StandaloneThread:
  case UnitKind::CudaQuadpair:
  case UnitKind::CudaThreadsStrided:
  case UnitKind::CudaWarpInCluster:
  case UnitKind::CudaCluster:
  case UnitKind::CudaCtaInClusterStrided:
  case UnitKind::CudaWarpInClusterStrided:
  case UnitKind::CudaAgnosticSubCta:
  case UnitKind::CudaAgnosticIntactCta: break;
  }
  return analysis::unit_name(unit);
}

std::string names(const std::vector<std::string> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", '" : "'") + v[i] + "'";
  return s;
}

/// Dimensions where one owner is a single point (its box must be 1).
bool subdivided(const CollType &c, size_t i) { return c.box[i] == 1 && c.domain[i] > 1; }

} // namespace

bool ShardTracker::alloc(const Alloc *a, const Tiling &t) {
  analysis::MemoryRef m = analysis::resolve_memory(a->type.mem);
  if (!m || m.info->kind != analysis::MemKind::Memory || !m.info->native_unit ||
      a->type.kind != Type::Kind::Data)
    return true;
  Tracked tr;
  tr.alloc = a;
  tr.tiling = t;
  tr.mem = m.info->name;
  tr.unit = *m.info->native_unit;
  std::string err;
  std::optional<CollUnit> u = named_unit(tr.unit, env_);
  std::optional<CollType> c = u ? unpack_aligned(*u, env_, err) : std::nullopt;
  if (!c)
    return true; // every table unit unpacks for a valid device
  tr.native = *c;
  out_[a->name.id] = ShardFacts{};
  Tiling w = t;
  CollType nu = tr.native;
  bool whole = complete(w, nu, err);
  for (size_t i = 0; whole && i < nu.domain.size(); ++i)
    if (nu.box[i] == nu.domain[i] && nu.domain[i] > 1 && w.dims[i].box() != nu.domain[i])
      whole = false;
  tracked_[a->name.id] = tr;
  if (!whole)
    return diag_.report(a->loc, DiagKind::AllocBelowNativeUnit, a->name.name, tr.mem,
                        unit_words(tr.unit), err.empty() ? w.str() : err);
  return true;
}

bool ShardTracker::use(const Sym &buf, const std::vector<const Expr *> &idx, const Tiling &t,
                       const ThreadIters &iters, SrcLoc loc) {
  auto found = tracked_.find(buf.id);
  if (found == tracked_.end() || found->second.failed)
    return true;
  Tracked &tr = found->second;
  const std::string owner = unit_words(tr.unit);
  Tiling w = t;
  CollType nu = tr.native;
  std::string err;
  if (!complete(w, nu, err)) {
    diag_.report(loc, DiagKind::ShardUseTooWide, buf.name, tr.mem, owner, err);
    return fail(tr);
  }
  // Each owner is one point of its subdivided dimensions.
  for (size_t i = 0; i < nu.domain.size(); ++i)
    if (subdivided(nu, i) && w.dims[i].box() != 1) {
      diag_.report(loc, DiagKind::ShardUseTooWide, buf.name, tr.mem, owner, w.str());
      return fail(tr);
    }
  // The loops opened since the allocation that put owners apart.
  std::vector<uint32_t> required;
  std::vector<std::string> required_names;
  int64_t base = 0;
  for (size_t i = 0; i < nu.domain.size(); ++i) {
    if (!subdivided(nu, i))
      continue;
    base += w.dims[i].base_offset() * w.pitch(i);
    for (const TileOp &op : w.dims[i].ops)
      if (op.depth >= tr.tiling.depth && op.tile_count > 1) {
        required.push_back(op.iter);
        required_names.push_back(op.name);
      }
  }
  std::set<uint32_t> unseen(required.begin(), required.end());
  std::vector<int64_t> pitches;
  for (size_t k = 0; !unseen.empty(); ++k) {
    std::vector<std::string> missing;
    for (size_t j = 0; j < required.size(); ++j)
      if (unseen.count(required[j]))
        missing.push_back(required_names[j]);
    if (k >= idx.size()) {
      diag_.report(loc, DiagKind::ShardMissingIndex, buf.name, names(missing), owner)
          .note(tr.alloc->loc, "'" + buf.name + "' is allocated here, outside those loops");
      return fail(tr);
    }
    const auto *v = idx[k] ? idx[k]->as<Var>() : nullptr;
    auto it = v ? iters.find(v->name.id) : iters.end();
    bool expected = it != iters.end() && (it->second.pitch == 0 || unseen.count(v->name.id));
    if (it != iters.end() && it->second.pitch != 0 && !unseen.count(v->name.id) &&
        std::count(required.begin(), required.end(), v->name.id)) {
      diag_.report(loc, DiagKind::ShardIndexRepeated, v->name.name, buf.name);
      return fail(tr);
    }
    if (!expected) {
      diag_.report(loc, DiagKind::ShardIndexNotIterator, k, buf.name, names(missing),
                   idx[k] ? print_expr(*idx[k]) : std::string(":"), owner);
      return fail(tr);
    }
    int64_t extent = 0;
    const Expr &e = tr.alloc->type.shape[k];
    if (!e.as<IntImm>() || (extent = e.as<IntImm>()->value) != it->second.tile_count) {
      diag_.report(loc, DiagKind::ShardExtent, k, buf.name, print_expr(e), it->second.name,
                   it->second.tile_count);
      return fail(tr);
    }
    unseen.erase(v->name.id);
    pitches.push_back(it->second.pitch);
  }
  if (!tr.seen) {
    tr.seen = true;
    tr.pitches = pitches;
    tr.base = base;
    tr.first = loc;
    out_[buf.id].distributed = pitches.size();
    return true;
  }
  if (pitches != tr.pitches || base != tr.base) {
    std::string why = pitches != tr.pitches
                          ? "thread pitches " + tuple_str(pitches) + " here, " + tuple_str(tr.pitches) +
                                " there"
                          : "its first owner is thread " + std::to_string(base) + " here, " +
                                std::to_string(tr.base) + " there";
    diag_.report(loc, DiagKind::ShardMismatch, buf.name, why).note(tr.first, "first use here");
    return fail(tr);
  }
  return true;
}

} // namespace exgc::gpu
