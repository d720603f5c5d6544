// fast_engine.cpp - regions, family records, back-referenced awaits ------//
//
// Exactness argument, in short (docs/sync.md has the long form):
//  - Records with equal content evolve identically (every rule reads only a
//    record's content), so one record shared by all elements an access
//    touches behaves as the oracle's per-element copies do.
//  - A family with members M, shared set S and own masks O stands for the
//    records S + {t} x O, t in M. Every rule is decided for all members at
//    once or for members inside / outside the collective, so a family splits
//    into at most two parts per sync op and never needs per-thread work.
//  - A sync op by collective C can only see a record holding a triple at a
//    thread of C, hence at a thread >= min(C); records whose largest thread
//    is below it are skipped until a collective reaches below again.
#include "compiler/sync/fast_engine.h"

#include "compiler/sync/rules.h"

#include <algorithm>
#include <unordered_map>

namespace exgc::sync {

namespace {

using Pending = std::vector<std::pair<uint64_t, int64_t>>; // sorted by barrier

struct Part {
  VisSet s;
  ThreadSet members; // empty: one record; else one record per member
  Masks own;         // what each member holds at itself
  QualMask atomic_all = 0;
  Pending pending;
  bool freed = false, before_alloc = false;

  bool family() const { return !members.empty(); }
  bool same_but_members(const Part &o) const {
    return freed == o.freed && before_alloc == o.before_alloc && atomic_all == o.atomic_all &&
           own == o.own && pending == o.pending && s == o.s;
  }
};

struct Record {
  std::vector<Part> parts;
  int64_t foa = -1;
  Origin origin;
  QualMask own_quals = 0;
  uint32_t refs = 0, gen = 0;
  uint8_t list = 0; // 0 none, 1 active, 2 retired
  uint64_t max_tid = 0;
};

struct AR {
  std::vector<uint32_t> reads, mutates;
  int64_t foa = -1;
  uint32_t refs = 0;
};

struct Region {
  Box box;
  uint32_t ar;
};

using Ref = std::pair<uint32_t, uint32_t>; // record id, generation

bool overlaps(const Box &a, const Box &b) {
  for (size_t d = 0; d < a.lo.size(); ++d)
    if (std::max(a.lo[d], b.lo[d]) >= std::min(a.hi[d], b.hi[d]))
      return false;
  return true;
}

Box intersect(const Box &a, const Box &b) {
  Box r = a;
  for (size_t d = 0; d < a.lo.size(); ++d) {
    r.lo[d] = std::max(a.lo[d], b.lo[d]);
    r.hi[d] = std::min(a.hi[d], b.hi[d]);
  }
  return r;
}

void subtract(const Box &a, const Box &b, std::vector<Box> &out) {
  if (!overlaps(a, b)) {
    out.push_back(a);
    return;
  }
  Box rest = a;
  for (size_t d = 0; d < a.lo.size(); ++d) {
    if (rest.lo[d] < b.lo[d]) {
      Box p = rest;
      p.hi[d] = b.lo[d];
      out.push_back(p);
      rest.lo[d] = b.lo[d];
    }
    if (rest.hi[d] > b.hi[d]) {
      Box p = rest;
      p.lo[d] = b.hi[d];
      out.push_back(p);
      rest.hi[d] = b.hi[d];
    }
  }
}

// Failing members of a part for a check of (threads, quals, flag, conv).
// Returns false when every member (or the single record) sees the access;
// otherwise `tid` is the lowest failing member (-1 for a single record) and
// `missing` the threads that lacked visibility for it.
bool part_fails(const Part &p, const ThreadSet &c, QualMask q, int flag, bool conv, int64_t &tid,
                ThreadSet &missing) {
  if (flag == Atom && (q & p.atomic_all))
    return false;
  const bool own_ok = p.family() && (p.own.f[flag] & q);
  if (conv) {
    if (p.s.any(c, q, flag))
      return false;
    ThreadSet failing = own_ok ? p.members.subtract(c) : p.members;
    if (p.family() && failing.empty())
      return false;
    tid = p.family() ? static_cast<int64_t>(failing.min()) : -1;
    missing = c;
    return true;
  }
  ThreadSet miss = p.s.missing(c, q, flag);
  if (miss.empty())
    return false;
  if (!p.family()) {
    tid = -1;
    missing = std::move(miss);
    return true;
  }
  if (!own_ok) {
    tid = static_cast<int64_t>(p.members.min());
    missing = std::move(miss);
    return true;
  }
  // A member covers itself: it fails unless it is the only thread missing.
  ThreadSet failing = p.members;
  if (miss.size() == 1)
    failing = failing.subtract(miss);
  if (failing.empty())
    return false;
  tid = static_cast<int64_t>(failing.min());
  missing = miss.subtract(ThreadSet::single(static_cast<uint64_t>(tid)));
  return true;
}

} // namespace

struct FastEngine::State {
  std::vector<Record> recs;
  std::vector<uint32_t> rec_free;
  std::vector<AR> ars;
  std::vector<uint32_t> ar_free;
  std::vector<std::vector<Region>> regions; // by tensor id
  std::vector<Ref> active, retired;
  uint64_t retired_max = 0;
  bool any_retired = false;
  std::unordered_map<uint64_t, std::vector<Ref>> waiters;
  FastEngineStats stats;
  uint64_t live_records = 0, live_regions = 0;

