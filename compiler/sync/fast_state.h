// fast_state.h - the fast engine's state (private to the fast engine) ----//
//
// Owns FastEngine::State: the record, assignment-record and origin pools, the
// region stores, the scan lists and the barrier waiter lists, with the
// helpers every engine operation shares. The small hot helpers and the scans
// are defined here; the bodies of the larger rules are in fast_state.cpp.
// fast_engine.cpp has the operations, fast_replay.cpp the task replay;
// fast_engine.h has the design.
#ifndef EXGC_SYNC_FAST_STATE_H
#define EXGC_SYNC_FAST_STATE_H

#include "compiler/sync/fast_engine.h"
#include "compiler/sync/fast_records.h"
#include "compiler/sync/region_store.h"
#include "compiler/sync/rules.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace exgc::sync {

using namespace fast_detail;

struct FastEngine::State {
  std::vector<Record> recs;
  std::vector<uint32_t> rec_free;
  std::vector<AR> ars;
  std::vector<uint32_t> ar_free;
  std::vector<RegionStore> regions; // by tensor id
  std::vector<char> region_init;
  std::vector<Ref> active;
  // Retired records by their largest thread, largest first: a collective
  // starting at thread t brings back exactly those with max_tid >= t.
  std::priority_queue<std::pair<uint64_t, Ref>> retired;
  // Live records by Record::reach, largest first. An entry is current while
  // its record is alive and still has that reach; every change of a reach
  // pushes a new entry, so the first current entry holds the largest reach.
  std::priority_queue<std::pair<int64_t, Ref>> by_reach;
  struct Waiters {
    std::vector<Ref> list;
    // list[0, done) were all augmented by an Await of threads `sig` with `sig_l2`;
    // augment is idempotent, so the same Await skips them.
    const ThreadSet *sig = nullptr;
    SyncTl sig_l2;
    size_t done = 0;
  };
  std::unordered_map<uint64_t, Waiters> waiters;
  // Pending entries of records an arrive stream saw in full (arrive_streams.h).
  ArriveStreams streams;
  // The change log: a record's reference each time it is made or changes in
  // a way that may change what a sync op does to it (each vis_version step).
  // A scan that ran before reads only what changed since (see scan()).
  std::vector<Ref> changes;
  uint64_t changes_base = 0; // log position of changes[0]
  struct ScanState {
    bool ran = false;
    uint64_t pos = 0;       // log position after its last run
    std::vector<Ref> again; // records its last run must see again unchanged
  };
  uint32_t scan_stamp = 0;
  std::vector<Ref> again_prev; // a scan's previous Again list (buffers rotate)
  std::vector<OriginRec> origins;
  std::vector<uint32_t> origin_free;
  // Contents made since the last sync op, the 16 latest: a thread loop's
  // threads each make a few, and the current thread's are the ones reused.
  std::vector<uint32_t> fresh;
  size_t fresh_last = 0; // index of the latest in `fresh`
  // What a fresh record was made from, for accesses without trailing
  // barriers: equal keys build equal contents (the collective is interned,
  // so its pointer names it), so the next access of a thread's run of
  // scalar accesses finds its record without building and comparing one.
  struct FreshKey {
    const ThreadSet *threads;
    Masks m;
    bool conv;
    QualMask atomic;
    int64_t foa;
    bool operator==(const FreshKey &o) const {
      return threads == o.threads && m == o.m && conv == o.conv && atomic == o.atomic &&
             foa == o.foa;
    }
  };
  struct FreshEntry {
    FreshKey key;
    Ref rec;
    ThreadSetP keep; // keeps key.threads from naming another set later
  };
  std::vector<FreshEntry> fresh_keys; // the 4 latest
  size_t fresh_keys_next = 0;
  // Scratch buffers of access(), kept to avoid allocating per event.
  std::vector<RegionRef> hits;
  std::vector<std::pair<uint32_t, bool>> memo;
  std::vector<std::pair<int64_t, uint32_t>> rec_by_foa;
  std::vector<std::pair<uint32_t, uint32_t>> ar_map;
  std::vector<Region> out;
  std::vector<std::pair<Box, uint32_t>> inside;
  std::vector<Box> uncovered, next, rest;
  FastEngineStats stats;
  uint64_t live_records = 0, live_regions = 0;
  // Loop replay (loop_replay.h): records made before `watch_from` (a
  // serial) are old while an iteration is watched; `changed_old` lists those
  // that changed since (with repeats; `too_many` when it gave up); entries
  // whose event is after `iteration_seq` are the iteration's.
  uint64_t serial = 0, watch_from = UINT64_MAX, iteration_seq = 0;
  std::vector<Ref> changed_old;
  bool too_many = false;
  void watch_change(uint32_t id) {
    if (recs[id].born >= watch_from)
      return;
    if (changed_old.size() < (size_t(1) << 20))
      changed_old.push_back({id, recs[id].gen});
    else
      too_many = true;
  }

