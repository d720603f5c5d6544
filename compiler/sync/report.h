// report.h - what the checker says when synchronization is missing --------//
//
// Owns Hazard, the first error found in a sync program, and its rendering as
// clang-style diagnostics. Engines fill the record-level part (element, the
// prior access, the missing triple); the interpreter the rest (statement,
// threads, loop values). Two engines agree when their hazards are `same_as`.
#ifndef EXGC_SYNC_REPORT_H
#define EXGC_SYNC_REPORT_H

#include "compiler/sync/program.h"
#include "compiler/sync/thread_set.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace exgc::sync {

enum class HazardKind {
  ReadAfterWrite,
  WriteAfterRead,
  WriteAfterWrite,
  UseBeforeAlloc,
  UseAfterFree,
  FreeWithoutSync,
  FreeWithoutArrive,
  ArrivedTwice,
  AwaitedTwice,
  NoForwardProgress,
  OutOfBounds,
  InvalidProgram,
  ResourceLimit, ///< the check's memory or time budget ran out (budget.h)
};
const char *hazard_kind_name(HazardKind k); // "read-after-write", ...
const char *hazard_kind_tag(HazardKind k);  // "ReadAfterWrite", ...

using ThreadSetP = std::shared_ptr<const ThreadSet>;

/// The access that created a visibility record.
struct Origin {
  uint64_t seq = 0;           ///< event number of the access
  const Stmt *stmt = nullptr; ///< its statement
  ThreadSetP threads;         ///< the collective that made it
};

struct Hazard {
  HazardKind kind = HazardKind::InvalidProgram;
  uint64_t seq = 0;              ///< event number of the failing statement
  const Stmt *stmt = nullptr;    ///< the failing statement (null: none)
  ThreadSetP threads;            ///< who executed it
  std::string tensor;            ///< element's tensor (empty: none)
  std::vector<int64_t> element;
  int tensor_id = -1;            ///< allocation instance, for the replay
  int64_t linear = -1;           ///< element's C-order index in tensor_id

  bool has_prior = false;        ///< the prior access whose record was not visible
  Origin prior;
  int64_t prior_thread = -1;     ///< for a per-thread record, its thread; else -1
  ThreadSet missing_threads;     ///< threads of `threads` that lacked visibility
  int need_flag = 0;             ///< flag that was missing (Flag)
  QualMask need_quals = 0;       ///< quals of which one was needed
  QualMask prior_quals = 0;      ///< the prior access's own (issue) quals

  std::string message;           ///< extra words (barrier counts, program errors)
  std::vector<std::pair<std::string, int64_t>> iters; ///< loop values on the path
  std::vector<std::string> notes; ///< explanation from the replay

  /// Same verdict, statement, element and prior access (what the
  /// differential test compares).
  bool same_as(const Hazard &o) const;
  std::string summary() const;  ///< one line, for tests and logs
};

/// Renders `h` as `file:line:col: error: ...` plus `note:` lines. Locations
/// are the .exg ones the statements carry, else their .sync text positions,
/// else `fallback_file`.
std::string format_hazard(const Hazard &h, const std::string &fallback_file);

} // namespace exgc::sync

#endif