  State() {
    ars.emplace_back(); // id 0: the empty record, never released
    ars[0].refs = 1;
  }

  // --- Pools.
  uint32_t new_record() {
    uint32_t id;
    if (!rec_free.empty()) {
      id = rec_free.back();
      rec_free.pop_back();
    } else {
      id = static_cast<uint32_t>(recs.size());
      recs.emplace_back();
    }
    Record &r = recs[id];
    ++r.gen;
    r.refs = 0;
    r.list = 1;
    active.push_back({id, r.gen});
    ++stats.records_created;
    stats.max_live_records = std::max(stats.max_live_records, ++live_records);
    return id;
  }
  void unref_record(uint32_t id) {
    Record &r = recs[id];
    if (--r.refs)
      return;
    ++r.gen; // stale references (scan lists, waiters) are dropped lazily
    r.list = 0;
    r.parts.clear();
    r.origin = Origin();
    rec_free.push_back(id);
    --live_records;
  }
  uint32_t new_ar() {
    uint32_t id;
    if (!ar_free.empty()) {
      id = ar_free.back();
      ar_free.pop_back();
    } else {
      id = static_cast<uint32_t>(ars.size());
      ars.emplace_back();
    }
    ars[id].refs = 0;
    return id;
  }
  void unref_ar(uint32_t id) {
    if (id == 0)
      return;
    AR &a = ars[id];
    if (--a.refs)
      return;
    for (uint32_t r : a.reads)
      unref_record(r);
    for (uint32_t r : a.mutates)
      unref_record(r);
    a.reads.clear();
    a.mutates.clear();
    ar_free.push_back(id);
  }

  bool valid(const Ref &ref) const { return recs[ref.first].gen == ref.second; }

  void update_max(Record &r) {
    uint64_t m = 0;
    for (const Part &p : r.parts) {
      m = std::max(m, p.s.max_tid());
      if (p.family() && p.own.any())
        m = std::max(m, p.members.max());
    }
    r.max_tid = m;
  }

  void add_waiter(uint64_t bar, uint32_t id) {
    auto &w = waiters[bar];
    Ref ref{id, recs[id].gen};
    if (w.empty() || w.back() != ref)
      w.push_back(ref);
  }

  // Merge parts that differ only in their members.
  void normalize(Record &r) {
    if (r.parts.size() < 2)
      return;
    for (size_t i = 0; i < r.parts.size(); ++i)
      for (size_t j = i + 1; j < r.parts.size();) {
        if (r.parts[i].family() && r.parts[j].family() &&
            r.parts[i].same_but_members(r.parts[j])) {
          r.parts[i].members = r.parts[i].members.unite(r.parts[j].members);
          r.parts[j] = std::move(r.parts.back());
          r.parts.pop_back();
        } else {
          ++j;
        }
      }
  }

