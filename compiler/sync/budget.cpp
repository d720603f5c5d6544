// budget.cpp - the resource meter of a sync check ----------------------------//
#include "compiler/sync/budget.h"

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

bool parse_byte_size(const std::string &text, uint64_t &bytes) {
  size_t digits = 0;
  uint64_t v = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    if (__builtin_mul_overflow(v, 10, &v) ||
        __builtin_add_overflow(v, static_cast<uint64_t>(text[digits] - '0'), &v))
      return false;
    ++digits;
  }
  if (digits == 0 || text.size() > digits + 1)
    return false;
  int shift = 0;
  if (digits < text.size()) {
    switch (text[digits]) {
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    case 'T': case 't': shift = 40; break;
    default: return false;
    }
  }
  if (shift && v > (UINT64_MAX >> shift))
    return false;
  bytes = v << shift;
  return true;
}

std::string byte_size_string(uint64_t bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes == 0 || bytes % 1024 != 0)
    return std::to_string(bytes) + " bytes";
  int u = -1;
  while (u < 3 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + " " + units[u];
}

namespace {
std::string seconds_string(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}
} // namespace

ResourceMeter::ResourceMeter(const CheckBudget &b)
    : budget_(b), start_(std::chrono::steady_clock::now()), base_resident_(resident_bytes()) {}

uint64_t ResourceMeter::grown() const {
  uint64_t now = resident_bytes();
  return now > base_resident_ ? now - base_resident_ : 0;
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

void ResourceMeter::look() {
  if (budget_.max_memory && grown() > budget_.max_memory)
    throw BudgetExceeded{"the check ran out of its memory budget of " +
                         byte_size_string(budget_.max_memory) + " (--max-check-memory)"};
  if (budget_.max_seconds > 0) {
    std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
    if (spent.count() > budget_.max_seconds)
      throw BudgetExceeded{"the check ran out of its time budget of " +
                           seconds_string(budget_.max_seconds) + " s (--max-check-time)"};
  }
}

} // namespace exgc::sync
