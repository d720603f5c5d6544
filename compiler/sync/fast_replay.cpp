// fast_replay.cpp - the fast engine's side of task replay -----------------//
//
// A replayed task is one whose events are those of an earlier task (the
// template) with thread ids shifted and with the boxes of its accesses to
// outside tensors moved (task_replay.h has the conditions). Its effect on
// the engine is then the template's, moved: the regions the template left on
// outside tensors, with their records' thread ids and event numbers shifted.
// Everything else the template made was freed before it ended.
#include "compiler/sync/fast_state.h"

#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace exgc::sync {

namespace {

struct FastTaskEffect final : TaskEffect {
  struct Ent {
    uint32_t rec, origin; // indices into recs / origins
  };
  struct Reg {
    int tensor;
    Box box;
    std::vector<Ent> reads, mutates;
  };
  std::vector<std::vector<Part>> recs;
  std::shared_ptr<std::vector<OriginRec>> origins = std::make_shared<std::vector<OriginRec>>();
  std::vector<Reg> regions;
  // Regions whose entries name the same records, which together fill a box:
  // a replay puts back the box as one region, whose origins are deferred
  // (a tile written element by element by its threads becomes one region,
  // not one per element).
  struct Merged {
    int tensor;
    Box box;
    std::vector<Ent> reads, mutates; // origins: those of the first member
    std::shared_ptr<const MergedOrigins> origins;
  };
  std::vector<Merged> merged;
};

bool inside(const Box &a, const Box &b) {
  for (size_t d = 0; d < a.lo.size(); ++d)
    if (a.lo[d] < b.lo[d] || a.hi[d] > b.hi[d])
      return false;
  return true;
}

bool within(const ThreadSet &t, uint64_t lo, uint64_t hi) {
  return t.empty() || (t.min() >= lo && t.max() < hi);
}

// A record part that a shift can move: no pending awaits (their barriers
// were the task's own and are freed) and every thread inside the task.
bool movable(const Part &p, uint64_t lo, uint64_t hi) {
  if (!p.pending.empty())
    return false;
  if (!p.s.empty() && (p.s.min_tid() < lo || p.s.max_tid() >= hi))
    return false;
  return within(p.members, lo, hi);
}

Box moved(const Box &b, const Idx &off) {
  Box r = b;
  for (size_t d = 0; d < r.lo.size(); ++d) {
    r.lo[d] += off[d];
    r.hi[d] += off[d];
  }
  return r;
}

// Regions of one tensor whose entries name the same records with the same
// own quals, in the same order.
std::vector<uint64_t> signature(const FastTaskEffect &fx, const FastTaskEffect::Reg &r) {
  std::vector<uint64_t> sig{static_cast<uint64_t>(r.tensor), r.reads.size()};
  for (const auto *list : {&r.reads, &r.mutates})
    for (const FastTaskEffect::Ent &en : *list) {
      sig.push_back(en.rec);
      sig.push_back((*fx.origins)[en.origin].own_quals);
    }
  return sig;
}

// Moves the groups of regions that share a signature and fill a box into
// fx.merged: such regions are alike but for their origins, which the
// merged region defers.
void merge_regions(FastTaskEffect &fx) {
  std::map<std::vector<uint64_t>, std::vector<size_t>> groups;
  for (size_t i = 0; i < fx.regions.size(); ++i)
    groups[signature(fx, fx.regions[i])].push_back(i);
  std::vector<char> gone(fx.regions.size(), 0);
  for (const auto &[sig, members] : groups) {
    if (members.size() < 2)
      continue;
    Box hull = fx.regions[members[0]].box;
    int64_t volume = 0;
    for (size_t i : members) {
      const Box &b = fx.regions[i].box;
      volume += b.volume();
      for (size_t d = 0; d < hull.lo.size(); ++d) {
        hull.lo[d] = std::min(hull.lo[d], b.lo[d]);
        hull.hi[d] = std::max(hull.hi[d], b.hi[d]);
      }
    }
    if (volume != hull.volume()) // regions are disjoint: equal volumes, one box
      continue;
    auto origins = std::make_shared<MergedOrigins>();
    origins->table = fx.origins;
    for (size_t i : members) {
      const FastTaskEffect::Reg &r = fx.regions[i];
      MergedOrigins::Member m{r.box, {}};
      for (const auto *list : {&r.reads, &r.mutates})
        for (const FastTaskEffect::Ent &en : *list)
          m.origins.push_back(en.origin);
      origins->members.push_back(std::move(m));
      gone[i] = 1;
    }
    const FastTaskEffect::Reg &first = fx.regions[members[0]];
    fx.merged.push_back({first.tensor, hull, first.reads, first.mutates, std::move(origins)});
  }
  size_t keep = 0;
  for (size_t i = 0; i < fx.regions.size(); ++i) {
    if (gone[i])
      continue;
    if (keep != i) // a self-move would empty the region's lists
      fx.regions[keep] = std::move(fx.regions[i]);
    ++keep;
  }
  fx.regions.resize(keep);
}

} // namespace

