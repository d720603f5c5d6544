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

/// One access, in three steps: the regions it touches; the check of their
/// histories (a hazard names the lowest failing element); then the new
/// histories: each touched part of a region gets a new assignment record
/// with the access's entry added, made once per old one.
class FastEngine::Access {
public:
  Access(FastEngine &engine, const AccessEvent &e)
      : eng_(engine), S(*engine.st_), e_(e), t_((*engine.tensors_)[e.tensor]),
        store_(S.store(e.tensor, t_)), hits_(S.hits), m_(new_record_masks(e)) {}

  bool run() {
    find_touched();
    if (!check())
      return false;
    for (auto &bk : e_.trailing) {
      PendingEntry *it = find_pending(pend_, bk.first);
      if (it == pend_.end() || it->bar != bk.first)
        pend_.insert(it, {bk.first, bk.second});
    }
    S.rec_by_foa.clear();
    S.ar_map.clear();
    if (!rewrite_in_place())
      rebuild_regions();
    if (origin_ != kNoOrigin)
      S.drop_if_unused(origin_);
    return true;
  }

private:
  static constexpr uint32_t kNoOrigin = ~uint32_t(0);

  void find_touched();
  bool check();
  void report(uint32_t ar, int64_t lin);
  uint32_t record_for(int64_t foa);
  bool equal_fresh_record(const Part &p, int64_t foa, uint32_t &id) const;
  void add_entry(SmallVec<Entry, 4> &list, uint32_t rid);
  uint32_t new_of(uint32_t old);
  bool rewrite_in_place();
  void rebuild_regions();

  FastEngine &eng_;
  State &S;
  const AccessEvent &e_;
  const TensorInfo &t_;
  RegionStore &store_;
  std::vector<RegionRef> &hits_;
  const Masks m_;
  Pending pend_; // the access's trailing awaits, sorted by barrier
  // The access's origin, made when an entry first takes it (a thread
  // reading an element again adds no entry).
  uint32_t origin_ = kNoOrigin;
};

void FastEngine::Access::find_touched() {
  hits_.clear();
  RegionRef exact;
  if (e_.boxes.size() == 1 && store_.find_exact(e_.boxes[0], exact))
    hits_.push_back(exact);
  else
    for (const Box &b : e_.boxes)
      eng_.tick(store_.query(b, [&](RegionRef r) { hits_.push_back(r); }));
  if (e_.boxes.size() > 1) {
    std::sort(hits_.begin(), hits_.end());
    hits_.erase(std::unique(hits_.begin(), hits_.end()), hits_.end());
  }
}

/// Once per distinct assignment record; the failing element is the lowest
/// C-order index of a failing region's overlap with the access.
bool FastEngine::Access::check() {
  std::vector<std::pair<uint32_t, bool>> &memo = S.memo;
  memo.clear();
  int64_t best_lin = -1;
  uint32_t best_ar = 0;
  for (const RegionRef &i : hits_) {
    eng_.tick();
    const Region &rg = store_.at(i);
    uint32_t a = rg.ar;
    bool fails = false, known = false;
    for (auto &m : memo)
      if (m.first == a) {
        fails = m.second;
        known = true;
      }
    if (!known) {
      State::Failure f;
      fails = S.check_ar(a, e_, f);
      memo.push_back({a, fails});
    }
    if (!fails)
      continue;
    for (const Box &b : e_.boxes) {
      if (!overlaps(rg.box, b))
        continue;
      int64_t lin = t_.linear(intersect(rg.box, b).lo);
      if (best_lin < 0 || lin < best_lin) {
        best_lin = lin;
        best_ar = a;
      }
    }
  }
  if (best_lin < 0)
    return true;
  report(best_ar, best_lin);
  return false;
}

/// The hazard at element `lin`, whose assignment record `ar` fails.
void FastEngine::Access::report(uint32_t ar, int64_t lin) {
  State::Failure f;
  const Idx at = element(t_, lin);
  S.check_ar(ar, e_, f, &at);
  Hazard &h = eng_.hazard_;
  h = Hazard();
  h.kind = hazard_kind(f.part->freed, f.part->before_alloc, f.from_mutates, e_.mutate);
  h.tensor_id = e_.tensor;
  h.linear = lin;
  h.has_prior = true;
  h.prior = f.rec.origin;
  h.prior_thread = f.best.tid;
  h.missing_threads = f.missing;
  h.need_flag = f.from_mutates ? need_on_mutates(e_) : kNeedOnReads;
  h.need_quals = e_.ext;
  h.prior_quals = f.rec.own_quals;
}

/// The access's record for ring slots freed on arrive `foa`: one per
/// distinct barrier, shared with an equal record made since the last sync op.
uint32_t FastEngine::Access::record_for(int64_t foa) {
  for (auto &rf : S.rec_by_foa)
    if (rf.first == foa)
      return rf.second;
  const ThreadSet &c = *e_.ctx.threads;
  const State::FreshKey key{e_.ctx.threads.get(), m_, e_.conv, e_.atomic, foa};
  uint32_t known;
  if (pend_.empty() && S.find_fresh(key, known)) {
    S.rec_by_foa.push_back({foa, known});
    return known;
  }
  Part p;
  if (e_.conv) {
    p.s.add(c, m_);
  } else {
    p.members = c;
    p.own = m_;
  }
  p.atomic_all = e_.atomic;
  p.pending = pend_;
  if (equal_fresh_record(p, foa, known)) {
    S.rec_by_foa.push_back({foa, known});
    if (pend_.empty())
      S.remember_fresh_key(key, e_.ctx.threads, known);
    return known;
  }
  uint32_t id = S.new_record();
  Record &r = S.recs[id];
  r.parts.push_back(std::move(p));
  r.foa = foa;
  S.update_max(r);
  for (const PendingEntry &bk : pend_)
    S.add_waiter(bk.bar, id);
  S.rec_by_foa.push_back({foa, id});
  S.remember_fresh(id);
  if (pend_.empty())
    S.remember_fresh_key(key, e_.ctx.threads, id);
  return id;
}

