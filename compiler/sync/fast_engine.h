// fast_engine.h - the region-based engine ---------------------------------//
//
// Owns FastEngine: the abstract machine with the same verdicts as the oracle
// (oracle_engine.h) at a cost that follows the number of tile-level
// operations, not of elements or threads:
//  - histories are kept per region: a box of elements sharing one immutable,
//    reference-counted assignment record; an access splits only the regions
//    it cuts and the box it writes becomes one region again;
//  - a record is made once per access (per ring slot's free barrier), not once
//    per element, and a non-convergent access makes one *family* record whose
//    members each hold the access's triples at themselves, instead of one
//    record per thread; families split only when a sync op sees some members;
//  - thread sets and visibility sets are interval lists;
//  - an Await follows back-references from the barrier to the records waiting
//    on it; a record an Arrive's collective saw in full subscribes to its
//    *arrive stream* and takes that collective's later Arrives implicitly
//    (arrive_streams.h), so long barrier arrays cost no entry per element;
//  - Fence, Arrive and join scan only the records that some thread at or
//    after the collective's first thread can still see (records of finished
//    tasks retire from the scan, since task ids only grow), and an op that
//    ran before only those logged as changed since;
//  - pending awaits on freed barriers are dropped;
//  - a task can be replayed (task_replay.h): what it left on tensors
//    allocated outside it is captured once and copied, shifted, for the
//    tasks that repeat it (fast_replay.cpp);
//  - a loop's iterations can be skipped once they repeat (loop_replay.h):
//    the engine says whether an iteration changed an older record and
//    writes the histories of a box as canonical words (fast_loops.cpp).
#ifndef EXGC_SYNC_FAST_ENGINE_H
#define EXGC_SYNC_FAST_ENGINE_H

#include "compiler/sync/machine.h"

#include <memory>

namespace exgc::sync {

struct FastEngineStats {
  uint64_t max_regions = 0;      ///< most regions held at once (all tensors)
  uint64_t records_created = 0;
  uint64_t max_live_records = 0;
  uint64_t scanned = 0;          ///< records visited by Fence/Arrive/join scans
  uint64_t scans = 0, visited = 0; ///< scans, scan-list entries visited (stale included)
  uint64_t awaits = 0, waiters_visited = 0;
  uint64_t subscribers_visited = 0; ///< records Awaits augmented through arrive streams
  uint64_t replayed_regions = 0; ///< regions put back by task replays
  uint64_t merged_regions = 0;   ///< of those, regions merged from many (deferred origins)
};

class FastEngine final : public Machine {
public:
  FastEngine();
  ~FastEngine() override;
  const FastEngineStats &stats() const;

  void alloc(int tensor, const Ctx &c) override;
  bool free(int tensor, const Ctx &c, bool has_check, QualMask check) override;
  bool access(const AccessEvent &e) override;
  void fence(const Ctx &c, QualMask l1, const SyncTl &l2) override;
  void arrive(const Ctx &c, QualMask l1, const std::vector<uint64_t> &bars, int64_t k) override;
  void await(const Ctx &c, uint64_t bar, int64_t kmax, const SyncTl &l2) override;
  void join(const Ctx &c) override;
  void barriers_freed(uint64_t lo, uint64_t hi) override;

  bool can_replay() const override { return true; }
  bool reaches(uint64_t tid) override;
  bool untouched(int tensor, const Box &b) override;
  std::unique_ptr<TaskEffect> capture(const std::vector<std::pair<int, Box>> &boxes, uint64_t lo,
                                      uint64_t hi) override;
  void replay(const TaskEffect &e, const std::vector<TensorShift> &shifts, int64_t dt,
              int64_t dseq) override;

  bool can_replay_loops() const override { return true; }
  void begin_iteration(uint64_t seq) override;
  bool iteration_words(const std::vector<std::pair<int, Box>> &area,
                       std::vector<uint64_t> &out) override;
  void skip_iterations(const std::vector<std::pair<int, Box>> &area, int64_t dseq) override;
  void end_iteration() override;

private:
  struct State;
  class Access; // one access: check, then new histories (fast_engine.cpp)
  std::unique_ptr<State> st_;
  bool old_changes_seen(const std::vector<std::pair<int, Box>> &area);
};

} // namespace exgc::sync

#endif