namespace fast_detail {

OriginRec origin_at(const OriginRec &o, const Idx *at) {
  if (!o.deferred || !at)
    return o;
  const Deferred &d = *o.deferred;
  Idx local = *at;
  for (size_t k = 0; k < local.size(); ++k)
    local[k] -= d.offset[k];
  for (const MergedOrigins::Member &m : d.merged->members) {
    bool in = true;
    for (size_t k = 0; in && k < local.size(); ++k)
      in = local[k] >= m.box.lo[k] && local[k] < m.box.hi[k];
    if (!in)
      continue;
    OriginRec r = (*d.merged->table)[m.origins[d.entry]];
    r.origin.seq = static_cast<uint64_t>(static_cast<int64_t>(r.origin.seq) + d.dseq);
    if (r.origin.threads)
      r.origin.threads = std::make_shared<const ThreadSet>(r.origin.threads->shifted(d.dt));
    r.refs = 0;
    return r;
  }
  return o; // outside the merged box: not an element of this entry's region
}

} // namespace fast_detail

// A live record reaches `tid` when a part's visibility or members hold a
// thread at or above it; State::by_reach keeps the largest such thread, so
// this costs no scan of the records (amortized: each entry is popped once).
bool FastEngine::reaches(uint64_t tid) {
  return st_->max_reach() >= static_cast<int64_t>(tid);
}

bool FastEngine::untouched(int tensor, const Box &b) {
  State &S = *st_;
  bool clean = true;
  tick(S.store(tensor, (*tensors_)[tensor]).query(b, [&](RegionRef ref) {
    const AR &a = S.ars[S.regions[tensor].at(ref).ar];
    clean = clean && a.foa < 0 && a.reads.empty() && a.mutates.empty();
  }));
  return clean;
}

std::unique_ptr<TaskEffect> FastEngine::capture(const std::vector<std::pair<int, Box>> &boxes,
                                                uint64_t lo, uint64_t hi) {
  State &S = *st_;
  auto fx = std::make_unique<FastTaskEffect>();
  std::unordered_map<uint32_t, uint32_t> rec_ix, origin_ix;
  // Records of equal content are captured once: a task's output tile holds
  // one record per element until its join makes them all alike, and every
  // replay would otherwise make as many again.
  std::map<std::vector<uint64_t>, uint32_t> content_ix;
  std::vector<uint64_t> words;
  std::set<std::tuple<int, int32_t, uint32_t>> seen; // (tensor, bucket, index)
  bool ok = true;
  auto copy_entries = [&](const SmallVec<Entry, 4> &from, std::vector<FastTaskEffect::Ent> &to) {
    for (const Entry &en : from) {
      auto r = rec_ix.emplace(en.rec, static_cast<uint32_t>(fx->recs.size()));
      if (r.second) {
        const Record &rec = S.recs[en.rec];
        words.clear();
        record_words(rec, words);
        auto c = content_ix.emplace(words, static_cast<uint32_t>(fx->recs.size()));
        r.first->second = c.first->second;
        if (c.second) {
          ok = ok && rec.foa < 0 && !S.implicit_pending(rec);
          for (const Part &p : rec.parts)
            ok = ok && movable(p, lo, hi);
          fx->recs.emplace_back(rec.parts.begin(), rec.parts.end());
        }
      }
      auto o = origin_ix.emplace(en.origin, static_cast<uint32_t>(fx->origins->size()));
      if (o.second) {
        const OriginRec &orig = S.origins[en.origin];
        ok = ok && !orig.deferred && (!orig.origin.threads || within(*orig.origin.threads, lo, hi));
        fx->origins->push_back(orig);
      }
      to.push_back({r.first->second, o.first->second});
    }
  };
  for (const auto &tb : boxes) {
    const int tensor = tb.first;
    RegionStore &store = S.store(tensor, (*tensors_)[tensor]);
    tick(store.query(tb.second, [&](RegionRef ref) {
      if (!seen.insert({tensor, ref.bucket, ref.idx}).second)
        return;
      const Region &rg = store.at(ref);
      const AR &a = S.ars[rg.ar];
      // Every region the task made lies inside one of its access boxes (most
      // often the one it was found by).
      bool in_one = inside(rg.box, tb.second);
      for (size_t i = 0; !in_one && i < boxes.size(); ++i)
        in_one = boxes[i].first == tensor && inside(rg.box, boxes[i].second);
      ok = ok && in_one && a.foa < 0;
      FastTaskEffect::Reg reg{tensor, rg.box, {}, {}};
      copy_entries(a.reads, reg.reads);
      copy_entries(a.mutates, reg.mutates);
      fx->regions.push_back(std::move(reg));
    }));
  }
  if (!ok)
    return nullptr;
  merge_regions(*fx);
  return fx;
}

