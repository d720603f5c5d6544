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

#include "compiler/sync/fast_state.h"

namespace exgc::sync {


namespace {
Idx element(const TensorInfo &t, int64_t lin) {
  const std::vector<int64_t> v = t.unlinear(lin);
  Idx at;
  at.assign(v.data(), v.data() + v.size());
  return at;
}
} // namespace

FastEngine::FastEngine() : st_(std::make_unique<State>()) {}
FastEngine::~FastEngine() = default;
const FastEngineStats &FastEngine::stats() const { return st_->stats; }

void FastEngine::alloc(int tensor, const Ctx &c) {
  State &S = *st_;
  const TensorInfo &t = (*tensors_)[tensor];
  RegionStore &store = S.store(tensor, t);
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
      std::sort(p.pending.begin(), p.pending.end(),
                [](const PendingEntry &a, const PendingEntry &b) { return a.bar < b.bar; });
      r.parts.push_back(std::move(p));
      r.foa = slot.free_on_arrive;
      r.refs = 1;
      S.update_max(r);
      for (uint64_t b : slot.alloc_on_await)
        S.add_waiter(b, id);
      uint32_t o = S.new_origin(Origin{c.seq, c.stmt, c.threads}, 0);
      S.origins[o].refs = 1;
      S.ars[a].mutates.push_back({id, o});
    }
    S.ars[a].refs = 1;
    store.add({slot.box, a});
    ++S.live_regions;
  }
  S.stats.max_regions = std::max(S.stats.max_regions, S.live_regions);
}

