// emu/exec/types.h - PTX value types and the bit-level conversions they need //
// Owns: the type enum decoded from an instruction's modifiers, its width and
// kind, and the half/bfloat16/tf32 conversions (round to nearest even unless
// said otherwise). Registers hold 64-bit slots: a value of a narrower type is
// kept in the low bits (signed types sign-extended), and every reader
// truncates to the type it reads, so a slot's upper bits never matter.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace emu::exec {

enum class Ty : uint8_t {
  None, Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64, TF32,
  E4M3, E5M2, E4M3x2, E5M2x2,
};

/// The type named by a modifier ("u32", "f16x2", ...), or None.
Ty type_from_name(const std::string &s);
const char *type_name(Ty t);

inline unsigned type_bits(Ty t) {
  switch (t) {
  case Ty::Pred: return 1;
  case Ty::B8: case Ty::U8: case Ty::S8: case Ty::E4M3: case Ty::E5M2: return 8;
  case Ty::B16: case Ty::U16: case Ty::S16: case Ty::F16: case Ty::BF16:
  case Ty::E4M3x2: case Ty::E5M2x2: return 16;
  case Ty::B32: case Ty::U32: case Ty::S32: case Ty::F32: case Ty::F16x2: case Ty::BF16x2:
  case Ty::TF32: return 32;
  case Ty::B64: case Ty::U64: case Ty::S64: case Ty::F64: return 64;
  case Ty::B128: return 128;
  default: return 0;
  }
}
inline bool is_signed(Ty t) { return t == Ty::S8 || t == Ty::S16 || t == Ty::S32 || t == Ty::S64; }
inline bool is_float(Ty t) {
  return t == Ty::F16 || t == Ty::F16x2 || t == Ty::BF16 || t == Ty::BF16x2 || t == Ty::F32 ||
         t == Ty::F64 || t == Ty::TF32;
}
inline bool is_int(Ty t) { return !is_float(t) && t != Ty::None && t != Ty::Pred; }

/// Truncates `v` to `bits` and extends it back to 64 (sign or zero).
inline uint64_t extend(uint64_t v, unsigned bits, bool sign) {
  if (bits >= 64)
    return v;
  uint64_t m = (uint64_t(1) << bits) - 1;
  v &= m;
  if (sign && (v >> (bits - 1)) & 1)
    v |= ~m;
  return v;
}

inline float f32_of(uint64_t bits) {
  uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint64_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline double f64_of(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
inline uint64_t bits_of(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

/// Rounding modes of cvt and the float arithmetic.
enum class Round : uint8_t { Rn, Rz, Rm, Rp, Rna };

float half_to_float(uint16_t h);
uint16_t float_to_half(float f, Round r = Round::Rn, bool satfinite = false);
float bf16_to_float(uint16_t h);
uint16_t float_to_bf16(float f, Round r = Round::Rn, bool satfinite = false);
/// f16/bf16 from a double (cvt.f16.f64 rounds once, from the double).
uint16_t double_to_half(double d, Round r);
uint16_t double_to_bf16(double d, Round r);
/// tf32 as hardware keeps it: an f32 with the low 13 mantissa bits cleared.
uint32_t float_to_tf32(float f, Round r = Round::Rna, bool satfinite = false);
/// FP8 (e4m3 / e5m2) to float, and float to FP8 with .satfinite.
float fp8_to_float(uint8_t v, bool e5m2);
uint8_t float_to_fp8(float f, bool e5m2, bool satfinite);

/// f32 rounding of a double in the given mode (cvt.rz.f32.f64 ...).
float double_to_float(double d, Round r);
/// Rounds a double to an integral value in the given mode (rni/rzi/rmi/rpi).
double round_integral(double d, Round r);

} // namespace emu::exec
