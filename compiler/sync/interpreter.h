// interpreter.h - run a sync program in sequential order -------------------//
//
// Owns the control side of the abstract machine (reference sections 4.1-4.3,
// 4.6): control values, loops, the current thread box and task ids, tensor
// allocation instances, barrier arrive/await counts and the one-shot and
// forward-progress rules. Everything about histories is the Machine's; this
// walker feeds the same event stream to any engine, which is what makes the
// fast engine and the oracle comparable event by event.
//
// Parallel loops run one iteration after another; only the current thread
// collective changes. Each iteration of an innermost `tasks` loop is a new
// task (fresh thread ids) and ends with an implicit join by its threads.
// A task that repeats an earlier one may be replayed instead (task_replay.h),
// and the iterations of a loop whose histories repeat skipped (loop_replay.h).
#ifndef EXGC_SYNC_INTERPRETER_H
#define EXGC_SYNC_INTERPRETER_H

#include "compiler/sync/budget.h"
#include "compiler/sync/machine.h"
#include "compiler/sync/program.h"

namespace exgc::sync {

struct RunStats {
  uint64_t events = 0;   ///< accesses + sync ops + allocations + frees
  uint64_t accesses = 0; ///< access events, barrier-word reads included
  uint64_t elements = 0; ///< elements those accesses touched
  uint64_t replayed_tasks = 0; ///< tasks replayed, not run (task_replay.h); their
                               ///< events and accesses are counted above
  uint64_t replayed_iterations = 0; ///< loop iterations skipped (loop_replay.h),
                                    ///< counted above as well
};

struct RunOptions {
  /// Replay tasks that repeat an earlier one (task_replay.h) where the
  /// engine can; off, every task runs in full.
  bool replay_tasks = true;
  /// Skip the iterations of a periodic loop once its histories repeat
  /// (loop_replay.h) where the engine can; off, every iteration runs.
  bool replay_loops = true;
  /// Limits memory and time (budget.h); null: none. A limit reached is a
  /// hazard of kind ResourceLimit at the statement being run.
  ResourceMeter *meter = nullptr;
};

/// Runs `p` on `m`. Returns true when no hazard was found; otherwise `hazard`
/// holds the first one (a program error is a hazard of kind InvalidProgram).
bool run_program(const Program &p, Machine &m, Hazard &hazard, RunStats *stats = nullptr,
                 const RunOptions &opts = {});

} // namespace exgc::sync

#endif