  RegionStore &store(int tensor, const TensorInfo &t) {
    if (regions.size() <= static_cast<size_t>(tensor)) {
      regions.resize(tensor + 1);
      region_init.resize(tensor + 1, 0);
    }
    if (!region_init[tensor]) {
      regions[tensor].init(t);
      region_init[tensor] = 1;
    }
    return regions[tensor];
  }

  State() {
    ars.emplace_back(); // id 0: the empty record, never released
    ars[0].refs = 1;
  }

  // --- Pools.
  // A free slot of `pool` (the last released one), or a new one.
  template <typename T> static uint32_t take(std::vector<T> &pool, std::vector<uint32_t> &free) {
    if (free.empty()) {
      pool.emplace_back();
      return static_cast<uint32_t>(pool.size() - 1);
    }
    uint32_t id = free.back();
    free.pop_back();
    return id;
  }
  uint32_t new_record() {
    uint32_t id = take(recs, rec_free);
    Record &r = recs[id];
    ++r.gen;
    r.refs = 0;
    r.list = 1;
    r.reach = -1;
    for (uint32_t &s : r.sat_sig)
      s = 0;
    r.subs.clear();
    r.born = serial++;
    active.push_back({id, r.gen});
    ++r.vis_version;
    changes.push_back({id, r.gen}); // as changed(id), already active
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
    rec_free.push_back(id);
    --live_records;
  }
  uint32_t new_ar() {
    uint32_t id = take(ars, ar_free);
    ars[id].refs = 0;
    return id;
  }
  void unref_ar(uint32_t id) {
    if (id == 0)
      return;
    AR &a = ars[id];
    if (--a.refs)
      return;
    release(a.reads);
    release(a.mutates);
    ar_free.push_back(id);
  }
  // Drops the entries of `list` and their references.
  void release(SmallVec<Entry, 4> &list) {
    for (const Entry &en : list) {
      unref_record(en.rec);
      unref_origin(en.origin);
    }
    list.clear();
  }

  // Makes `box` one region with assignment record `ar` (its reference
  // already counted); overlapping regions keep what lies outside it.
  // Returns how many regions it examined (the work, for the meter).
  size_t put_region(int tensor, const TensorInfo &t, const Box &box, uint32_t ar);

  bool valid(const Ref &ref) const { return recs[ref.first].gen == ref.second; }

  // Record `id` changed what sync ops may do to it: scans see it again.
  void changed(uint32_t id) {
    watch_change(id);
    Record &r = recs[id];
    ++r.vis_version;
    changes.push_back({id, r.gen});
    reactivate(id);
  }
  // Some stream that `r` subscribed to arrived since on an element not yet
  // freed: `r` has a pending entry no part lists.
  bool implicit_pending(const Record &r) const {
    for (const Record::Sub &sub : r.subs)
      if (streams.pending_after(sub.stream, sub.t))
        return true;
    return false;
  }

  uint32_t new_origin(const Origin &o, QualMask own) {
    uint32_t id = take(origins, origin_free);
    origins[id].origin = o;
    origins[id].own_quals = own;
    origins[id].refs = 0;
    origins[id].deferred.reset();
    return id;
  }
  // An origin no entry took (every element already had its record).
  void drop_if_unused(uint32_t id) {
    if (origins[id].refs == 0) {
      origins[id].origin = Origin();
      origins[id].deferred.reset();
      origin_free.push_back(id);
    }
  }
  void unref_origin(uint32_t id) {
    --origins[id].refs;
    drop_if_unused(id);
  }

  void update_max(Record &r);

  void push_reach(const Record &r) {
    const uint32_t id = static_cast<uint32_t>(&r - recs.data());
    by_reach.push({r.reach, {id, r.gen}});
    if (by_reach.size() > 4 * live_records + 1024)
      compact_reach();
  }
  bool reach_current(const std::pair<int64_t, Ref> &e) const {
    return valid(e.second) && recs[e.second.first].reach == e.first;
  }
  // The largest reach of a live record, -1 when none; drops stale entries.
  int64_t max_reach() {
    while (!by_reach.empty() && !reach_current(by_reach.top()))
      by_reach.pop();
    return by_reach.empty() ? -1 : by_reach.top().first;
  }
  void compact_reach();