bool FastEngine::access(const AccessEvent &e) {
  State &S = *st_;
  const TensorInfo &t = (*tensors_)[e.tensor];
  RegionStore &store = S.store(e.tensor, t);

  // 1. Regions the access touches.
  std::vector<RegionRef> &hits = S.hits;
  hits.clear();
  RegionRef exact;
  if (e.boxes.size() == 1 && store.find_exact(e.boxes[0], exact))
    hits.push_back(exact);
  else
    for (const Box &b : e.boxes)
      tick(store.query(b, [&](RegionRef r) { hits.push_back(r); }));
  if (e.boxes.size() > 1) {
    std::sort(hits.begin(), hits.end());
    hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
  }

  // 2. Check, once per distinct assignment record; the failing element is the
  // lowest C-order index of a failing region's overlap with the access.
  {
    std::vector<std::pair<uint32_t, bool>> &memo = S.memo;
    memo.clear();
    int64_t best_lin = -1;
    uint32_t best_ar = 0;
    for (const RegionRef &i : hits) {
      tick();
      const Region &rg = store.at(i);
      uint32_t a = rg.ar;
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
        if (!overlaps(rg.box, b))
          continue;
        int64_t lin = t.linear(intersect(rg.box, b).lo);
        if (best_lin < 0 || lin < best_lin) {
          best_lin = lin;
          best_ar = a;
        }
      }
    }
    if (best_lin >= 0) {
      State::Failure f;
      const Idx at = element(t, best_lin);
      S.check_ar(best_ar, e, f, &at);
      hazard_ = Hazard();
      hazard_.kind = hazard_kind(f.part->freed, f.part->before_alloc, f.from_mutates, e.mutate);
      hazard_.tensor_id = e.tensor;
      hazard_.linear = best_lin;
      hazard_.has_prior = true;
      hazard_.prior = f.rec.origin;
      hazard_.prior_thread = f.best.tid;
      hazard_.missing_threads = f.missing;
      hazard_.need_flag = f.from_mutates ? need_on_mutates(e) : kNeedOnReads;
      hazard_.need_quals = e.ext;
      hazard_.prior_quals = f.rec.own_quals;
      return false;
    }
  }

  // 3. Record. One record per distinct free-on-arrive barrier (ring slots).
  const ThreadSet &c = *e.ctx.threads;
  const ThreadSet *const c_ptr = e.ctx.threads.get();
  const Masks m = new_record_masks(e);
  Pending pend;
  for (auto &bk : e.trailing) {
    PendingEntry *it = find_pending(pend, bk.first);
    if (it == pend.end() || it->bar != bk.first)
      pend.insert(it, {bk.first, bk.second});
  }
  // The access's origin, made when an entry first takes it (a thread
  // reading an element again adds no entry).
  constexpr uint32_t kNoOrigin = ~uint32_t(0);
  uint32_t origin = kNoOrigin;
  auto drop_unused_origin = [&] {
    if (origin != kNoOrigin)
      S.drop_if_unused(origin);
  };
  std::vector<std::pair<int64_t, uint32_t>> &rec_by_foa = S.rec_by_foa;
  rec_by_foa.clear();
  auto record_for = [&](int64_t foa) {
    for (auto &rf : rec_by_foa)
      if (rf.first == foa)
        return rf.second;
    const State::FreshKey key{c_ptr, m, e.conv, e.atomic, foa};
    uint32_t known;
    if (pend.empty() && S.find_fresh(key, known)) {
      rec_by_foa.push_back({foa, known});
      return known;
    }
    Part p;
    if (e.conv) {
      p.s.add(c, m);
    } else {
      p.members = c;
      p.own = m;
    }
    p.atomic_all = e.atomic;
    p.pending = pend;
    // Hash-consing: an equal content made since the last sync op is still
    // unchanged, so it can be shared.
    for (size_t i = 0; i < S.fresh.size(); ++i) {
      const uint32_t f = S.fresh[(S.fresh_last + S.fresh.size() - i) % S.fresh.size()];
      const Record &fr = S.recs[f];
      if (fr.list != 0 && fr.foa == foa && fr.parts.size() == 1 && fr.parts[0].members == p.members &&
          fr.parts[0].same_but_members(p)) {
        rec_by_foa.push_back({foa, f});
        if (pend.empty())
          S.remember_fresh_key(key, e.ctx.threads, f);
        return f;
      }
    }
    uint32_t id = S.new_record();
    Record &r = S.recs[id];
    r.parts.push_back(std::move(p));
    r.foa = foa;
    S.update_max(r);
    for (const PendingEntry &bk : pend)
      S.add_waiter(bk.bar, id);
    rec_by_foa.push_back({foa, id});
    S.remember_fresh(id);
    if (pend.empty())
      S.remember_fresh_key(key, e.ctx.threads, id);
    return id;
  };
  // An entry sharing an earlier entry's record fails exactly when that one
  // does (one content) and loses to it as the culprit (a later access), so
  // a thread reading an element again adds nothing.
  auto add_entry = [&](SmallVec<Entry, 4> &list, uint32_t rid) {
    if (std::any_of(list.begin(), list.end(), [&](const Entry &en) { return en.rec == rid; }))
      return;
    if (origin == kNoOrigin)
      origin = S.new_origin(Origin{e.ctx.seq, e.ctx.stmt, e.ctx.threads}, bit(e.initial));
    list.push_back({rid, origin});
    ++S.recs[rid].refs;
    ++S.origins[origin].refs;
  };
  std::vector<std::pair<uint32_t, uint32_t>> &ar_map = S.ar_map; // old -> new
  ar_map.clear();
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
    for (const Entry &en : na.mutates) {
      ++S.recs[en.rec].refs;
      ++S.origins[en.origin].refs;
    }
    for (const Entry &en : na.reads) {
      ++S.recs[en.rec].refs;
      ++S.origins[en.origin].refs;
    }
    add_entry(e.mutate ? na.mutates : na.reads, rid);
    ar_map.push_back({old, n});
    return n;
  };

  // Fast path: the access is exactly one existing region (a register tile
  // rewritten, a slot read again, a barrier word): swap its record in place.
  if (e.boxes.size() == 1 && hits.size() == 1 && store.at(hits[0]).box.lo == e.boxes[0].lo &&
      store.at(hits[0]).box.hi == e.boxes[0].hi) {
    Region &rg = store.at(hits[0]);
    uint32_t old = rg.ar;
    if (old != 0 && S.ars[old].refs == 1) {
      // The region alone holds its assignment record: change it in place
      // rather than copying its lists (a tile read by many threads).
      const uint32_t rid = record_for(S.ars[old].foa);
      ++S.recs[rid].refs; // kept alive while the old entries go
      if (e.mutate) {
        S.release(S.ars[old].reads);
        if (!e.atomic)
          S.release(S.ars[old].mutates);
      }
      add_entry(e.mutate ? S.ars[old].mutates : S.ars[old].reads, rid);
      S.unref_record(rid);
      drop_unused_origin();
      return true;
    }
    uint32_t n = new_of(old);
    ++S.ars[n].refs;
    rg.ar = n;
    S.unref_ar(old);
    drop_unused_origin();
    return true;
  }
  std::vector<Region> &out = S.out;
  out.clear();
  // Per box: the pieces inside it, then one region when they all agree.
  for (const Box &b : e.boxes) {
    auto &inside = S.inside;
    auto &uncovered = S.uncovered;
    inside.clear();
    uncovered.clear();
    uncovered.push_back(b);
    for (const RegionRef &i : hits) {
      const Region &rg = store.at(i);
      if (!overlaps(rg.box, b))
        continue;
      inside.push_back({intersect(rg.box, b), new_of(rg.ar)});
      auto &next = S.next;
      next.clear();
      for (const Box &u : uncovered)
        subtract(u, rg.box, next);
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
  for (const RegionRef &i : hits) {
    const Region &rg = store.at(i);
    auto &rest = S.rest;
    rest.clear();
    rest.push_back(rg.box);
    for (const Box &b : e.boxes) {
      auto &next = S.next;
      next.clear();
      for (const Box &u : rest)
        subtract(u, b, next);
      rest.swap(next);
    }
    for (Box &u : rest) {
      ++S.ars[rg.ar].refs;
      out.push_back({std::move(u), rg.ar});
    }
  }
  // Drop the touched regions (highest index first keeps the others valid).
  if (e.boxes.size() == 1)
    std::sort(hits.begin(), hits.end());
  for (const RegionRef &i : hits)
    S.unref_ar(store.at(i).ar);
  store.remove(hits);
  S.live_regions -= hits.size();
  for (Region &r : out) {
    store.add(std::move(r));
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
  drop_unused_origin();
  return true;
}

void FastEngine::fence(const Ctx &c, QualMask l1, const SyncTl &l2) {
  State &S = *st_;
  const Masks m = augment_masks(l2);
  const ThreadSet &ct = *c.threads;
  S.prune_signatures();
  State::SigEntry &sig = S.signature('f', c.threads, l1, l2, nullptr);
  S.scan(ct, l1, sig, sig.id, [&](uint32_t id, Record &r) {
    tick();
    bool changed = false, all = true;
    const size_t n = r.parts.size();
    for (size_t i = 0; i < n; ++i) {
      ThreadSet sub;
      int w = State::witnessed(r.parts[i], ct, l1, sub);
      all = all && (w == 1 || r.parts[i].freed);
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
      S.changed(id);
    }
    return all ? State::Seen::Saturated : State::Seen::Noop;
  });
}

void FastEngine::arrive(const Ctx &c, QualMask l1, const std::vector<uint64_t> &bars,
                        int64_t k) {
  if (!l1)
    return;
  State &S = *st_;
  const ThreadSet &ct = *c.threads;
  SmallVec<State::Waiters *, 4> ws;
  for (uint64_t b : bars)
    ws.push_back(&S.waiters[b]);
  S.prune_signatures();
  State::SigEntry &keyed = S.signature('a', c.threads, l1, SyncTl(), nullptr);
  const uint32_t stream = keyed.id;
  const uint32_t sig = S.signature('a', c.threads, l1, SyncTl(), &bars).id;
  const uint64_t t = S.streams.begin_arrive(stream);
  S.scan(ct, l1, keyed, sig, [&](uint32_t id, Record &r) {
    if (r.subscribed(stream))
      return State::Seen::Saturated;
    tick();
    // Seen in full (and no ring slot's, which an Arrive may free instead):
    // this and every later Arrive of the stream take it into their tokens.
    if (r.foa < 0 && State::seen_in_full(r, ct, l1)) {
      S.watch_change(id);
      r.subs.push_back({stream, t});
      S.streams.subscribe(stream, t, {id, r.gen});
      return State::Seen::Saturated;
    }
    const bool frees =
        r.foa >= 0 && std::binary_search(bars.begin(), bars.end(), uint64_t(r.foa));
    bool changed = false, any = false;
    const size_t n = r.parts.size();
    for (size_t i = 0; i < n; ++i) {
      ThreadSet sub;
      int w = State::witnessed(r.parts[i], ct, l1, sub);
      if (!w)
        continue;
      any = true;
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
      for (size_t bi = 0; bi < bars.size(); ++bi) {
        const uint64_t b = bars[bi];
        PendingEntry *it = find_pending(p.pending, b);
        if (it != p.pending.end() && it->bar == b)
          continue; // keep the older (smaller) count
        S.watch_change(id);
        p.pending.insert(it, {b, k});
        S.add_waiter(*ws[bi], id);
      }
    }
    // New pending entries alone change neither max_tid nor the witnessable
    // quals, and a part split off here stays split until something else
    // makes it equal to its sibling.
    if (changed || r.parts.size() != n) {
      S.normalize(r);
      S.update_max(r);
    }
    // New pending entries change no Fence's or join's effect, and repeating
    // this Arrive's (same barriers) is a no-op; only frees invalidate.
    if (changed)
      S.changed(id);
    // Seen in part: the stream's next Arrive adds its elements here again.
    return any ? State::Seen::Again : State::Seen::Noop;
  });
  S.streams.end_arrive(stream, t, bars, k);
}

void FastEngine::await(const Ctx &c, uint64_t bar, int64_t kmax, const SyncTl &l2) {
  State &S = *st_;
  S.forget_fresh();
  const Masks m = augment_masks(l2);
  const ThreadSet &ct = *c.threads;
  ++S.stats.awaits;
  auto augment = [&](uint32_t id, Record &r, bool subscriber) {
    bool changed = false, all = true;
    for (Part &p : r.parts) {
      if (p.freed)
        continue;
      // A subscriber's every part has the implicit entry due now.
      if (!subscriber) {
        PendingEntry *it = find_pending(p.pending, bar);
        if (it == p.pending.end() || it->bar != bar)
          continue;
        if (it->count > kmax) {
          all = false;
          continue;
        }
      }
      if (p.s.add(ct, m)) {
        p.before_alloc = false;
        changed = true;
      }
    }
    if (changed) {
      S.normalize(r);
      S.update_max(r);
      S.changed(id);
    }
    return all;
  };
  S.streams.due(bar, kmax, c.threads, l2, [&](const Ref &ref) {
    ++S.stats.subscribers_visited;
    if (S.valid(ref))
      augment(ref.first, S.recs[ref.first], true);
  });
  auto wit = S.waiters.find(bar);
  if (wit == S.waiters.end())
    return;
  State::Waiters &w = wit->second;
  // Entries before `done` were augmented by this same Await already.
  size_t from = (w.sig == c.threads.get() && w.sig_l2 == l2) ? w.done : 0;
  size_t keep = from, done = from;
  bool prefix = true;
  for (size_t i = from; i < w.list.size(); ++i) {
    ++S.stats.waiters_visited;
    if (!S.valid(w.list[i]))
      continue;
    w.list[keep++] = w.list[i];
    prefix = augment(w.list[i].first, S.recs[w.list[i].first], false) && prefix;
    if (prefix)
      done = keep;
  }
  w.list.resize(keep);
  w.sig = c.threads.get();
  w.sig_l2 = l2;
  w.done = done;
}

void FastEngine::join(const Ctx &c) {
  State &S = *st_;
  const ThreadSet &ct = *c.threads;
  S.prune_signatures();
  State::SigEntry &sig = S.signature('j', c.threads, 0, SyncTl(), nullptr);
  S.scan(ct, ~QualMask(0), sig, sig.id, [&](uint32_t id, Record &r) {
    tick();
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
      S.changed(id);
    }
    return State::Seen::Noop; // what join adds depends on the record: never saturated
  });
}

void FastEngine::barriers_freed(uint64_t lo, uint64_t hi) {
  State &S = *st_;
  S.forget_fresh();
  // The records waiting on any freed barrier, each once: a record on the
  // waiter lists of many elements of a long array loses all their pending
  // entries in one erase of its sorted list (per barrier, that was cubic).
  std::vector<Ref> touched;
  for (uint64_t b = lo; b < hi; ++b) {
    tick();
    auto it = S.waiters.find(b);
    if (it == S.waiters.end())
      continue;
    for (const Ref &ref : it->second.list)
      if (S.valid(ref))
        touched.push_back(ref);
    S.waiters.erase(it);
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (const Ref &ref : touched) {
    tick();
    Record &r = S.recs[ref.first];
    for (Part &p : r.parts)
      p.pending.erase(find_pending(p.pending, lo), find_pending(p.pending, hi));
    S.normalize(r);
    S.changed(ref.first);
  }
  S.streams.forget_barriers(lo, hi);
}

bool FastEngine::free(int tensor, const Ctx &c, bool has_check, QualMask check) {
  State &S = *st_;
  const TensorInfo &t = (*tensors_)[tensor];
  RegionStore &store = S.store(tensor, t);
  // A ring's slots must all have been freed by their Arrives; a checked free
  // needs every thread ordered after every access (a ring of data slots is
  // exempt: its Arrives free them; a barrier ring is not: see machine.h).
  auto fails = [&](bool ring) {
    int64_t best_lin = -1;
    uint32_t best_ar = 0;
    store.for_each([&](const Region &rg) {
      State::Failure f;
      if (!S.check_free_ar(rg.ar, *c.threads, ring, check, f))
        return;
      int64_t lin = t.linear(rg.box.lo);
      if (best_lin < 0 || lin < best_lin) {
        best_lin = lin;
        best_ar = rg.ar;
      }
    });
    if (best_lin < 0)
      return false;
    State::Failure f;
    const Idx at = element(t, best_lin);
    S.check_free_ar(best_ar, *c.threads, ring, check, f, &at);
    hazard_ = Hazard();
    hazard_.kind = ring ? HazardKind::FreeWithoutArrive : HazardKind::FreeWithoutSync;
    hazard_.tensor_id = tensor;
    hazard_.linear = best_lin;
    hazard_.has_prior = true;
    hazard_.prior = f.rec.origin;
    hazard_.prior_thread = f.best.tid;
    hazard_.missing_threads = f.missing;
    hazard_.need_flag = ring ? 0 : Temp;
    hazard_.need_quals = ring ? 0 : check;
    hazard_.prior_quals = f.rec.own_quals;
    return true;
  };
  const bool ring = t.ring_dim >= 0;
  if (ring && fails(true))
    return false;
  if (has_check && (!ring || t.is_barrier) && fails(false))
    return false;
  store.for_each([&](const Region &rg) { S.unref_ar(rg.ar); });
  S.live_regions -= store.size();
  store.clear();
  return true;
}

} // namespace exgc::sync
