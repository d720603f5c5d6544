// check.h - check a sync program and explain its first hazard ------------//
//
// Owns the checker's entry point. The fast engine finds the first hazard;
// then the oracle replays the program keeping the history of that one element
// only (cheap: barrier counts and sync ops still run, other elements are not
// tracked), confirms the same hazard and tells the story of the prior
// access's record: what ordered it for whom, and where that stopped.
#ifndef EXGC_SYNC_CHECK_H
#define EXGC_SYNC_CHECK_H

#include "compiler/sync/fast_engine.h"
#include "compiler/sync/interpreter.h"

namespace exgc::sync {

enum class EngineKind { Fast, Oracle };

struct CheckOptions {
  EngineKind engine = EngineKind::Fast;
  bool explain = true; ///< replay the failing element with the oracle
  bool replay_tasks = true; ///< task replay (task_replay.h), fast engine only
  bool replay_loops = true; ///< loop replay (loop_replay.h), fast engine only
  CheckBudget budget;       ///< memory and time for the whole check
  /// Called with the seconds spent, about every 100 ms while the check runs.
  std::function<void(double)> progress;
};

struct CheckResult {
  bool ok = true;
  Hazard hazard;             ///< when !ok
  RunStats stats;
  FastEngineStats fast;      ///< fast engine only
  bool replay_agreed = true; ///< the replay found the same hazard
};

CheckResult check_program(const Program &p, const CheckOptions &opts = {});

} // namespace exgc::sync

#endif
