// cancel.h - stopping a long run from another thread -------------------------//
//
// exgc-lsp checks a document on a worker thread; when the document changes,
// the check's result is worthless. The driver looks at a cancel flag between
// stages and the schedule interpreter at every script step; a set flag
// throws Cancelled, which check_program catches (CheckedProgram::cancelled).
// Nothing else catches it: it unwinds through the stages like any exception.
#pragma once

#include <atomic>

namespace exgc {

struct Cancelled {};

/// Throws Cancelled when `flag` (may be null) is set.
inline void throw_if_cancelled(const std::atomic<bool> *flag) {
  if (flag && flag->load(std::memory_order_relaxed))
    throw Cancelled{};
}

} // namespace exgc
