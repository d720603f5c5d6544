// budget.h - the limits every schedule script runs under --------------------//
// Owns: ScriptBudget, the bounds that make every script end in bounded time
// and memory (docs/scheduling.md, "Budgets"). The step limit alone bounds
// steps, not sizes: one `+` can copy a million-element list and one unroll
// can multiply a proc, so sizes have budgets of their own and copying charges
// steps by what it copies. Exceeding a budget is a located error; the driver's
// --script-budget raises them.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

namespace exgc::schedule {

struct ScriptBudget {
  /// Statements run and expressions evaluated, plus one per element a list
  /// operation copies, one per 64 characters a string one writes, and 200
  /// per solver query a primitive makes.
  int64_t steps = 1000000;
  /// Elements of one list (counted through nested lists) or characters of
  /// one string, including what `print` writes.
  int64_t values = 1000000;
  /// Statements of one proc a primitive makes (nested bodies counted).
  int64_t stmts = 100000;
  /// Statements of the procs the steps of a run returned, summed (an
  /// unchanged one too): every intermediate proc is kept for cursors and
  /// differential testing, and each step walks the proc it rewrites.
  int64_t history = 10000000;
  /// exgc-lsp's cancel flag (support/cancel.h): once set, the next step
  /// throws Cancelled. Null: never.
  const std::atomic<bool> *cancel = nullptr;

  /// Sets one budget from `name=N` (`steps`, `values`, `stmts`, `history`);
  /// false with `error` set when `spec` is not one.
  bool set(const std::string &spec, std::string &error);
};

} // namespace exgc::schedule