  // Members of part p a sync op by c with first sync-tl l1 sees: 0 none,
  // 1 all, 2 the subset `sub`.
  static int witnessed(const Part &p, const ThreadSet &c, QualMask l1, ThreadSet &sub) {
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

  // Splits parts[i] so that it holds exactly `sub`; the rest goes to the end.
  static void split(Record &r, size_t i, const ThreadSet &sub) {
    Part rest = r.parts[i];
    rest.members = r.parts[i].members.subtract(sub);
    r.parts[i].members = sub;
    r.parts.push_back(std::move(rest));
  }

  // Visits the records a sync op by `c` may see.
  template <typename Fn> void scan(const ThreadSet &c, Fn fn) {
    const uint64_t cmin = c.min();
    if (any_retired && cmin <= retired_max) {
      for (const Ref &ref : retired)
        if (valid(ref) && recs[ref.first].list == 2) {
          recs[ref.first].list = 1;
          active.push_back(ref);
        }
      retired.clear();
      any_retired = false;
      retired_max = 0;
    }
    for (size_t i = 0; i < active.size();) {
      const Ref ref = active[i];
      Record &r = recs[ref.first];
      if (r.gen != ref.second || r.list != 1) {
        active[i] = active.back();
        active.pop_back();
        continue;
      }
      if (r.max_tid < cmin) {
        r.list = 2;
        retired.push_back(ref);
        any_retired = true;
        retired_max = std::max(retired_max, r.max_tid);
        active[i] = active.back();
        active.pop_back();
        continue;
      }
      ++stats.scanned;
      fn(ref.first, r);
      ++i;
    }
  }

  // A record changed outside a scan (Await): make sure scans see it again.
  void reactivate(uint32_t id) {
    Record &r = recs[id];
    if (r.list == 2) {
      r.list = 1;
      active.push_back({id, r.gen});
    }
  }

  // --- Checks.
  struct Failure {
    Culprit best;
    const Record *rec = nullptr;
    const Part *part = nullptr;
    ThreadSet missing;
    bool from_mutates = true;
  };

  // The culprit in AR `a` for access `e`, as the oracle picks it.
  bool check_ar(uint32_t a, const AccessEvent &e, Failure &f) {
    const AR &ar = ars[a];
    const ThreadSet &c = *e.ctx.threads;
    const int need_m = need_on_mutates(e);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1 && !e.mutate)
        break;
      int need = pass == 0 ? need_m : kNeedOnReads;
      for (uint32_t rid : pass == 0 ? ar.mutates : ar.reads) {
        const Record &r = recs[rid];
        for (const Part &p : r.parts) {
          int64_t tid;
          ThreadSet miss;
          if (!part_fails(p, c, e.ext, need, e.conv, tid, miss))
            continue;
          Culprit cand{true, r.origin.seq, tid};
          if (cand.better_than(f.best)) {
            f.best = cand;
            f.rec = &r;
            f.part = &p;
            f.missing = std::move(miss);
            f.from_mutates = pass == 0;
          }
        }
      }
      if (f.best.found)
        return true;
    }
    return false;
  }

  bool check_free_ar(uint32_t a, const ThreadSet &c, bool ring, QualMask q, Failure &f) {
    const AR &ar = ars[a];
    for (int pass = 0; pass < 2; ++pass)
      for (uint32_t rid : pass == 0 ? ar.mutates : ar.reads) {
        const Record &r = recs[rid];
        for (const Part &p : r.parts) {
          int64_t tid = -1;
          ThreadSet miss;
          if (ring) {
            if (r.foa < 0 || p.freed)
              continue;
            tid = p.family() ? static_cast<int64_t>(p.members.min()) : -1;
          } else if (!part_fails(p, c, q, Temp, false, tid, miss)) {
            continue;
          }
          Culprit cand{true, r.origin.seq, tid};
          if (cand.better_than(f.best)) {
            f.best = cand;
            f.rec = &r;
            f.part = &p;
            f.missing = std::move(miss);
          }
        }
      }
    return f.best.found;
  }
};

