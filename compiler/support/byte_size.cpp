// byte_size.cpp - read and write byte counts ---------------------------------//
#include "compiler/support/byte_size.h"

#include <cstdint>

namespace exgc {

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

} // namespace exgc
