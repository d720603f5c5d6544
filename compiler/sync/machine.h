// machine.h - the interface between the interpreter and an engine ---------//
//
// The interpreter (interpreter.h) walks a program in sequential order and
// turns it into events with concrete thread sets, boxes and barrier counts.
// An engine implements the abstract machine's histories: what accesses check
// and record, and what sync ops do to records (reference section 4.4-4.7).
// Control values, thread boxes, barrier counts and one-shot rules are the
// interpreter's, so two engines fed the same events must agree exactly.
#ifndef EXGC_SYNC_MACHINE_H
#define EXGC_SYNC_MACHINE_H

#include "compiler/sync/budget.h"
#include "compiler/sync/report.h"
#include "compiler/sync/small_vec.h"
#include "compiler/sync/vis_set.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace exgc::sync {

/// A half-open box of tensor elements.
/// Tensor ranks are at most kMaxRank (checked at allocation).
constexpr unsigned kMaxRank = 8;
using Idx = FixedVec<int64_t, kMaxRank>;

struct Box {
  Idx lo, hi;
  int64_t volume() const;
  bool empty() const;
};

/// Box arithmetic (interpreter and fast engine): whether two boxes share an
/// element, their common box, and `a` minus `b` as disjoint boxes appended
/// to `out`.
inline bool overlaps(const Box &a, const Box &b) {
  for (size_t d = 0; d < a.lo.size(); ++d)
    if (std::max(a.lo[d], b.lo[d]) >= std::min(a.hi[d], b.hi[d]))
      return false;
  return true;
}

inline Box intersect(const Box &a, const Box &b) {
  Box r = a;
  for (size_t d = 0; d < a.lo.size(); ++d) {
    r.lo[d] = std::max(a.lo[d], b.lo[d]);
    r.hi[d] = std::min(a.hi[d], b.hi[d]);
  }
  return r;
}