FastEngine::FastEngine() : st_(std::make_unique<State>()) {}
FastEngine::~FastEngine() = default;
const FastEngineStats &FastEngine::stats() const { return st_->stats; }

void FastEngine::alloc(int tensor, const Ctx &c) {
  State &S = *st_;
  if (S.regions.size() <= static_cast<size_t>(tensor))
    S.regions.resize(tensor + 1);
  const TensorInfo &t = (*tensors_)[tensor];
  for (const RingSlot &slot : ring_slots(t, *tensors_)) {
    uint32_t a = S.new_ar();
    S.ars[a].foa = slot.free_on_arrive;
    if (!slot.alloc_on_await.empty()) {
      uint32_t id = S.new_record();
      Record &r = S.recs[id];
      Part p;
      p.before_alloc = true;
      for (uint64_t b : slot.alloc_on_await)
        p.pending.push_back({b, 0});
      std::sort(p.pending.begin(), p.pending.end());
      r.parts.push_back(std::move(p));
      r.foa = slot.free_on_arrive;
      r.origin = Origin{c.seq, c.stmt, c.threads};
      r.refs = 1;
      S.update_max(r);
      for (uint64_t b : slot.alloc_on_await)
        S.add_waiter(b, id);
      S.ars[a].mutates.push_back(id);
    }
    S.ars[a].refs = 1;
    S.regions[tensor].push_back({slot.box, a});
    ++S.live_regions;
  }
  S.stats.max_regions = std::max(S.stats.max_regions, S.live_regions);
}

