// loop_replay.h - skipping the iterations of a loop whose state repeats ---//
//
// Owns the static side of loop replay, the interpreter's second symmetry
// reduction (task replay, task_replay.h, is the first). The k-loop of a
// kernel issues the same events in every iteration: it copies a stage into
// shared memory, fences, multiplies, fences. Once the histories stop
// changing from one iteration to the next, every later iteration would
// leave them as it found them, so the interpreter skips them.
//
// A `seq` loop's body is *periodic* when every iteration issues the same
// events: nothing in it -- bounds, conditions, extents, indices of any
// tensor -- depends on the loop's iterator or on a value the previous
// iteration left (a `let` of the body read before the body binds it), and
// it holds only lets, loops, ifs, reshapes, accesses without trailing
// barriers, fences, joins, and plain `data` tensors it also frees. No
// Arrive, Await or barrier: barrier counts would differ between iterations.
//
// At run time (the interpreter, and the engine's `iteration_words`), after
// iteration j + 1 the loop is skipped to its end when:
//  1. no record that existed when iteration j + 1 began changed during it;
//  2. the histories of every box of an outside tensor (allocated before the
//     iteration) it touched are, element region by region, the ones
//     iteration j left there: equal contents, and each entry either made at
//     the same event of its iteration or the very entry that was there;
//  3. it issued as many events, accesses and elements as iteration j, and
//     freed every tensor it allocated.
// Iteration j + 1 then maps the state S_j to S_{j+1} = S_j (up to the
// event numbers of the entries it made), and everything else is as before
// it (1, and tensors it allocated are gone); iteration j + 2 issues the same
// events from the same state, so it finds no hazard and leaves the same
// state again, and so on. The skip moves the event numbers of the entries
// the last iteration made to where the last iteration of a full run makes
// them, and advances event counts and tensor ids as a full run would.
// The differential test compares programs with periodic loops against the
// oracle, which never skips.
#ifndef EXGC_SYNC_LOOP_REPLAY_H
#define EXGC_SYNC_LOOP_REPLAY_H

#include "compiler/sync/program.h"

#include <string>

namespace exgc::sync {

struct LoopShape {
  bool periodic = false;
  std::string why_not; ///< the first reason, when not periodic
};

/// Decides whether the body of `seq` (a `seq` loop) is periodic.
LoopShape analyze_loop(const Stmt &seq);

} // namespace exgc::sync

#endif
