// cuda_fp16.h (emulated) - f16 as its 16 bits; conversions by the host's _Float16 ------//
// (IEEE binary16, rounding to nearest even: GCC 12 and Clang 15 on x86-64 and AArch64).
#pragma once
#include <cstdint>
#include <cstring>

struct __half {
  uint16_t bits;
};
inline __half __float2half_rn(float v) {
  const _Float16 h = static_cast<_Float16>(v);
  __half out;
  std::memcpy(&out.bits, &h, 2);
  return out;
}
inline float __half2float(__half h) {
  _Float16 f;
  std::memcpy(&f, &h.bits, 2);
  return static_cast<float>(f);
}