bool FastEngine::access(const AccessEvent &e) {
  State &S = *st_;
  if (S.regions.size() <= static_cast<size_t>(e.tensor))
    S.regions.resize(e.tensor + 1);
  std::vector<Region> &regs = S.regions[e.tensor];
  const TensorInfo &t = (*tensors_)[e.tensor];

  // 1. Regions the access touches.
  std::vector<uint32_t> hits;
  for (uint32_t i = 0; i < regs.size(); ++i)
    for (const Box &b : e.boxes)
      if (overlaps(regs[i].box, b)) {
        hits.push_back(i);
        break;
      }

  // 2. Check, once per distinct assignment record; the failing element is the
  // lowest C-order index of a failing region's overlap with the access.
  {
    std::vector<std::pair<uint32_t, bool>> memo;
    int64_t best_lin = -1;
    uint32_t best_ar = 0;
    for (uint32_t i : hits) {
      uint32_t a = regs[i].ar;
      bool fails = false, known = false;
      for (auto &m : memo)
        if (m.first == a) {
          fails = m.second;
          known = true;
        }
      if (!known) {
        State::Failure f;
        fails = S.check_ar(a, e, f);
        memo.push_back({a, fails});
      }
      if (!fails)
        continue;
      for (const Box &b : e.boxes) {
        if (!overlaps(regs[i].box, b))
          continue;
        int64_t lin = t.linear(intersect(regs[i].box, b).lo);
        if (best_lin < 0 || lin < best_lin) {
          best_lin = lin;
          best_ar = a;
        }
      }
    }
    if (best_lin >= 0) {
      State::Failure f;
      S.check_ar(best_ar, e, f);
      hazard_ = Hazard();
      hazard_.kind = hazard_kind(f.part->freed, f.part->before_alloc, f.from_mutates, e.mutate);
      hazard_.tensor_id = e.tensor;
      hazard_.linear = best_lin;
      hazard_.has_prior = true;
      hazard_.prior = f.rec->origin;
      hazard_.prior_thread = f.best.tid;
      hazard_.missing_threads = f.missing;
      hazard_.need_flag = f.from_mutates ? need_on_mutates(e) : kNeedOnReads;
      hazard_.need_quals = e.ext;
      hazard_.prior_quals = f.rec->own_quals;
      return false;
    }
  }

  // 3. Record. One record per distinct free-on-arrive barrier (ring slots).
  const ThreadSet &c = *e.ctx.threads;
  const Masks m = new_record_masks(e);
  Pending pend;
  for (auto &bk : e.trailing)
    pend.push_back(bk);
  std::sort(pend.begin(), pend.end());
  pend.erase(std::unique(pend.begin(), pend.end(),
                         [](auto &a, auto &b) { return a.first == b.first; }),
             pend.end());
  std::vector<std::pair<int64_t, uint32_t>> rec_by_foa;
  auto record_for = [&](int64_t foa) {
    for (auto &rf : rec_by_foa)
      if (rf.first == foa)
        return rf.second;
    uint32_t id = S.new_record();
    Record &r = S.recs[id];
    Part p;
    if (e.conv) {
      p.s.add(c, m);
    } else {
      p.members = c;
      p.own = m;
    }
    p.atomic_all = e.atomic;
    p.pending = pend;
    r.parts.push_back(std::move(p));
    r.foa = foa;
    r.origin = Origin{e.ctx.seq, e.ctx.stmt, e.ctx.threads};
    r.own_quals = bit(e.initial);
    S.update_max(r);
    for (auto &bk : pend)
      S.add_waiter(bk.first, id);
    rec_by_foa.push_back({foa, id});
    return id;
  };
  std::vector<std::pair<uint32_t, uint32_t>> ar_map; // old -> new
  auto new_of = [&](uint32_t old) {
    for (auto &p : ar_map)
      if (p.first == old)
        return p.second;
    const int64_t foa = S.ars[old].foa;
    uint32_t rid = record_for(foa);
    uint32_t n = S.new_ar();
    AR &na = S.ars[n];
    const AR &oa = S.ars[old];
    na.foa = foa;
    if (e.mutate) {
      if (e.atomic)
        na.mutates = oa.mutates;
    } else {
      na.mutates = oa.mutates;
      na.reads = oa.reads;
    }
    for (uint32_t r : na.mutates)
      ++S.recs[r].refs;
    for (uint32_t r : na.reads)
      ++S.recs[r].refs;
    (e.mutate ? na.mutates : na.reads).push_back(rid);
    ++S.recs[rid].refs;
    ar_map.push_back({old, n});
    return n;
  };

  std::vector<Region> out;
  // Per box: the pieces inside it, then one region when they all agree.
  for (const Box &b : e.boxes) {
    std::vector<std::pair<Box, uint32_t>> inside;
    std::vector<Box> uncovered{b};
    for (uint32_t i : hits) {
      if (!overlaps(regs[i].box, b))
        continue;
      inside.push_back({intersect(regs[i].box, b), new_of(regs[i].ar)});
      std::vector<Box> next;
      for (const Box &u : uncovered)
        subtract(u, regs[i].box, next);
      uncovered.swap(next);
    }
    for (const Box &u : uncovered)
      inside.push_back({u, new_of(0)});
    bool same = true;
    for (auto &pc : inside)
      same = same && pc.second == inside[0].second;
    if (same) {
      out.push_back({b, inside[0].second});
    } else {
      for (auto &pc : inside)
        out.push_back({pc.first, pc.second});
    }
  }
  for (Region &r : out)
    ++S.ars[r.ar].refs;
  // What the touched regions keep outside the access.
  for (uint32_t i : hits) {
    std::vector<Box> rest{regs[i].box};
    for (const Box &b : e.boxes) {
      std::vector<Box> next;
      for (const Box &u : rest)
        subtract(u, b, next);
      rest.swap(next);
    }
    for (Box &u : rest) {
      ++S.ars[regs[i].ar].refs;
      out.push_back({std::move(u), regs[i].ar});
    }
  }
  // Drop the touched regions (highest index first keeps the others valid).
  for (size_t k = hits.size(); k-- > 0;) {
    uint32_t i = hits[k];
    S.unref_ar(regs[i].ar);
    regs[i] = std::move(regs.back());
    regs.pop_back();
    --S.live_regions;
  }
  for (Region &r : out) {
    regs.push_back(std::move(r));
    ++S.live_regions;
  }
  // ARs made for this access but not used by any region (none today) and the
  // creation references of new records are settled here.
  for (auto &p : ar_map)
    if (S.ars[p.second].refs == 0) {
      ++S.ars[p.second].refs;
      S.unref_ar(p.second);
    }
  S.stats.max_regions = std::max(S.stats.max_regions, S.live_regions);
  return true;
}