  // A sync op may change any record: nothing is fresh any more.
  void forget_fresh() {
    fresh.clear();
    fresh_keys.clear();
  }
  bool find_fresh(const FreshKey &k, uint32_t &id) const {
    for (const FreshEntry &fe : fresh_keys)
      if (fe.key == k && valid(fe.rec)) {
        id = fe.rec.first;
        return true;
      }
    return false;
  }
  void remember_fresh_key(const FreshKey &k, const ThreadSetP &threads, uint32_t id);
  void remember_fresh(uint32_t id);

  void add_waiter(Waiters &w, uint32_t id) {
    Ref ref{id, recs[id].gen};
    if (w.list.capacity() == 0)
      w.list.reserve(16); // a barrier gathers a few dozen waiters
    if (w.list.empty() || w.list.back() != ref || w.done == w.list.size())
      w.list.push_back(ref);
  }
  void add_waiter(uint64_t bar, uint32_t id) { add_waiter(waiters[bar], id); }

  // Merge parts that differ only in their members.
  void normalize(Record &r);

  // Members of part p a sync op by c with first sync-tl l1 sees: 0 none,
  // 1 all, 2 the subset `sub`.
  static int witnessed(const Part &p, const ThreadSet &c, QualMask l1, ThreadSet &sub);

  // Every part of `r` is seen in full by a sync op of c on l1 (none freed).
  static bool seen_in_full(const Record &r, const ThreadSet &c, QualMask l1) {
    ThreadSet sub;
    for (const Part &p : r.parts)
      if (p.freed || witnessed(p, c, l1, sub) != 1)
        return false;
    return !r.parts.empty();
  }

  // Splits parts[i] so that it holds exactly `sub`; the rest goes to the end.
  static void split(Record &r, size_t i, const ThreadSet &sub) {
    Part rest = r.parts[i];
    rest.members = r.parts[i].members.subtract(sub);
    r.parts[i].members = sub;
    r.parts.push_back(std::move(rest));
  }

  // Visits the records a sync op by `c` may see.
  // `l1`: quals a record must be witnessable on to matter (all for join).
  // Signatures of sync ops: equal signatures have equal effects on a record.
  struct SigKey {
    char kind;
    const ThreadSet *threads;
    QualMask l1, full, temp;
    SmallVec<uint64_t, 4> bars;
    bool operator==(const SigKey &o) const {
      return kind == o.kind && threads == o.threads && l1 == o.l1 && full == o.full &&
             temp == o.temp && bars == o.bars;
    }
  };
  struct SigHash {
    size_t operator()(const SigKey &k) const {
      size_t h = std::hash<const void *>()(k.threads) ^ (size_t(k.kind) << 56);
      h = h * 1099511628211ull ^ k.l1;
      h = h * 1099511628211ull ^ (uint64_t(k.full) << 32 | k.temp);
      for (uint64_t b : k.bars)
        h = h * 1099511628211ull ^ b;
      return h;
    }
  };
  // A signature's id (never reused) and the state of the scans keyed by it.
  struct SigEntry {
    uint32_t id = 0;
    ScanState scan;
  };
  // Signatures are a cache: forgetting them costs recomputation (and one
  // full scan per key). prune() is called before an op takes its
  // signatures, so that the entries it holds stay put while it runs.
  struct SigCache {
    std::unordered_map<SigKey, SigEntry, SigHash> map;
    std::vector<ThreadSetP> threads; // keeps pointers in `map` unique
    void prune() {
      if (map.size() > 4096) {
        map.clear();
        threads.clear();
      }
    }
  };
  // Scan keys (Fences, joins, arrive streams) apart from Arrives with their
  // barriers: a walk over a long array makes a new one of the latter per
  // element, which must not push the streams out (they would start again).
  SigCache sigs, arrive_sigs;
  uint32_t next_sig = 1;
  void prune_signatures() {
    sigs.prune();
    arrive_sigs.prune();
  }
  SigEntry &signature(char kind, const ThreadSetP &c, QualMask l1, const SyncTl &l2,
                      const std::vector<uint64_t> *bars);

  // What a sync op found on a record: nothing to do until the record changes
  // (Noop), nothing to do ever again (Saturated), or work it must redo on the
  // next op of its key even unchanged (Again: an Arrive that saw only some
  // parts adds pending entries for each new element).
  enum class Seen { Noop, Saturated, Again };

