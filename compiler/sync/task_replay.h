// task_replay.h - running a task's events once for many tasks -------------//
//
// Owns the static side of task replay, the interpreter's symmetry reduction:
// which innermost `tasks` bodies issue the same events in every task, up to
// a shift of thread ids, and how two tasks' accesses to outside tensors
// must relate for one task's effect to stand for the other's.
//
// A body is *uniform* when everything that steers it -- loop bounds, `if`
// conditions, extents, barrier indices, the indices of tensors the body
// allocates -- depends only on constants, on *parameters* (names bound
// outside the body, whose values a replay compares with its template's) and
// on names the body binds from those. Every task of a uniform body then
// issues the same events with its own threads, except the boxes of *outside
// accesses* (to tensors allocated before the body), which may depend on
// anything.
//
// The interpreter runs one task in full (the template) and captures what it
// left on outside tensors. A later task is replayed -- its effect copied,
// shifted, instead of run -- when, checked at run time:
//  1. no live record can be seen by the task's threads (engine `reaches`),
//     so no sync op of the task can change anything made outside it;
//  2. the task's outside accesses, found by a light walk that runs only the
//     loops, ifs and lets around them, are the template's statements with
//     each tensor's boxes moved by one offset (`match_outside`);
//  3. every one of those boxes is untouched, as the template's were;
//  4. the tensors the body allocates are all free at its start, as they
//     were for the template (which freed them all);
//  5. the parameters have the template's values.
// By 1, 3, 4 and 5 the task starts from a state that equals the template's up
// to the shift, the engines' rules do not depend on thread ids except
// through their order, and so the task ends in the template's state, moved.
// The differential test checks replayed programs against the oracle, which
// never replays.
#ifndef EXGC_SYNC_TASK_REPLAY_H
#define EXGC_SYNC_TASK_REPLAY_H

#include "compiler/sync/machine.h"
#include "compiler/sync/program.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace exgc::sync {

/// What the analysis says of an innermost tasks loop's body.
struct TaskShape {
  bool uniform = false;
  std::string why_not;                   ///< the first reason, when not uniform
  std::vector<std::string> locals;       ///< tensors and barriers the body allocates
  std::vector<std::string> params;       ///< outside names that steer the body
  std::unordered_set<const Stmt *> walk; ///< what the light walk enters
  /// `walk` by block: the statements of each block it enters, in order.
  std::unordered_map<const Block *, std::vector<const Stmt *>> walk_in;
};

/// Decides whether the body of `tasks` (an innermost tasks loop) is uniform;
/// `task_vars` are the iterators of it and of the tasks loops around it.
TaskShape analyze_task(const Stmt &tasks, const std::vector<std::string> &task_vars);

/// One access to an outside tensor, as the interpreter issued (or would
/// issue) it: its statement, tensor instance and boxes.
struct OutsideAccess {
  const Stmt *stmt = nullptr;
  int tensor = -1;
  std::vector<Box> boxes;
};

/// Whether `now` is `tmpl` with each tensor's boxes moved by one offset;
/// fills `shifts` (one per tensor) when so.
bool match_outside(const std::vector<OutsideAccess> &tmpl, const std::vector<OutsideAccess> &now,
                   std::vector<TensorShift> &shifts);

} // namespace exgc::sync

#endif