void FastEngine::fence(const Ctx &c, QualMask l1, const SyncTl &l2) {
  State &S = *st_;
  const Masks m = augment_masks(l2);
  const ThreadSet &ct = *c.threads;
  S.scan(ct, [&](uint32_t, Record &r) {
    bool changed = false;
    const size_t n = r.parts.size();
    for (size_t i = 0; i < n; ++i) {
      ThreadSet sub;
      int w = State::witnessed(r.parts[i], ct, l1, sub);
      if (!w)
        continue;
      if (w == 2)
        State::split(r, i, sub);
      if (r.parts[i].s.add(ct, m)) {
        r.parts[i].before_alloc = false;
        changed = true;
      }
    }
    if (changed || r.parts.size() != n) {
      S.normalize(r);
      S.update_max(r);
    }
  });
}

void FastEngine::arrive(const Ctx &c, QualMask l1, const std::vector<uint64_t> &bars,
                        int64_t k) {
  if (!l1)
    return;
  State &S = *st_;
  const ThreadSet &ct = *c.threads;
  S.scan(ct, [&](uint32_t id, Record &r) {
    const bool frees =
        r.foa >= 0 && std::binary_search(bars.begin(), bars.end(), uint64_t(r.foa));
    bool changed = false;
    const size_t n = r.parts.size();
    for (size_t i = 0; i < n; ++i) {
      ThreadSet sub;
      int w = State::witnessed(r.parts[i], ct, l1, sub);
      if (!w)
        continue;
      if (w == 2)
        State::split(r, i, sub);
      Part &p = r.parts[i];
      if (frees) {
        // The ring slot is released: nothing is left of the record.
        p.s = VisSet();
        p.own = Masks();
        p.pending.clear();
        p.atomic_all = 0;
        p.freed = true;
        changed = true;
        continue;
      }
      for (uint64_t b : bars) {
        auto it = std::lower_bound(p.pending.begin(), p.pending.end(), std::make_pair(b, INT64_MIN));
        if (it != p.pending.end() && it->first == b)
          continue; // keep the older (smaller) count
        p.pending.insert(it, {b, k});
        S.add_waiter(b, id);
        changed = true;
      }
    }
    if (changed || r.parts.size() != n) {
      S.normalize(r);
      S.update_max(r);
    }
  });
}

void FastEngine::await(const Ctx &c, uint64_t bar, int64_t kmax, const SyncTl &l2) {
  State &S = *st_;
  auto wit = S.waiters.find(bar);
  if (wit == S.waiters.end())
    return;
  const Masks m = augment_masks(l2);
  const ThreadSet &ct = *c.threads;
  std::vector<Ref> &w = wit->second;
  size_t keep = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    if (!S.valid(w[i]))
      continue;
    w[keep++] = w[i];
    Record &r = S.recs[w[i].first];
    bool changed = false;
    for (Part &p : r.parts) {
      if (p.freed)
        continue;
      auto it = std::lower_bound(p.pending.begin(), p.pending.end(), std::make_pair(bar, INT64_MIN));
      if (it == p.pending.end() || it->first != bar || it->second > kmax)
        continue;
      if (p.s.add(ct, m)) {
        p.before_alloc = false;
        changed = true;
      }
    }
    if (changed) {
      S.normalize(r);
      S.update_max(r);
      S.reactivate(w[i].first);
    }
  }
  w.resize(keep);
}

