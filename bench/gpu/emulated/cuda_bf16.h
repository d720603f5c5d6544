// cuda_bf16.h (emulated) - bf16 as its 16 bits, conversions rounding to nearest even ---//
#pragma once
#include <cstdint>
#include <cstring>

struct __nv_bfloat16 {
  uint16_t bits;
};
inline __nv_bfloat16 __float2bfloat16_rn(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  b += 0x7FFFu + ((b >> 16) & 1);
  return {uint16_t(b >> 16)};
}
inline float __bfloat162float(__nv_bfloat16 h) {
  const uint32_t b = uint32_t(h.bits) << 16;
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}