void FastEngine::replay(const TaskEffect &effect, const std::vector<TensorShift> &shifts,
                        int64_t dt, int64_t dseq) {
  State &S = *st_;
  const auto &fx = static_cast<const FastTaskEffect &>(effect);
  S.forget_fresh();
  std::vector<uint32_t> rec_ids(fx.recs.size()), origin_ids(fx.origins->size());
  for (size_t i = 0; i < fx.recs.size(); ++i) {
    uint32_t id = S.new_record();
    Record &r = S.recs[id];
    for (const Part &p : fx.recs[i]) {
      Part q = p;
      q.s = p.s.shifted(dt);
      if (p.family())
        q.members = p.members.shifted(dt);
      r.parts.push_back(std::move(q));
    }
    r.foa = -1;
    S.update_max(r);
    rec_ids[i] = id;
  }
  // The template's origins, moved, made when an entry first names one (a
  // merged region's entries name only their first member's).
  std::unordered_map<const ThreadSet *, ThreadSetP> moved_threads;
  constexpr uint32_t kNone = ~uint32_t(0);
  std::fill(origin_ids.begin(), origin_ids.end(), kNone);
  auto origin_id = [&](uint32_t i) {
    if (origin_ids[i] != kNone)
      return origin_ids[i];
    Origin o = (*fx.origins)[i].origin;
    o.seq = static_cast<uint64_t>(static_cast<int64_t>(o.seq) + dseq);
    if (o.threads) {
      ThreadSetP &t = moved_threads[o.threads.get()];
      if (!t)
        t = std::make_shared<const ThreadSet>(o.threads->shifted(dt));
      o.threads = t;
    }
    return origin_ids[i] = S.new_origin(o, (*fx.origins)[i].own_quals);
  };
  // Puts back one region; with `merged`, its entries' origins are deferred
  // (the first member's stands in until a report resolves one).
  auto put_back = [&](int tensor, const Box &box, const std::vector<FastTaskEffect::Ent> &reads,
                      const std::vector<FastTaskEffect::Ent> &mutates,
                      const std::shared_ptr<const MergedOrigins> &merged) {
    const Idx *off = nullptr;
    for (const TensorShift &sh : shifts)
      if (sh.tensor == tensor)
        off = &sh.offset;
    uint32_t a = S.new_ar();
    AR &ar = S.ars[a];
    ar.foa = -1;
    uint32_t entry = 0;
    auto put = [&](const std::vector<FastTaskEffect::Ent> &from, SmallVec<Entry, 4> &to) {
      for (const FastTaskEffect::Ent &en : from) {
        uint32_t o = origin_id(en.origin);
        if (merged) {
          auto d = std::make_shared<Deferred>();
          d->merged = merged;
          d->entry = entry++;
          d->dseq = dseq;
          d->dt = dt;
          if (off)
            d->offset = *off;
          else
            d->offset.resize(box.lo.size());
          // A copy: new_origin may move the pool that holds the first's.
          const Origin first = S.origins[o].origin;
          o = S.new_origin(first, (*fx.origins)[en.origin].own_quals);
          S.origins[o].deferred = std::move(d);
        }
        to.push_back({rec_ids[en.rec], o});
        ++S.recs[rec_ids[en.rec]].refs;
        ++S.origins[o].refs;
      }
    };
    put(reads, ar.reads);
    put(mutates, ar.mutates);
    ar.refs = 1;
    // A replayed task may put back thousands of regions into long buckets:
    // the meter counts that work, or a long replay would outrun the budget.
    tick(S.put_region(tensor, (*tensors_)[tensor], off ? moved(box, *off) : box, a));
  };
  for (const FastTaskEffect::Reg &reg : fx.regions)
    put_back(reg.tensor, reg.box, reg.reads, reg.mutates, nullptr);
  for (const FastTaskEffect::Merged &mg : fx.merged)
    put_back(mg.tensor, mg.box, mg.reads, mg.mutates, mg.origins);
  // Origins only the merged regions' first members had.
  for (uint32_t id : origin_ids)
    if (id != kNone)
      S.drop_if_unused(id);
  S.stats.replayed_regions += fx.regions.size() + fx.merged.size();
  S.stats.merged_regions += fx.merged.size();
  S.stats.max_regions = std::max(S.stats.max_regions, S.live_regions);
}

} // namespace exgc::sync