void FastEngine::join(const Ctx &c) {
  State &S = *st_;
  const ThreadSet &ct = *c.threads;
  S.scan(ct, [&](uint32_t, Record &r) {
    bool changed = false;
    const size_t n = r.parts.size();
    auto add = [&](size_t i, const Masks &m) {
      if (m.any() && r.parts[i].s.add(ct, m)) {
        r.parts[i].before_alloc = false;
        changed = true;
      }
    };
    for (size_t i = 0; i < n; ++i) {
      if (r.parts[i].freed)
        continue;
      // Each record gets what any thread of c holds in it; a member inside c
      // also holds its own triples.
      const Masks h = r.parts[i].s.held(ct);
      if (r.parts[i].family() && r.parts[i].own.any()) {
        ThreadSet sub = r.parts[i].members.intersect(ct);
        if (!sub.empty()) {
          if (sub != r.parts[i].members) {
            State::split(r, i, sub);
            add(r.parts.size() - 1, h);
          }
          Masks hm = h;
          hm |= r.parts[i].own;
          add(i, hm);
          continue;
        }
      }
      add(i, h);
    }
    if (changed || r.parts.size() != n) {
      S.normalize(r);
      S.update_max(r);
    }
  });
}

void FastEngine::barriers_freed(uint64_t lo, uint64_t hi) {
  State &S = *st_;
  for (uint64_t b = lo; b < hi; ++b) {
    auto it = S.waiters.find(b);
    if (it == S.waiters.end())
      continue;
    for (const Ref &ref : it->second) {
      if (!S.valid(ref))
        continue;
      Record &r = S.recs[ref.first];
      for (Part &p : r.parts) {
        auto pit = std::lower_bound(p.pending.begin(), p.pending.end(), std::make_pair(b, INT64_MIN));
        if (pit != p.pending.end() && pit->first == b)
          p.pending.erase(pit);
      }
      S.normalize(r);
    }
    S.waiters.erase(it);
  }
}

bool FastEngine::free(int tensor, const Ctx &c, bool has_check, QualMask check) {
  State &S = *st_;
  if (S.regions.size() <= static_cast<size_t>(tensor))
    S.regions.resize(tensor + 1);
  std::vector<Region> &regs = S.regions[tensor];
  const TensorInfo &t = (*tensors_)[tensor];
  const bool ring = t.ring_dim >= 0;
  if (ring || has_check) {
    int64_t best_lin = -1;
    uint32_t best_ar = 0;
    for (const Region &rg : regs) {
      State::Failure f;
      if (!S.check_free_ar(rg.ar, *c.threads, ring, check, f))
        continue;
      int64_t lin = t.linear(rg.box.lo);
      if (best_lin < 0 || lin < best_lin) {
        best_lin = lin;
        best_ar = rg.ar;
      }
    }
    if (best_lin >= 0) {
      State::Failure f;
      S.check_free_ar(best_ar, *c.threads, ring, check, f);
      hazard_ = Hazard();
      hazard_.kind = ring ? HazardKind::FreeWithoutArrive : HazardKind::FreeWithoutSync;
      hazard_.tensor_id = tensor;
      hazard_.linear = best_lin;
      hazard_.has_prior = true;
      hazard_.prior = f.rec->origin;
      hazard_.prior_thread = f.best.tid;
      hazard_.missing_threads = f.missing;
      hazard_.need_flag = ring ? 0 : Temp;
      hazard_.need_quals = ring ? 0 : check;
      hazard_.prior_quals = f.rec->own_quals;
      return false;
    }
  }
  for (const Region &rg : regs)
    S.unref_ar(rg.ar);
  S.live_regions -= regs.size();
  regs.clear();
  regs.shrink_to_fit();
  return true;
}

} // namespace exgc::sync