/// Hash-consing: an equal content made since the last sync op is still
/// unchanged, so it can be shared.
bool FastEngine::Access::equal_fresh_record(const Part &p, int64_t foa, uint32_t &id) const {
  for (size_t i = 0; i < S.fresh.size(); ++i) {
    const uint32_t f = S.fresh[(S.fresh_last + S.fresh.size() - i) % S.fresh.size()];
    const Record &fr = S.recs[f];
    if (fr.list != 0 && fr.foa == foa && fr.parts.size() == 1 && fr.parts[0].members == p.members &&
        fr.parts[0].same_but_members(p)) {
      id = f;
      return true;
    }
  }
  return false;
}

/// An entry sharing an earlier entry's record fails exactly when that one
/// does (one content) and loses to it as the culprit (a later access), so a
/// thread reading an element again adds nothing.
void FastEngine::Access::add_entry(SmallVec<Entry, 4> &list, uint32_t rid) {
  if (std::any_of(list.begin(), list.end(), [&](const Entry &en) { return en.rec == rid; }))
    return;
  if (origin_ == kNoOrigin)
    origin_ = S.new_origin(Origin{e_.ctx.seq, e_.ctx.stmt, e_.ctx.threads}, bit(e_.initial));
  list.push_back({rid, origin_});
  ++S.recs[rid].refs;
  ++S.origins[origin_].refs;
}

/// The assignment record that replaces `old` where the access touches it
/// (0: an element with no history), made once per old one: a write keeps
/// no reads (and no writes unless atomic), a read keeps both.
uint32_t FastEngine::Access::new_of(uint32_t old) {
  for (auto &p : S.ar_map) // old -> new
    if (p.first == old)
      return p.second;
  const int64_t foa = S.ars[old].foa;
  uint32_t rid = record_for(foa);
  uint32_t n = S.new_ar();
  AR &na = S.ars[n];
  const AR &oa = S.ars[old];
  na.foa = foa;
  if (e_.mutate) {
    if (e_.atomic)
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
  add_entry(e_.mutate ? na.mutates : na.reads, rid);
  S.ar_map.push_back({old, n});
  return n;
}

/// Fast path: the access is exactly one existing region (a register tile
/// rewritten, a slot read again, a barrier word): swap its record in place.
bool FastEngine::Access::rewrite_in_place() {
  if (!(e_.boxes.size() == 1 && hits_.size() == 1 && store_.at(hits_[0]).box.lo == e_.boxes[0].lo &&
        store_.at(hits_[0]).box.hi == e_.boxes[0].hi))
    return false;
  Region &rg = store_.at(hits_[0]);
  uint32_t old = rg.ar;
  if (old != 0 && S.ars[old].refs == 1) {
    // The region alone holds its assignment record: change it in place
    // rather than copying its lists (a tile read by many threads).
    const uint32_t rid = record_for(S.ars[old].foa);
    ++S.recs[rid].refs; // kept alive while the old entries go
    if (e_.mutate) {
      S.release(S.ars[old].reads);
      if (!e_.atomic)
        S.release(S.ars[old].mutates);
    }
    add_entry(e_.mutate ? S.ars[old].mutates : S.ars[old].reads, rid);
    S.unref_record(rid);
    return true;
  }
  uint32_t n = new_of(old);
  ++S.ars[n].refs;
  rg.ar = n;
  S.unref_ar(old);
  return true;
}

/// The general case: per box, the pieces of touched regions inside it (one
/// region when they all agree), then what the touched regions keep outside
/// the access; the touched regions are replaced by those.
void FastEngine::Access::rebuild_regions() {
  std::vector<Region> &out = S.out;
  out.clear();
  for (const Box &b : e_.boxes) {
    auto &inside = S.inside;
    auto &uncovered = S.uncovered;
    inside.clear();
    uncovered.clear();
    uncovered.push_back(b);
    for (const RegionRef &i : hits_) {
      const Region &rg = store_.at(i);
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
  for (const RegionRef &i : hits_) {
    const Region &rg = store_.at(i);
    auto &rest = S.rest;
    rest.clear();
    rest.push_back(rg.box);
    for (const Box &b : e_.boxes) {
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
  if (e_.boxes.size() == 1)
    std::sort(hits_.begin(), hits_.end());
  for (const RegionRef &i : hits_)
    S.unref_ar(store_.at(i).ar);
  store_.remove(hits_);
  S.live_regions -= hits_.size();
  for (Region &r : out) {
    store_.add(std::move(r));
    ++S.live_regions;
  }
  // ARs made for this access but not used by any region (none today) and the
  // creation references of new records are settled here.
  for (auto &p : S.ar_map)
    if (S.ars[p.second].refs == 0) {
      ++S.ars[p.second].refs;
      S.unref_ar(p.second);
    }
  S.stats.max_regions = std::max(S.stats.max_regions, S.live_regions);
}

bool FastEngine::access(const AccessEvent &e) { return Access(*this, e).run(); }

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
