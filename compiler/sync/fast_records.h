// fast_records.h - the fast engine's records (private to fast_engine.cpp) //
//
// Owns the data the fast engine keeps per record: parts (single records or
// families of per-thread records), contents shared by equal accesses, the
// origins that reports name, assignment records, and the rule deciding which
// members of a part fail a visibility check. See fast_engine.h for the design.
#ifndef EXGC_SYNC_FAST_RECORDS_H
#define EXGC_SYNC_FAST_RECORDS_H

#include "compiler/sync/arrive_streams.h"
#include "compiler/sync/machine.h"
#include "compiler/sync/small_vec.h"
#include "compiler/sync/vis_set.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace exgc::sync::fast_detail {

struct PendingEntry {
  uint64_t bar;
  int64_t count;
  bool operator==(const PendingEntry &o) const { return bar == o.bar && count == o.count; }
};
using Pending = SmallVec<PendingEntry, 8>; // sorted by barrier

// The first entry of `p` with barrier >= b. Barrier arrays are arrived on and
// awaited mostly in order, so `b` usually lies at the end of a long list: look
// there before a binary search, whose probes miss the cache on long lists.
inline PendingEntry *find_pending(Pending &p, uint64_t b) {
  if (p.empty() || p.back().bar < b)
    return p.end();
  if (p.size() >= 2 && p[p.size() - 2].bar < b)
    return p.end() - 1;
  PendingEntry *it = std::lower_bound(
      p.begin(), p.end(), b, [](const PendingEntry &e, uint64_t v) { return e.bar < v; });
  return it;
}

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

// A visibility record's content, shared (hash-consed) by every access that
// made an equal record since the last sync op; sync ops work on contents.
struct Record {
  std::vector<Part> parts;
  int64_t foa = -1;
  uint32_t refs = 0, gen = 0;
  uint8_t list = 0; // 0 none, 1 active, 2 retired
  uint64_t max_tid = 0;
  // Largest thread of any part's visibility or members, -1 when none: what
  // task replay asks (FastEngine::reaches), indexed by State::by_reach.
  int64_t reach = -1;
  QualMask wq = 0; // quals any part could be witnessed on (scan prefilter)
  // Sync ops known to change nothing more: (op signature, vis_version) pairs.
  // Re-applying a Fence, Arrive (same barriers) or join to an unchanged
  // record is a no-op, since augments and pending insertions are idempotent.
  uint32_t vis_version = 0;
  uint32_t noop_sig[4] = {0, 0, 0, 0};
  uint32_t noop_ver[4] = {0, 0, 0, 0};
  uint8_t noop_next = 0;
  // Fences and Arrives that saw every part of this record: records only
  // grow (a freed part is never seen again), so such an op stays a no-op on
  // it forever, whatever happens to the record in between.
  uint32_t sat_sig[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint8_t sat_next = 0;
  // The arrive streams it subscribed to (arrive_streams.h) and when.
  struct Sub {
    uint32_t stream;
    uint64_t t;
  };
  SmallVec<Sub, 2> subs;
  uint32_t stamp = 0; // the last incremental scan that visited it
  uint64_t born = 0;  // State::serial when it was made (loop replay's "old")
  bool subscribed(uint32_t stream) const {
    for (const Sub &s : subs)
      if (s.stream == stream)
        return true;
    return false;
  }
  bool known_noop(uint32_t sig) const {
    for (int i = 0; i < 8; ++i)
      if (sat_sig[i] == sig)
        return true;
    for (int i = 0; i < 4; ++i)
      if (noop_sig[i] == sig && noop_ver[i] == vis_version)
        return true;
    return false;
  }
  void remember_saturated(uint32_t sig) {
    sat_sig[sat_next] = sig;
    sat_next = (sat_next + 1) & 7;
  }
  void remember_noop(uint32_t sig) {
    noop_sig[noop_next] = sig;
    noop_ver[noop_next] = vis_version;
    noop_next = (noop_next + 1) & 3;
  }
};

struct Deferred;

// Who made a record: kept apart from the content, so that sharing content
// never changes which access a report names.
struct OriginRec {
  Origin origin;
  QualMask own_quals = 0;
  uint32_t refs = 0;
  // Set for an entry of a replayed region merged from many of the
  // template's (fast_replay.cpp): the access depends on the element, and
  // `origin` is only the first member's.
  std::shared_ptr<const Deferred> deferred;
};

// The origins of a replayed task's regions merged into one: the template's
// regions (moved back by `offset`) and, per entry position, the index into
// `table` of the origin each one had.
struct MergedOrigins {
  struct Member {
    Box box;
    std::vector<uint32_t> origins; // per entry: reads, then mutates
  };
  std::vector<Member> members;
  std::shared_ptr<const std::vector<OriginRec>> table;
};
struct Deferred {
  std::shared_ptr<const MergedOrigins> merged;
  uint32_t entry = 0;
  int64_t dseq = 0, dt = 0;
  Idx offset;
};

// The origin of `o` at element `at` (tensor coordinates; null: the stored
// one, which is exact unless deferred).
OriginRec origin_at(const OriginRec &o, const Idx *at);

struct Entry {
  uint32_t rec, origin;
};

struct AR {
  SmallVec<Entry, 4> reads, mutates;
  int64_t foa = -1;
  uint32_t refs = 0;
};

// Every field of `r` a rule reads, as words (not its bookkeeping): equal
// words, equal contents, which evolve identically (fast_loops.cpp).
void record_words(const Record &r, std::vector<uint64_t> &out);

// Failing members of a part for a check of (threads, quals, flag, conv).
// Returns false when every member (or the single record) sees the access;
// otherwise `tid` is the lowest failing member (-1 for a single record) and
// `missing` the threads that lacked visibility for it.
inline bool part_fails(const Part &p, const ThreadSet &c, QualMask q, int flag, bool conv, int64_t &tid,
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
  if (p.s.covers(c, q, flag))
    return false;
  ThreadSet miss = p.s.missing(c, q, flag);
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

} // namespace exgc::sync::fast_detail

#endif
