// fast_loops.cpp - the fast engine's side of loop replay -------------------//
//
// loop_replay.h has the argument. The engine watches which records are old
// (made before the iteration) and whether one of them changed, and writes
// the regions of a box as words: every field of every record a rule reads,
// and per entry where its origin lies (an event of the iteration, counted
// from its start, or an older event). Region boundaries are part of the
// words, so two equal histories split differently compare unequal: that
// only costs a skip, never a wrong one.
#include "compiler/sync/fast_engine.h"

#include "compiler/sync/fast_state.h"

#include <unordered_map>
#include <unordered_set>

namespace exgc::sync {
namespace {

void put_masks(const Masks &m, std::vector<uint64_t> &out) {
  for (QualMask q : m.f)
    out.push_back(q);
}

void put_threads(const ThreadSet &t, std::vector<uint64_t> &out) {
  out.push_back(t.intervals().size());
  for (const Interval &i : t.intervals()) {
    out.push_back(i.lo);
    out.push_back(i.hi);
  }
}

} // namespace

namespace fast_detail {

void record_words(const Record &r, std::vector<uint64_t> &out) {
  out.push_back(static_cast<uint64_t>(r.foa));
  out.push_back(r.parts.size());
  for (const Part &p : r.parts) {
    out.push_back(p.s.segs().size());
    for (const VisSet::Seg &sg : p.s.segs()) {
      out.push_back(sg.lo);
      out.push_back(sg.hi);
      put_masks(sg.m, out);
    }
    put_threads(p.members, out);
    put_masks(p.own, out);
    out.push_back(p.atomic_all);
    out.push_back(p.pending.size());
    for (const PendingEntry &e : p.pending) {
      out.push_back(e.bar);
      out.push_back(static_cast<uint64_t>(e.count));
    }
    out.push_back(uint64_t(p.freed) << 1 | uint64_t(p.before_alloc));
  }
  out.push_back(r.subs.size());
  for (const Record::Sub &s : r.subs) {
    out.push_back(s.stream);
    out.push_back(s.t);
  }
}

} // namespace fast_detail

namespace {

// The regions of `st` (null: a tensor never accessed) overlapping `box`, in
// box order.
std::vector<const Region *> regions_in(RegionStore *st, const Box &box) {
  std::vector<const Region *> rs;
  if (!st)
    return rs;
  st->query(box, [&](RegionRef r) { rs.push_back(&st->at(r)); });
  std::sort(rs.begin(), rs.end(), [](const Region *a, const Region *b) {
    for (size_t d = 0; d < a->box.lo.size(); ++d)
      if (a->box.lo[d] != b->box.lo[d])
        return a->box.lo[d] < b->box.lo[d];
    return false; // regions are disjoint: equal corners, same region
  });
  return rs;
}

RegionStore *store_of(std::vector<RegionStore> &regions, const std::vector<char> &init,
                      int tensor) {
  return static_cast<size_t>(tensor) < regions.size() && init[tensor] ? &regions[tensor]
                                                                      : nullptr;
}

// A list of entries as the set of its distinct contents, each with the
// earliest event that made one: equal contents fail together and the
// earliest wins as the culprit, so entries that only repeat an older one's
// content (a tensor read again in every iteration, an atomic update that
// keeps its predecessors) change nothing a rule or a report reads.
void put_list(const std::vector<Record> &recs, const std::vector<OriginRec> &origins,
              const SmallVec<Entry, 4> &list, uint64_t iteration_seq,
              std::vector<uint64_t> &out) {
  std::vector<std::pair<std::vector<uint64_t>, uint64_t>> items;
  for (const Entry &en : list) {
    items.emplace_back();
    record_words(recs[en.rec], items.back().first);
    items.back().second = origins[en.origin].origin.seq;
  }
  std::sort(items.begin(), items.end());
  size_t distinct = 0;
  for (size_t i = 0; i < items.size(); ++i)
    if (distinct == 0 || items[i].first != items[distinct - 1].first) {
      if (distinct != i)
        items[distinct] = std::move(items[i]);
      ++distinct;
    }
  items.resize(distinct);
  out.push_back(items.size());
  for (const auto &[words, seq] : items) {
    out.insert(out.end(), words.begin(), words.end());
    // Made by the iteration: its event counted from the iteration's start.
    const bool made_now = seq > iteration_seq;
    out.push_back(made_now);
    out.push_back(made_now ? seq - iteration_seq : seq);
  }
}

} // namespace

void FastEngine::begin_iteration(uint64_t seq) {
  State &S = *st_;
  S.watch_from = S.serial;
  S.iteration_seq = seq;
  S.changed_old.clear();
  S.too_many = false;
}

// Whether every old record that changed during the iteration is gone, or
// held by entries of the area alone (whose words then show the change): a
// register tile's records of the previous iteration that a join touched
// before the iteration replaced them do not count, a record elsewhere does.
bool FastEngine::old_changes_seen(const std::vector<std::pair<int, Box>> &area) {
  State &S = *st_;
  if (S.too_many)
    return false;
  std::vector<uint32_t> live;
  for (const Ref &ref : S.changed_old)
    if (S.valid(ref))
      live.push_back(ref.first);
  if (live.empty())
    return true;
  std::unordered_map<uint32_t, uint32_t> regions_of; // AR -> its regions in the area
  for (const auto &[tensor, box] : area)
    for (const Region *rg : regions_in(store_of(S.regions, S.region_init, tensor), box))
      ++regions_of[rg->ar];
  std::unordered_map<uint32_t, uint32_t> entries_of; // record -> entries of whole ARs
  for (const auto &[ar, n] : regions_of) {
    if (n != S.ars[ar].refs)
      continue; // the AR is also held outside the area
    for (const SmallVec<Entry, 4> *list : {&S.ars[ar].reads, &S.ars[ar].mutates})
      for (const Entry &en : *list)
        ++entries_of[en.rec];
  }
  for (uint32_t id : live)
    if (entries_of[id] != S.recs[id].refs)
      return false;
  return true;
}

void FastEngine::end_iteration() { st_->watch_from = UINT64_MAX; }

bool FastEngine::iteration_words(const std::vector<std::pair<int, Box>> &area,
                                 std::vector<uint64_t> &out) {
  State &S = *st_;
  if (!old_changes_seen(area))
    return false;
  for (const auto &[tensor, box] : area) {
    const std::vector<const Region *> rs = regions_in(store_of(S.regions, S.region_init, tensor), box);
    out.push_back(static_cast<uint64_t>(tensor));
    out.push_back(rs.size());
    for (const Region *rg : rs) {
      tick();
      for (size_t d = 0; d < rg->box.lo.size(); ++d) {
        out.push_back(static_cast<uint64_t>(rg->box.lo[d]));
        out.push_back(static_cast<uint64_t>(rg->box.hi[d]));
      }
      const AR &ar = S.ars[rg->ar];
      out.push_back(static_cast<uint64_t>(ar.foa));
      for (const SmallVec<Entry, 4> *list : {&ar.reads, &ar.mutates})
        put_list(S.recs, S.origins, *list, S.iteration_seq, out);
    }
  }
  return true;
}

void FastEngine::skip_iterations(const std::vector<std::pair<int, Box>> &area, int64_t dseq) {
  State &S = *st_;
  // An access's entries share one origin: move each once.
  std::unordered_set<uint32_t> moved;
  for (const auto &[tensor, box] : area)
    for (const Region *rg : regions_in(store_of(S.regions, S.region_init, tensor), box)) {
      const AR &ar = S.ars[rg->ar];
      for (const SmallVec<Entry, 4> *list : {&ar.reads, &ar.mutates})
        for (const Entry &en : *list) {
          Origin &o = S.origins[en.origin].origin;
          if (o.seq > S.iteration_seq && !S.origins[en.origin].deferred &&
              moved.insert(en.origin).second)
            o.seq += static_cast<uint64_t>(dseq);
        }
    }
  S.watch_from = UINT64_MAX;
}

} // namespace exgc::sync
