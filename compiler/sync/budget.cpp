// budget.cpp - the resource meter of a sync check ----------------------------//
#include "compiler/sync/budget.h"

#include "compiler/support/byte_size.h"

#include <cstdio>
#include <unistd.h>

namespace exgc::sync {

uint64_t resident_bytes() {
  std::FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long long size = 0, resident = 0;
  int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (got != 2)
    return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

namespace {
std::string seconds_string(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}
} // namespace

ResourceMeter::ResourceMeter(const CheckBudget &b)
    : budget_(b), start_(std::chrono::steady_clock::now()), last_memory_look_(start_),
      last_progress_(start_),
      base_resident_(resident_bytes()) {}

uint64_t ResourceMeter::grown() const {
  uint64_t now = resident_bytes();
  return now > base_resident_ ? now - base_resident_ : 0;
}

double ResourceMeter::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ResourceMeter::reserve(uint64_t bytes, const std::string &what) {
  if (budget_.max_memory == 0)
    return;
  uint64_t used = grown();
  if (bytes > budget_.max_memory || used > budget_.max_memory - bytes)
    throw BudgetExceeded{what + " needs " + byte_size_string(bytes) +
                         ", more than is left of the check's memory budget of " +
                         byte_size_string(budget_.max_memory) + " (--max-check-memory)"};
}

void ResourceMeter::look(bool force) {
  next_look_ = ticks_ + kTicksPerLook;
  auto now = std::chrono::steady_clock::now();
  // Reading statm costs microseconds: every 20 ms is enough, since memory
  // grows at most a few tens of MB in that time.
  if (budget_.max_memory && (force || now - last_memory_look_ >= std::chrono::milliseconds(20))) {
    last_memory_look_ = now;
    if (grown() > budget_.max_memory)
      throw BudgetExceeded{"the check ran out of its memory budget of " +
                           byte_size_string(budget_.max_memory) + " (--max-check-memory)"};
  }
  if (progress_ && now - last_progress_ >= std::chrono::milliseconds(100)) {
    last_progress_ = now;
    progress_(std::chrono::duration<double>(now - start_).count());
  }
  if (budget_.max_seconds > 0) {
    std::chrono::duration<double> spent = now - start_;
    if (spent.count() > budget_.max_seconds)
      throw BudgetExceeded{"the check ran out of its time budget of " +
                           seconds_string(budget_.max_seconds) + " s (--max-check-time)"};
  }
}

} // namespace exgc::sync