inline void subtract(const Box &a, const Box &b, std::vector<Box> &out) {
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

/// One allocation instance (a `data` or `barrier` statement executed once).
struct TensorInfo {
  std::string name;
  const Stmt *decl = nullptr;
  bool is_barrier = false;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides; ///< C-order
  int64_t size = 0;
  int ring_dim = -1, ring_depth = 0;
  int guard = -1;               ///< guarding barrier's tensor id (data rings)
  std::vector<int> guard_mcast; ///< guard dims multicast over
  bool checked = true;          ///< histories kept (data; checked barriers)
  uint64_t bar_base = 0;        ///< barrier element id of element 0

  int64_t linear(const int64_t *idx) const;
  int64_t linear(const std::vector<int64_t> &idx) const { return linear(idx.data()); }
  int64_t linear(const Idx &idx) const { return linear(idx.data()); }
  std::vector<int64_t> unlinear(int64_t lin) const;
  /// Calls fn(linear index) for every element of `b`, in row-major order.
  template <typename Fn> void for_each_linear(const Box &b, Fn fn) const {
    if (b.empty())
      return;
    Idx idx = b.lo;
    const size_t n = idx.size();
    for (;;) {
      fn(linear(idx));
      size_t d = n;
      for (;;) {
        if (d == 0)
          return;
        --d;
        if (++idx[d] < b.hi[d])
          break;
        idx[d] = b.lo[d];
      }
    }
  }
};

/// One slot of a managed ring (reference section 4.7): its elements, the
/// barrier element whose arrive frees it (-1: none) and those whose await
/// allocates it (empty: allocated from the start).
struct RingSlot {
  Box box;
  int64_t free_on_arrive = -1;
  std::vector<uint64_t> alloc_on_await;
};
/// Every allocation instance of a run, by tensor id. Entries are never
/// removed and never move (references stay valid while tasks add more). A
/// replayed task's tensors, and a skipped loop iteration's, were allocated
/// and freed inside it, so no later event names them: their ids only name
/// the entries of the template's (`add_aliases`), as runs of ids rather than
/// one slot each (a 16,384-task GEMV's copies were a fifth of its check's
/// memory, and 16 million ids a second stall of a tiled kernel's check).
class TensorTable {
public:
  /// Adds `t` under the next id.
  void add(TensorInfo t) {
    const uint32_t s = static_cast<uint32_t>(infos_.size());
    infos_.push_back(std::move(t));
    append(&s, 1, 1);
  }
  /// Adds the next id as another name of tensor `of`'s entry.
  void add_alias(size_t of) { add_aliases(of, 1, 1); }
  /// Adds `times` x `n` ids naming the entries of ids [first, first + n) in
  /// turn, `times` times.
  void add_aliases(size_t first, size_t n, size_t times);
  size_t size() const { return size_; }
  TensorInfo &operator[](size_t id) { return infos_[slot(id)]; }
  const TensorInfo &operator[](size_t id) const { return infos_[slot(id)]; }

private:
  // Ids [first, first + count) name pool_[pool + (id - first) % period].
  struct Run {
    size_t first, count, pool, period;
  };
  std::deque<TensorInfo> infos_;
  std::vector<uint32_t> pool_;
  std::vector<Run> runs_;
  size_t size_ = 0;
  mutable size_t last_ = 0; // the run the last lookup found
  struct Range {
    size_t first = 0, n = 0, pool = 0;
  } last_range_;          // the last aliased range and its slots in pool_
  uint32_t slot(size_t id) const {
    if (last_ >= runs_.size() || id < runs_[last_].first ||
        id - runs_[last_].first >= runs_[last_].count) {
      auto it = std::upper_bound(runs_.begin(), runs_.end(), id,
                                 [](size_t v, const Run &r) { return v < r.first; });
      last_ = static_cast<size_t>(it - runs_.begin()) - 1;
    }
    const Run &r = runs_[last_];
    size_t off = id - r.first;
    if (off >= r.period)
      off %= r.period;
    return pool_[r.pool + off];
  }
  void append(const uint32_t *slots, size_t n, size_t times);
};

std::vector<RingSlot> ring_slots(const TensorInfo &t, const TensorTable &tensors);

/// Who runs an event.
struct Ctx {
  uint64_t seq = 0;
  const Stmt *stmt = nullptr;
  ThreadSetP threads;
};

struct AccessEvent {
  Ctx ctx;
  int tensor = -1;
  std::vector<Box> boxes; ///< disjoint, inside the tensor, non-empty
  bool mutate = false, write_only = false;
  Qual initial = Qual::Cuda2;
  QualMask ext = 0;
  bool ooo = false, conv = false;
  QualMask atomic = 0;
  /// Trailing barrier elements and their arrive counts now.
  std::vector<std::pair<uint64_t, int64_t>> trailing;
};

/// What a task left on tensors allocated outside it, captured for task
/// replay (task_replay.h); opaque, made and read by one engine.
struct TaskEffect {
  virtual ~TaskEffect() = default;
};

/// Where a replayed task's boxes of one tensor are: the captured ones + offset.
struct TensorShift {
  int tensor = -1;
  Idx offset;
};

class Machine {
public:
  virtual ~Machine() = default;
  /// The interpreter's tensor table.
  void attach(const TensorTable *tensors) { tensors_ = tensors; }
  /// The check's meter (budget.h), ticked in loops over elements and records.
  void set_meter(ResourceMeter *m) { meter_ = m; }

  /// A new allocation instance (ring slots get their allocation records).
  virtual void alloc(int tensor, const Ctx &c) = 0;
  /// Free checks; false on a hazard (then `hazard()` holds it). A ring's
  /// records must all be freed by their Arrives (FreeWithoutArrive); then,
  /// with `has_check`, every thread of `c` must hold Temp on one of `check`
  /// in every record (FreeWithoutSync). Rings of data slots skip the second
  /// rule (their Arrives free them); barrier rings do not: a persistent
  /// kernel's next task reuses the barrier words and their phases.
  virtual bool free(int tensor, const Ctx &c, bool has_check, QualMask check) = 0;
  virtual bool access(const AccessEvent &e) = 0;
  virtual void fence(const Ctx &c, QualMask l1, const SyncTl &l2) = 0;
  /// Arrive by c on `bars` (multicast expanded); `k` is the home's count before.
  virtual void arrive(const Ctx &c, QualMask l1, const std::vector<uint64_t> &bars,
                      int64_t k) = 0;
  /// Await by c on `bar`: records waiting on it with count <= kmax are ordered.
  virtual void await(const Ctx &c, uint64_t bar, int64_t kmax, const SyncTl &l2) = 0;
  virtual void join(const Ctx &c) = 0;
  /// Barrier elements [lo, hi) are gone: no await can name them again.
  virtual void barriers_freed(uint64_t lo, uint64_t hi) {}

  // --- Task replay (task_replay.h). An engine that cannot copy a task's
  // effect keeps these defaults, and every task then runs in full.
  virtual bool can_replay() const { return false; }
  /// Some live record may hold a triple at a thread >= `tid` (then a task
  /// starting there could see it).
  virtual bool reaches(uint64_t tid) { return true; }
  /// No element of `b` has a history yet.
  virtual bool untouched(int tensor, const Box &b) { return false; }
  /// The histories of `boxes` (tensor, box) after a task whose threads were
  /// [lo, hi); null when they hold anything a shift cannot move (pending
  /// awaits, ring slots, threads outside the task).
  virtual std::unique_ptr<TaskEffect> capture(const std::vector<std::pair<int, Box>> &boxes,
                                              uint64_t lo, uint64_t hi) {
    return nullptr;
  }
  /// Puts a captured effect back, boxes moved by `shifts`, thread ids by
  /// `dt` and event numbers by `dseq`, onto elements that are untouched.
  virtual void replay(const TaskEffect &e, const std::vector<TensorShift> &shifts, int64_t dt,
                      int64_t dseq) {}

  // --- Loop replay (loop_replay.h). An engine that cannot compare the
  // histories of two iterations keeps these defaults, and every iteration
  // runs in full.
  virtual bool can_replay_loops() const { return false; }
  /// An iteration begins after event `seq`: records that exist now are old,
  /// entries made by later events are the iteration's.
  virtual void begin_iteration(uint64_t seq) {}
  /// Appends the histories of `area` (tensor, box) to `out` as canonical
  /// words: equal words, equal contents, and each entry the iteration made
  /// at the same event of it (numbered from its start) or the same older
  /// entry. False when an old record changed since begin_iteration.
  virtual bool iteration_words(const std::vector<std::pair<int, Box>> &area,
                               std::vector<uint64_t> &out) {
    return false;
  }
  /// Moves the event numbers of the entries in `area` made since
  /// begin_iteration by `dseq` (the iterations skipped after it).
  virtual void skip_iterations(const std::vector<std::pair<int, Box>> &area, int64_t dseq) {}
  /// Ends what begin_iteration started.
  virtual void end_iteration() {}

  const Hazard &hazard() const { return hazard_; }

protected:
  const TensorTable *tensors_ = nullptr;
  Hazard hazard_;
  ResourceMeter *meter_ = nullptr;
  /// `work` units done (regions examined, elements visited).
  void tick(uint64_t work = 1) {
    if (meter_)
      meter_->tick(work);
  }
};

} // namespace exgc::sync

#endif
