// vis_set.h - visibility sets: (thread, qual, flag) triples by interval ----//
//
// Owns VisSet, the set of (thread, qual, flag) triples of one visibility
// record (reference section 4.2). Stored as sorted, disjoint thread intervals,
// each with one qual mask per flag, so a set that a warpgroup or a whole task
// gained in one sync op costs one segment, not one entry per thread. Both
// engines use it; the oracle only ever puts single threads or whole
// collectives in it, the fast engine also shares them between families.
#ifndef EXGC_SYNC_VIS_SET_H
#define EXGC_SYNC_VIS_SET_H

#include "compiler/sync/quals.h"
#include "compiler/sync/thread_set.h"

#include <string>
#include <vector>

#include "compiler/sync/small_vec.h"

namespace exgc::sync {

/// One qual mask per flag (indexed by Flag).
struct Masks {
  QualMask f[kNumFlags] = {0, 0, 0, 0};
  bool any() const { return f[0] | f[1] | f[2] | f[3]; }
  bool operator==(const Masks &o) const {
    return f[0] == o.f[0] && f[1] == o.f[1] && f[2] == o.f[2] && f[3] == o.f[3];
  }
  bool operator!=(const Masks &o) const { return !(*this == o); }
  Masks &operator|=(const Masks &o) {
    for (int i = 0; i < kNumFlags; ++i)
      f[i] |= o.f[i];
    return *this;
  }
  /// Quals witnessable by a sync op: held with the issue or the full flag.
  QualMask witnessable() const { return f[Issue] | f[Full]; }
};

/// The flags a sync op's second sync-timeline adds (reference section 4.5,
/// augment): every flag on `full`, temporal only on the rest of `temp`.
Masks augment_masks(const SyncTl &l2);

class VisSet {
public:
  struct Seg {
    uint64_t lo, hi;
    Masks m;
    bool operator==(const Seg &o) const { return lo == o.lo && hi == o.hi && m == o.m; }
  };

  bool empty() const { return segs_.empty(); }
  /// Adds threads x masks; returns whether any triple was new.
  bool add(const ThreadSet &threads, const Masks &m);
  /// Some thread of `threads` holds a qual of `q` with flag `flag`.
  bool any(const ThreadSet &threads, QualMask q, int flag) const {
    return some_overlap(threads, [&](const Seg &s) { return (s.m.f[flag] & q) != 0; });
  }
  /// Every thread of `threads` holds a qual of `q` with flag `flag`
  /// (missing() is empty), decided without building a set.
  bool covers(const ThreadSet &threads, QualMask q, int flag) const;
  /// The threads of `threads` that hold no qual of `q` with flag `flag`.
  ThreadSet missing(const ThreadSet &threads, QualMask q, int flag) const;
  /// Some thread of `threads` holds a qual of `l1` with issue or full.
  bool witness(const ThreadSet &threads, QualMask l1) const {
    return some_overlap(threads, [&](const Seg &s) { return (s.m.witnessable() & l1) != 0; });
  }
  /// Union of what the threads of `threads` hold (per flag).
  Masks held(const ThreadSet &threads) const;
  /// Union over all threads.
  Masks summary() const;
  /// Every thread id plus `d` (see ThreadSet::shifted).
  VisSet shifted(int64_t d) const {
    VisSet r = *this;
    for (Seg &s : r.segs_) {
      s.lo += static_cast<uint64_t>(d);
      s.hi += static_cast<uint64_t>(d);
    }
    return r;
  }
  /// Smallest thread holding anything; 0 when empty.
  uint64_t min_tid() const { return segs_.empty() ? 0 : segs_.front().lo; }
  /// Largest thread holding anything; 0 when empty.
  uint64_t max_tid() const { return segs_.empty() ? 0 : segs_.back().hi - 1; }
  using Segs = SmallVec<Seg, 2>;
  const Segs &segs() const { return segs_; }
  bool operator==(const VisSet &o) const { return segs_ == o.segs_; }
  size_t hash() const;
  std::string str() const;

private:
  // Whether fn(seg) holds for some segment overlapping the thread set
  // (inline: the engines' scans call it for every record they visit).
  template <typename Fn> bool some_overlap(const ThreadSet &threads, Fn fn) const {
    size_t s = 0;
    for (const Interval &i : threads.intervals()) {
      while (s < segs_.size() && segs_[s].hi <= i.lo)
        ++s;
      for (size_t k = s; k < segs_.size() && segs_[k].lo < i.hi; ++k)
        if (fn(segs_[k]))
          return true;
    }
    return false;
  }

  Segs segs_; // sorted, disjoint, non-empty masks, equal neighbours merged
};

} // namespace exgc::sync

#endif
