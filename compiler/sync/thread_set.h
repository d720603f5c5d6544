// thread_set.h - sets of global thread ids as sorted interval lists -------//
//
// Owns ThreadSet, the representation of a thread collective. A global thread
// id is task * threads_per_task + the C-order index of the thread in the
// device domain; the CPU is every thread, [0, kAllThreads). Intervals rather
// than bitsets because collectives are boxes (a warp, a warpgroup, the CTAs of
// a cluster row), which C-order turns into a few contiguous runs.
#ifndef EXGC_SYNC_THREAD_SET_H
#define EXGC_SYNC_THREAD_SET_H

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/sync/small_vec.h"

namespace exgc::sync {

/// The end of the thread-id space (exclusive). 64-bit, so that tasks times
/// threads per task cannot wrap as the reference's 32-bit ids could.
constexpr uint64_t kAllThreads = uint64_t(1) << 62;

struct Interval {
  uint64_t lo, hi; // [lo, hi), lo < hi
  bool operator==(const Interval &o) const { return lo == o.lo && hi == o.hi; }
};

/// A set of thread ids: sorted, disjoint, non-adjacent half-open intervals.
class ThreadSet {
public:
  ThreadSet() = default;
  static ThreadSet range(uint64_t lo, uint64_t hi);
  static ThreadSet all() { return range(0, kAllThreads); }
  static ThreadSet single(uint64_t t) { return range(t, t + 1); }

  /// Adds [lo, hi); intervals must be added in increasing order (as box
  /// enumeration does); adjacent ones merge.
  void append(uint64_t lo, uint64_t hi);

  bool empty() const { return iv_.empty(); }
  uint64_t min() const { return iv_.front().lo; }
  uint64_t max() const { return iv_.back().hi - 1; }
  uint64_t size() const;
  bool contains(uint64_t t) const;
  bool is_all() const { return iv_.size() == 1 && iv_[0].lo == 0 && iv_[0].hi == kAllThreads; }
  using Intervals = SmallVec<Interval, 2>;
  const Intervals &intervals() const { return iv_; }

  ThreadSet intersect(const ThreadSet &o) const;
  ThreadSet subtract(const ThreadSet &o) const;
  ThreadSet unite(const ThreadSet &o) const;
  bool intersects(const ThreadSet &o) const;
  /// Every thread id plus `d` (task replay moves a task's sets to another
  /// task); the result must stay inside [0, kAllThreads).
  ThreadSet shifted(int64_t d) const;
  bool operator==(const ThreadSet &o) const { return iv_ == o.iv_; }
  bool operator!=(const ThreadSet &o) const { return !(*this == o); }
  size_t hash() const;
  /// `{0..31,128..255}`, `{all}` for the CPU.
  std::string str() const;

private:
  Intervals iv_;
};

} // namespace exgc::sync

#endif