  // Visits the records a sync op by `c` may see and applies `fn` (returning
  // Seen). `key` names the ops whose Seen a record keeps (an Arrive's stream,
  // else `sig`); `sig` the op itself: equal signatures, equal effects.
  // The first op of a key visits every live record that some thread at or
  // after min(c) may see; later ones only the records logged as changed since
  // (plus its Again list), since an unchanged record gets the same Seen.
  static constexpr uint64_t kRetireSlack = 2048;
  template <typename Fn>
  void scan(const ThreadSet &c, QualMask l1, SigEntry &keyed, uint32_t sig, Fn fn) {
    forget_fresh();
    ++stats.scans;
    trim_changes();
    const uint32_t key = keyed.id;
    ScanState &ss = keyed.scan;
    const uint64_t end = changes_base + changes.size();
    std::vector<Ref> &again = again_prev;
    again.clear();
    again.swap(ss.again);
    auto visit = [&](const Ref ref, Record &r) {
      ++stats.visited;
      if (!(r.wq & l1) || r.known_noop(key))
        return;
      if (key != sig && r.known_noop(sig)) {
        ss.again.push_back(ref);
        return;
      }
      ++stats.scanned;
      switch (fn(ref.first, r)) {
      case Seen::Saturated: r.remember_saturated(key); break;
      case Seen::Noop: r.remember_noop(key); break;
      case Seen::Again:
        ss.again.push_back(ref);
        if (key != sig)
          r.remember_noop(sig);
        break;
      }
    };
    if (ss.ran && ss.pos >= changes_base && end - ss.pos <= live_records + 64) {
      const uint32_t stamp = ++scan_stamp;
      auto once = [&](const Ref ref) {
        if (!valid(ref))
          return;
        Record &r = recs[ref.first];
        if (r.stamp == stamp)
          return;
        r.stamp = stamp;
        visit(ref, r);
      };
      for (uint64_t i = ss.pos; i < end; ++i)
        once(changes[i - changes_base]);
      for (const Ref &ref : again)
        once(ref);
    } else {
      scan_all(c, visit);
    }
    ss.ran = true;
    ss.pos = changes_base + changes.size();
  }

  // Every live record some thread at or after min(c) may see.
  template <typename Visit> void scan_all(const ThreadSet &c, Visit visit) {
    const uint64_t cmin = c.min();
    while (!retired.empty() && retired.top().first >= cmin) {
      Ref ref = retired.top().second;
      retired.pop();
      if (valid(ref) && recs[ref.first].list == 2) {
        recs[ref.first].list = 1;
        active.push_back(ref);
      }
    }
    for (size_t i = 0; i < active.size();) {
      const Ref ref = active[i];
      Record &r = recs[ref.first];
      if (r.gen != ref.second || r.list != 1) {
        active[i] = active.back();
        active.pop_back();
        continue;
      }
      // Retire only records well below the collective (a few tasks back), so
      // that producer/consumer alternation inside a task does not churn.
      if (r.max_tid + kRetireSlack < cmin) {
        r.list = 2;
        retired.push({r.max_tid, ref});
        if (retired.size() > 4 * live_records + 1024)
          compact_retired();
        active[i] = active.back();
        active.pop_back();
        continue;
      }
      ++i;
      visit(ref, r);
    }
  }

  // Keeps the change log and the active list proportional to the live
  // records: a key whose position falls off the log scans in full next time
  // (at the cost of one full scan, which the dropped entries would exceed).
  void trim_changes();

  // Records that died or came back leave stale heap entries; drop them when
  // they outnumber the live records, so the heap stays proportional to them.
  void compact_retired();

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
    OriginRec rec; // resolved at the element checked
    const Part *part = nullptr;
    ThreadSet missing;
    bool from_mutates = true;
  };

  // Keeps (o, p, tid) in `f` when it is a better culprit, as the oracle picks.
  static void consider(Failure &f, const OriginRec &o, const Part &p, int64_t tid,
                       ThreadSet &miss, bool from_mutates);

  // The origin of entry `en` at element `at` (null: any element, when only
  // whether something fails matters).
  static const OriginRec &origin_of(const std::vector<OriginRec> &origins, const Entry &en,
                                    const Idx *at, OriginRec &scratch) {
    const OriginRec &o = origins[en.origin];
    if (!o.deferred || !at)
      return o;
    scratch = fast_detail::origin_at(o, at);
    return scratch;
  }

  // The culprit in AR `a` for access `e` at element `at`, as the oracle
  // picks it.
  bool check_ar(uint32_t a, const AccessEvent &e, Failure &f, const Idx *at = nullptr);

  bool check_free_ar(uint32_t a, const ThreadSet &c, bool ring, QualMask q, Failure &f,
                     const Idx *at = nullptr);
};

} // namespace exgc::sync

#endif
