// emu/exec/types.cpp - type names and the narrow-float conversions ----------//
#include "emu/exec/types.h"

#include <cfenv>
#include <cmath>
#include <limits>

namespace emu::exec {

Ty type_from_name(const std::string &s) {
  static const struct { const char *n; Ty t; } table[] = {
      {"pred", Ty::Pred}, {"b8", Ty::B8}, {"b16", Ty::B16}, {"b32", Ty::B32}, {"b64", Ty::B64},
      {"b128", Ty::B128}, {"u8", Ty::U8}, {"u16", Ty::U16}, {"u32", Ty::U32}, {"u64", Ty::U64},
      {"s8", Ty::S8}, {"s16", Ty::S16}, {"s32", Ty::S32}, {"s64", Ty::S64}, {"f16", Ty::F16},
      {"f16x2", Ty::F16x2}, {"bf16", Ty::BF16}, {"bf16x2", Ty::BF16x2}, {"f32", Ty::F32},
      {"f64", Ty::F64}, {"tf32", Ty::TF32}, {"e4m3", Ty::E4M3}, {"e5m2", Ty::E5M2},
      {"e4m3x2", Ty::E4M3x2}, {"e5m2x2", Ty::E5M2x2},
  };
  for (const auto &e : table)
    if (s == e.n)
      return e.t;
  return Ty::None;
}

const char *type_name(Ty t) {
  switch (t) {
  case Ty::Pred: return "pred"; case Ty::B8: return "b8"; case Ty::B16: return "b16";
  case Ty::B32: return "b32"; case Ty::B64: return "b64"; case Ty::B128: return "b128";
  case Ty::U8: return "u8"; case Ty::U16: return "u16"; case Ty::U32: return "u32";
  case Ty::U64: return "u64"; case Ty::S8: return "s8"; case Ty::S16: return "s16";
  case Ty::S32: return "s32"; case Ty::S64: return "s64"; case Ty::F16: return "f16";
  case Ty::F16x2: return "f16x2"; case Ty::BF16: return "bf16"; case Ty::BF16x2: return "bf16x2";
  case Ty::F32: return "f32"; case Ty::F64: return "f64"; case Ty::TF32: return "tf32";
  case Ty::E4M3: return "e4m3"; case Ty::E5M2: return "e5m2"; case Ty::E4M3x2: return "e4m3x2";
  case Ty::E5M2x2: return "e5m2x2"; default: return "?";
  }
}

// A generic binary-float encoder: rounds a finite double to a format with
// `mant` stored mantissa bits, exponent bias `bias`, max biased exponent
// `emax_biased` (all-ones reserved for inf/NaN unless `no_inf`).
namespace {
struct Fmt {
  int mant, ebits, bias;
  bool ieee_inf; // all-ones exponent is inf/NaN (f16, bf16, e5m2); e4m3 has no inf
};

double rnd(double x, Round r) {
  switch (r) {
  case Round::Rn: return std::nearbyint(x); // the default FE_TONEAREST mode: ties to even
  case Round::Rz: return std::trunc(x);
  case Round::Rm: return std::floor(x);
  case Round::Rp: return std::ceil(x);
  case Round::Rna: return std::round(x);
  }
  return x;
}

uint32_t encode(double d, Fmt f, Round r, bool satfinite) {
  uint32_t sign = std::signbit(d) ? 1u : 0u;
  uint32_t sbit = sign << (f.mant + f.ebits);
  int emax_field = (1 << f.ebits) - 1;
  // The largest finite value: for e4m3 the all-ones exponent is usable except mantissa all ones.
  double maxfin = f.ieee_inf ? std::ldexp(2.0 - std::ldexp(1.0, -f.mant), emax_field - 1 - f.bias)
                             : std::ldexp(2.0 - std::ldexp(1.0, 1 - f.mant), emax_field - f.bias);
  uint32_t nan = f.ieee_inf ? ((uint32_t(emax_field) << f.mant) | (1u << (f.mant - 1)))
                            : ((uint32_t(emax_field) << f.mant) | ((1u << f.mant) - 1));
  uint32_t inf = uint32_t(emax_field) << f.mant;
  uint32_t maxbits = f.ieee_inf ? (((uint32_t(emax_field) - 1) << f.mant) | ((1u << f.mant) - 1))
                                : ((uint32_t(emax_field) << f.mant) | ((1u << f.mant) - 2));
  if (std::isnan(d))
    return (f.ieee_inf ? 0 : sbit) | nan;
  double a = std::fabs(d);
  if (std::isinf(d))
    return satfinite ? (sbit | maxbits) : (f.ieee_inf ? (sbit | inf) : (sbit | nan));
  if (a == 0)
    return sbit;
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;   // a = 1.x * 2^exp
  int emin = 1 - f.bias;
  if (exp < emin)
    exp = emin; // subnormal: fixed quantum
  double q = std::ldexp(1.0, exp - f.mant);
  // Directed modes round the magnitude; flip for negatives.
  Round rm = r;
  if (sign && r == Round::Rm) rm = Round::Rp;
  else if (sign && r == Round::Rp) rm = Round::Rm;
  double m = rnd(a / q, rm) * q;
  if (m > maxfin) {
    bool to_inf = rm == Round::Rn || rm == Round::Rna || rm == Round::Rp;
    if (satfinite || !to_inf || !f.ieee_inf)
      return (satfinite || !to_inf) ? (sbit | maxbits) : (sbit | nan);
    return sbit | inf;
  }
  if (m == 0)
    return sbit;
  int e2;
  std::frexp(m, &e2);
  int ex = e2 - 1;
  if (ex < emin) // subnormal
    return sbit | uint32_t(m / std::ldexp(1.0, emin - f.mant));
  uint32_t field = uint32_t(ex + f.bias);
  uint32_t frac = uint32_t((m / std::ldexp(1.0, ex) - 1.0) * std::ldexp(1.0, f.mant));
  return sbit | (field << f.mant) | frac;
}

double decode(uint32_t v, Fmt f) {
  uint32_t sign = (v >> (f.mant + f.ebits)) & 1;
  uint32_t ef = (v >> f.mant) & ((1u << f.ebits) - 1);
  uint32_t frac = v & ((1u << f.mant) - 1);
  double r;
  if (f.ieee_inf && ef == uint32_t((1 << f.ebits) - 1))
    r = frac ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (!f.ieee_inf && ef == uint32_t((1 << f.ebits) - 1) && frac == uint32_t((1 << f.mant) - 1))
    r = std::numeric_limits<double>::quiet_NaN();
  else if (ef == 0)
    r = std::ldexp(double(frac), 1 - f.bias - f.mant);
  else
    r = std::ldexp(1.0 + std::ldexp(double(frac), -f.mant), int(ef) - f.bias);
  return sign ? -r : r;
}

const Fmt kHalf{10, 5, 15, true}, kBf16{7, 8, 127, true}, kE4m3{3, 4, 7, false},
    kE5m2{2, 5, 15, true};
} // namespace

float half_to_float(uint16_t h) { return float(decode(h, kHalf)); }
uint16_t float_to_half(float f, Round r, bool sat) { return uint16_t(encode(f, kHalf, r, sat)); }
uint16_t double_to_half(double d, Round r) { return uint16_t(encode(d, kHalf, r, false)); }
float bf16_to_float(uint16_t h) {
  uint32_t b = uint32_t(h) << 16;
  return f32_of(b);
}
uint16_t float_to_bf16(float f, Round r, bool sat) {
  if (std::isnan(f))
    return 0x7fff;
  return uint16_t(encode(f, kBf16, r, sat));
}
uint16_t double_to_bf16(double d, Round r) {
  if (std::isnan(d))
    return 0x7fff;
  return uint16_t(encode(d, kBf16, r, false));
}
float fp8_to_float(uint8_t v, bool e5m2) { return float(decode(v, e5m2 ? kE5m2 : kE4m3)); }
uint8_t float_to_fp8(float f, bool e5m2, bool sat) {
  return uint8_t(encode(f, e5m2 ? kE5m2 : kE4m3, Round::Rn, sat));
}

uint32_t float_to_tf32(float f, Round r, bool satfinite) {
  uint32_t b = uint32_t(bits_of(f));
  if (std::isnan(f))
    return 0x7fffffff;
  if (std::isinf(f))
    return b;
  // Round the 23-bit mantissa to 10 bits, keeping an f32 layout.
  const Fmt tf{10, 8, 127, true};
  uint32_t e = encode(f, tf, r, satfinite);
  return e << 13;
}

float double_to_float(double d, Round r) {
  if (std::isnan(d) || std::isinf(d) || r == Round::Rn)
    return float(d);
  const Fmt f32{23, 8, 127, true};
  return f32_of(encode(d, f32, r, false));
}

double round_integral(double d, Round r) { return rnd(d, r); }

} // namespace emu::exec
