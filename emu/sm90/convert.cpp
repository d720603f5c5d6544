// emu/sm90/convert.cpp - number formats of the async units (see convert.h) ---//
#include "emu/sm90/convert.h"

#include <cmath>
#include <cstring>

namespace emu::sm90 {

uint32_t f32_bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

float f32_from_bits(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

float tf32_truncate(float x) {
  if (std::isnan(x))
    return f32_from_bits((f32_bits(x) & 0xFFFFE000u) | 0x00400000u);
  return f32_from_bits(f32_bits(x) & 0xFFFFE000u);
}

// A small float with `ebits` exponent bits, `mbits` mantissa bits and bias
// `bias`, decoded exactly: every such value is representable in f32.
static float decode_small(uint32_t v, int ebits, int mbits, int bias, bool has_inf) {
  bool neg = (v >> (ebits + mbits)) & 1;
  uint32_t e = (v >> mbits) & ((1u << ebits) - 1);
  uint32_t m = v & ((1u << mbits) - 1);
  float r;
  if (e == (1u << ebits) - 1 && has_inf)
    r = m == 0 ? INFINITY : NAN;
  else if (e == 0)
    r = std::ldexp(float(m), 1 - bias - mbits);
  else
    r = std::ldexp(float(m | (1u << mbits)), int(e) - bias - mbits);
  return neg ? -r : r;
}

float f16_to_f32(uint16_t h) { return decode_small(h, 5, 10, 15, true); }

float bf16_to_f32(uint16_t b) { return f32_from_bits(uint32_t(b) << 16); }

float e4m3_to_f32(uint8_t v) {
  if ((v & 0x7F) == 0x7F)
    return NAN; // E4M3 has no infinities; only S.1111.111 is NaN
  return decode_small(v, 4, 3, 7, false);
}

float e5m2_to_f32(uint8_t v) { return decode_small(v, 5, 2, 15, true); }

uint16_t f32_to_bf16_rn(float x) {
  uint32_t b = f32_bits(x);
  if (std::isnan(x))
    return uint16_t((b >> 16) | 0x0040u);
  uint32_t lsb = (b >> 16) & 1u;
  b += 0x7FFFu + lsb; // ties to even; a carry into the exponent rounds up to inf
  return uint16_t(b >> 16);
}

uint16_t f32_to_f16_rn(float x) { return f64_to_f16_rn(x); }

uint16_t f64_to_f16_rn(double x) {
  uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
  if (std::isnan(x))
    return uint16_t(sign | 0x7E00u);
  double a = std::fabs(x);
  if (a >= 65520.0) // halfway between 65504 and 2^16 rounds (to even) up: infinity
    return uint16_t(sign | 0x7C00u);
  if (a < 0x1p-14) {
    // Subnormal: units of 2^-24; nearbyint rounds ties to even by default.
    return uint16_t(sign | uint16_t(std::nearbyint(a * 0x1p24)));
  }
  int e;
  double f = std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
  // 11 significant bits: mantissa with its hidden bit, rounded to even.
  uint32_t sig = uint32_t(std::nearbyint(std::ldexp(f, 11)));
  if (sig == 2048) { // rounding carried into the next binade
    sig = 1024;
    ++e;
  }
  uint32_t exp = uint32_t(e - 1 + 15);
  if (exp >= 31)
    return uint16_t(sign | 0x7C00u);
  return uint16_t(sign | (exp << 10) | (sig & 0x3FFu));
}

} // namespace emu::sm90
