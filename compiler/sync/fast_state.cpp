// fast_state.cpp - the fast engine's state: the larger rules -------------//
//
// The bodies of FastEngine::State's larger rules, declared with their
// contracts in fast_state.h: putting a region, a record's largest thread and
// reach, merging parts, what a sync op sees of a part, scan signatures, the
// upkeep of the change log and the scan lists, remembering fresh records, and
// the culprit checks. The small hot helpers and the scans (templates) stay
// inline in fast_state.h.
#include "compiler/sync/fast_state.h"

namespace exgc::sync {

size_t FastEngine::State::put_region(int tensor, const TensorInfo &t, const Box &box, uint32_t ar) {
  RegionStore &st = store(tensor, t);
  hits.clear();
  size_t examined = st.query(box, [&](RegionRef r) { hits.push_back(r); });
  std::sort(hits.begin(), hits.end());
  out.clear();
  for (const RegionRef &h : hits) {
    const Region &rg = st.at(h);
    next.clear();
    subtract(rg.box, box, next);
    for (Box &b : next) {
      ++ars[rg.ar].refs;
      out.push_back({std::move(b), rg.ar});
    }
  }
  for (const RegionRef &h : hits)
    unref_ar(st.at(h).ar);
  st.remove(hits);
  live_regions -= hits.size();
  out.push_back({box, ar});
  for (Region &r : out) {
    st.add(std::move(r));
    ++live_regions;
  }
  return examined;
}

void FastEngine::State::update_max(Record &r) {
  uint64_t m = 0;
  int64_t reach = -1;
  QualMask wq = 0;
  for (const Part &p : r.parts) {
    m = std::max(m, p.s.max_tid());
    if (!p.s.empty())
      reach = std::max(reach, static_cast<int64_t>(p.s.max_tid()));
    if (p.family())
      reach = std::max(reach, static_cast<int64_t>(p.members.max()));
    wq |= p.s.summary().witnessable();
    if (p.family() && p.own.any()) {
      m = std::max(m, p.members.max());
      wq |= p.own.witnessable();
    }
  }
  r.max_tid = m;
  r.wq = wq;
  if (reach != r.reach) {
    r.reach = reach;
    if (reach >= 0)
      push_reach(r);
  }
}

void FastEngine::State::compact_reach() {
  std::vector<std::pair<int64_t, Ref>> keep;
  for (; !by_reach.empty(); by_reach.pop())
    if (reach_current(by_reach.top()))
      keep.push_back(by_reach.top());
  by_reach = std::priority_queue<std::pair<int64_t, Ref>>(std::less<std::pair<int64_t, Ref>>(),
                                                          std::move(keep));
}

void FastEngine::State::remember_fresh_key(const FreshKey &k, const ThreadSetP &threads,
                                           uint32_t id) {
  FreshEntry e{k, {id, recs[id].gen}, threads};
  if (fresh_keys.size() < 4) {
    fresh_keys.push_back(std::move(e));
  } else {
    fresh_keys[fresh_keys_next] = std::move(e);
    fresh_keys_next = (fresh_keys_next + 1) % 4;
  }
}

void FastEngine::State::remember_fresh(uint32_t id) {
  constexpr size_t kFresh = 16;
  if (fresh.size() < kFresh) {
    fresh_last = fresh.size();
    fresh.push_back(id);
  } else {
    fresh_last = (fresh_last + 1) % kFresh;
    fresh[fresh_last] = id;
  }
}

void FastEngine::State::normalize(Record &r) {
  if (r.parts.size() < 2)
    return;
  for (size_t i = 0; i < r.parts.size(); ++i)
    for (size_t j = i + 1; j < r.parts.size();) {
      if (r.parts[i].family() && r.parts[j].family() && r.parts[i].same_but_members(r.parts[j])) {
        r.parts[i].members = r.parts[i].members.unite(r.parts[j].members);
        r.parts[j] = std::move(r.parts.back());
        r.parts.pop_back();
      } else {
        ++j;
      }
    }
}

int FastEngine::State::witnessed(const Part &p, const ThreadSet &c, QualMask l1, ThreadSet &sub) {
  if (p.freed)
    return 0;
  if (p.s.witness(c, l1))
    return 1;
  if (!p.family() || !(p.own.witnessable() & l1))
    return 0;
  sub = p.members.intersect(c);
  if (sub.empty())
    return 0;
  return sub == p.members ? 1 : 2;
}

FastEngine::State::SigEntry &FastEngine::State::signature(char kind, const ThreadSetP &c,
                                                          QualMask l1, const SyncTl &l2,
                                                          const std::vector<uint64_t> *bars) {
  SigKey key{kind, c.get(), l1, l2.full, l2.temp, {}};
  if (bars)
    key.bars.assign(bars->data(), bars->data() + bars->size());
  SigCache &cache = bars ? arrive_sigs : sigs;
  auto it = cache.map.emplace(std::move(key), SigEntry());
  if (it.second) {
    it.first->second.id = next_sig++;
    cache.threads.push_back(c);
  }
  return it.first->second;
}

void FastEngine::State::trim_changes() {
  if (changes.size() > 2 * live_records + 4096) {
    const size_t drop = changes.size() - (live_records + 2048);
    changes.erase(changes.begin(), changes.begin() + static_cast<ptrdiff_t>(drop));
    changes_base += drop;
  }
  if (active.size() > 2 * live_records + 1024) {
    size_t keep = 0;
    for (const Ref &ref : active)
      if (valid(ref) && recs[ref.first].list == 1)
        active[keep++] = ref;
    active.resize(keep);
  }
}

void FastEngine::State::compact_retired() {
  std::vector<std::pair<uint64_t, Ref>> keep;
  while (!retired.empty()) {
    const auto &top = retired.top();
    if (valid(top.second) && recs[top.second.first].list == 2)
      keep.push_back(top);
    retired.pop();
  }
  retired = std::priority_queue<std::pair<uint64_t, Ref>>(std::less<std::pair<uint64_t, Ref>>(),
                                                          std::move(keep));
}

void FastEngine::State::consider(Failure &f, const OriginRec &o, const Part &p, int64_t tid,
                                 ThreadSet &miss, bool from_mutates) {
  Culprit cand{true, o.origin.seq, tid};
  if (!cand.better_than(f.best))
    return;
  f.best = cand;
  f.rec = o;
  f.part = &p;
  f.missing = std::move(miss);
  f.from_mutates = from_mutates;
}

bool FastEngine::State::check_ar(uint32_t a, const AccessEvent &e, Failure &f, const Idx *at) {
  const AR &ar = ars[a];
  const ThreadSet &c = *e.ctx.threads;
  const int need_m = need_on_mutates(e);
  OriginRec scratch; // a deferred origin resolved at `at`
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1 && !e.mutate)
      break;
    int need = pass == 0 ? need_m : kNeedOnReads;
    for (const Entry &en : pass == 0 ? ar.mutates : ar.reads) {
      const Record &r = recs[en.rec];
      const OriginRec &o = origin_of(origins, en, at, scratch);
      for (const Part &p : r.parts) {
        int64_t tid;
        ThreadSet miss;
        if (!part_fails(p, c, e.ext, need, e.conv, tid, miss))
          continue;
        consider(f, o, p, tid, miss, pass == 0);
      }
    }
    if (f.best.found)
      return true;
  }
  return false;
}

bool FastEngine::State::check_free_ar(uint32_t a, const ThreadSet &c, bool ring, QualMask q,
                                      Failure &f, const Idx *at) {
  const AR &ar = ars[a];
  OriginRec scratch;
  for (int pass = 0; pass < 2; ++pass)
    for (const Entry &en : pass == 0 ? ar.mutates : ar.reads) {
      const Record &r = recs[en.rec];
      const OriginRec &o = origin_of(origins, en, at, scratch);
      for (const Part &p : r.parts) {
        int64_t tid = -1;
        ThreadSet miss;
        if (ring) {
          if (r.foa < 0 || p.freed)
            continue;
          tid = p.family() ? static_cast<int64_t>(p.members.min()) : -1;
        } else if (p.freed || !part_fails(p, c, q, Temp, false, tid, miss)) {
          // A part its ring's Arrive freed is ordered by the ring protocol.
          continue;
        }
        consider(f, o, p, tid, miss, true);
      }
    }
  return f.best.found;
}

} // namespace exgc::sync
