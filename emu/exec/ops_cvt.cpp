// emu/exec/ops_cvt.cpp - cvt between every integer and float type ------------//
// A source value is read exactly (an integer as int64/uint64, any float as a
// double, which holds f16/bf16/tf32/f32 exactly) and written once in the
// destination type with the instruction's rounding, .sat, .relu, .satfinite
// and .ftz. Float to integer saturates and maps NaN to 0, as the ISA says.
// Packing forms: cvt.rn(.relu)(.satfinite).{f16x2,bf16x2}.f32 d, a, b puts a
// in the upper half; cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 likewise.
#include "emu/exec/ops.h"

#include <cmath>
#include <limits>

namespace emu::exec {

namespace {

double read_float(Ty t, uint64_t v) {
  switch (t) {
  case Ty::F16: return half_to_float(uint16_t(v));
  case Ty::BF16: return bf16_to_float(uint16_t(v));
  case Ty::F32: case Ty::TF32: return f32_of(v);
  case Ty::F64: return f64_of(v);
  case Ty::E4M3: return fp8_to_float(uint8_t(v), false);
  case Ty::E5M2: return fp8_to_float(uint8_t(v), true);
  default: return 0;
  }
}

uint64_t int_range_clamp(long double v, Ty t) {
  unsigned bits = type_bits(t);
  if (is_signed(t)) {
    long double lo = -std::ldexp(1.0L, int(bits) - 1), hi = std::ldexp(1.0L, int(bits) - 1) - 1;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return extend(uint64_t(int64_t(v)), bits, true);
  }
  long double hi = std::ldexp(1.0L, int(bits)) - 1;
  if (v < 0) v = 0;
  if (v > hi) v = hi;
  return uint64_t(v);
}

uint64_t write_float(Ty t, double v, Round r, uint32_t flags) {
  if (flags & kRelu && !std::isnan(v) && v < 0)
    v = 0;
  if (flags & kSat)
    v = std::isnan(v) ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
  const bool sf = flags & kSatfinite;
  switch (t) {
  case Ty::F16: { // .satfinite: an infinity becomes the largest finite value
    uint16_t h = double_to_half(v, r);
    return sf && (h & 0x7fff) == 0x7c00 ? uint16_t((h & 0x8000) | 0x7bff) : h;
  }
  case Ty::BF16: {
    uint16_t h = double_to_bf16(v, r);
    return sf && (h & 0x7fff) == 0x7f80 ? uint16_t((h & 0x8000) | 0x7f7f) : h;
  }
  case Ty::TF32: return float_to_tf32(float(v), r, sf);
  case Ty::F32: {
    float f = double_to_float(v, r);
    if (flags & kFtz && std::fpclassify(f) == FP_SUBNORMAL)
      f = std::copysign(0.0f, f);
    return bits_of(f);
  }
  case Ty::F64: return bits_of(v);
  case Ty::E4M3: return float_to_fp8(float(v), false, sf);
  case Ty::E5M2: return float_to_fp8(float(v), true, sf);
  default: return 0;
  }
}

void h_cvt(Exec &x, const DInstr &in, uint32_t m) {
  const Ty dt = in.ty, st = in.ty2;
  const bool round_int = in.sub; // .rni/.rzi/.rmi/.rpi on a float-to-float cvt
  FOR_LANES(m, l) {
    uint64_t v = rd(x, in.s[0], l), o = 0;
    if (is_float(st) || st == Ty::E4M3 || st == Ty::E5M2) {
      double f = read_float(st, v);
      if (in.flags & kFtz && st == Ty::F32 && std::fpclassify(float(f)) == FP_SUBNORMAL)
        f = std::copysign(0.0, f);
      if (is_float(dt) || dt == Ty::E4M3 || dt == Ty::E5M2) {
        if (round_int)
          f = round_integral(f, in.rnd);
        o = write_float(dt, f, in.rnd, in.flags);
      } else if (std::isnan(f)) {
        o = 0;
      } else {
        o = int_range_clamp(round_integral(f, in.rnd), dt);
      }
    } else {
      unsigned sb = type_bits(st);
      uint64_t e = extend(v, sb, is_signed(st));
      if (is_float(dt) || dt == Ty::E4M3 || dt == Ty::E5M2) {
        // Exact in long double (64-bit mantissa), then one rounding to the target.
        long double iv = is_signed(st) ? (long double)int64_t(e) : (long double)e;
        double dv = double(iv);
        if ((long double)dv != iv && in.rnd != Round::Rn) // 64-bit ints beyond 2^53: direct the rounding
          dv = in.rnd == Round::Rz ? (std::fabs((long double)dv) > std::fabs(iv) ? std::nextafter(dv, 0.0) : dv)
               : in.rnd == Round::Rm ? ((long double)dv > iv ? std::nextafter(dv, -INFINITY) : dv)
                                     : ((long double)dv < iv ? std::nextafter(dv, INFINITY) : dv);
        o = write_float(dt, dv, in.rnd, in.flags);
      } else if (in.flags & kSat) {
        long double iv = is_signed(st) ? (long double)int64_t(e) : (long double)e;
        o = int_range_clamp(iv, dt);
      } else {
        o = extend(e, type_bits(dt), is_signed(dt));
      }
    }
    wr(x, in.d, l, o);
  }
}

// cvt.rn.f16x2.f32 d, a, b: d = {hi: cvt(a), lo: cvt(b)} (and bf16x2, e4m3x2, e5m2x2).
void h_cvt_pack(Exec &x, const DInstr &in, uint32_t m) {
  Ty half = in.ty == Ty::F16x2 ? Ty::F16 : in.ty == Ty::BF16x2 ? Ty::BF16
            : in.ty == Ty::E4M3x2 ? Ty::E4M3 : Ty::E5M2;
  unsigned w = type_bits(in.ty) / 2;
  FOR_LANES(m, l) {
    double a = read_float(in.ty2, rd(x, in.s[0], l)), b = read_float(in.ty2, rd(x, in.s[1], l));
    uint64_t hi = write_float(half, a, in.rnd, in.flags), lo = write_float(half, b, in.rnd, in.flags);
    wr(x, in.d, l, (hi << w) | lo);
  }
}

} // namespace

bool decode_cvt(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  if (in.opcode != "cvt")
    return false;
  Ty st;
  Ty dt = first_type(in, &st);
  d.ty = dt;
  d.ty2 = st;
  bool given = false;
  d.rnd = round_of(in, &given);
  for (const std::string &m : in.mods)
    if (m == "rni" || m == "rzi" || m == "rmi" || m == "rpi")
      d.sub = 1;
  d.flags |= (c.has("ftz") ? kFtz : 0) | (c.has("sat") ? kSat : 0) | (c.has("relu") ? kRelu : 0) |
             (c.has("satfinite") ? kSatfinite : 0);
  // Float to integer rounds with the .rXi modes; the default is an error in PTX,
  // but the integer modifiers name the mode (d.sub marks them only for float to float).
  if (is_float(st) && !is_float(dt) && d.sub)
    d.sub = 0;
  if (is_float(st) && !is_float(dt) && !given)
    d.rnd = Round::Rz; // PTX requires a mode; be safe
  d.d = c.opd(0, dt);
  d.s[0] = c.opd(1, st);
  if (dt == Ty::F16x2 || dt == Ty::BF16x2 || dt == Ty::E4M3x2 || dt == Ty::E5M2x2) {
    if (st != Ty::F32 || c.nops() != 3)
      return true;
    d.s[1] = c.opd(2, st);
    d.run = h_cvt_pack;
    return true;
  }
  if (dt == Ty::None || st == Ty::None || dt == Ty::Pred || st == Ty::Pred || st == Ty::F16x2 ||
      st == Ty::BF16x2 || st == Ty::E4M3x2 || st == Ty::E5M2x2)
    return true;
  d.run = h_cvt;
  return true;
}

} // namespace emu::exec
