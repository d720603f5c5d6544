// budget.h - memory and time limits of one sync check ------------------------//
//
// Owns the budget a check runs under. A program can ask for far more than a
// machine has (huge barrier arrays, elementwise histories of huge tensors,
// loops of 10^18 iterations); the meter turns that into one clear error
// instead of an exhausted machine. Memory is the process's resident size
// grown since the check started, plus what an allocation is about to take;
// time is wall-clock time since the start. The walk and the engines' inner
// loops tick the meter, weighted by the work done (regions examined, not only
// events: one replayed task may scan thousands); every 1024 units it reads
// the clock (tens of nanoseconds), and /proc/self/statm at most every 20 ms,
// so a tick costs an add and a compare and the budget is met to a few ms.
#ifndef EXGC_SYNC_BUDGET_H
#define EXGC_SYNC_BUDGET_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace exgc::sync {

struct CheckBudget {
  uint64_t max_memory = uint64_t(4) << 30; ///< bytes; 0: no limit
  double max_seconds = 600;                ///< wall clock; 0: no limit
};

/// Thrown by the meter; the interpreter turns it into a located hazard.
struct BudgetExceeded {
  std::string message;
};

class ResourceMeter {
public:
  explicit ResourceMeter(const CheckBudget &b);
  /// Fails when `bytes` more would pass the memory budget.
  void reserve(uint64_t bytes, const std::string &what);
  void tick(uint64_t work = 1) {
    if ((ticks_ += work) >= next_look_)
      look();
  }
  /// Checks both limits now (memory: at most every 20 ms, unless `force`).
  void look(bool force = false);
  /// Told the seconds since the start, at most every 100 ms, from the looks
  /// (for a progress line; it may print).
  void set_progress(std::function<void(double)> fn) { progress_ = std::move(fn); }
  /// What the check has used so far (for a report of where it stopped).
  double seconds() const;
  uint64_t grown_bytes() const { return grown(); }

private:
  static constexpr uint64_t kTicksPerLook = 1024;
  CheckBudget budget_;
  std::chrono::steady_clock::time_point start_, last_memory_look_, last_progress_;
  std::function<void(double)> progress_;
  uint64_t base_resident_ = 0, ticks_ = 0, next_look_ = kTicksPerLook;
  uint64_t grown() const;
};

/// The process's resident set in bytes (0 where it cannot be read).
uint64_t resident_bytes();

} // namespace exgc::sync

#endif
