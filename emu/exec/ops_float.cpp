// emu/exec/ops_float.cpp - floating-point arithmetic -------------------------//
// f32/f64: add/sub/mul/fma/mad/div/rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh,
// min/max (.NaN, .xorsign.abs), abs/neg/copysign/testp, with rounding modes,
// .ftz and .sat. f16/bf16 (scalar and x2): add/sub/mul/fma/min/max/neg/abs,
// computed exactly in double and rounded once. The .approx functions use the
// host's libm (more accurate than the hardware's approximations).
#include "emu/exec/ops.h"

#include <cfenv>
#include <cmath>
#include <iterator>
#include <limits>

namespace emu::exec {

namespace {

enum FOp : uint8_t {
  FAdd, FSub, FMul, FFma, FDiv, FRcp, FSqrt, FRsqrt, FEx2, FLg2, FSin, FCos, FTanh, FMin, FMax,
  FAbs, FNeg, FCopysign, FTestp,
};

inline float ftz(float v) { return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v; }
inline float sat(float v) { return std::isnan(v) ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }
inline double sat(double v) { return std::isnan(v) ? 0.0 : v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

template <class F> F fmin_ptx(F a, F b, bool nan) {
  if (std::isnan(a) || std::isnan(b)) {
    if (nan || (std::isnan(a) && std::isnan(b)))
      return std::numeric_limits<F>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class F> F fmax_ptx(F a, F b, bool nan) {
  if (std::isnan(a) || std::isnan(b)) {
    if (nan || (std::isnan(a) && std::isnan(b)))
      return std::numeric_limits<F>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// One f32 result in rounding mode r (the exact result first in double).
inline float round_f32(double exact, Round r) { return r == Round::Rn ? float(exact) : double_to_float(exact, r); }

float f32_op(const DInstr &in, float a, float b, float c) {
  const bool z = in.flags & kFtz;
  if (z) {
    a = ftz(a), b = ftz(b), c = ftz(c);
  }
  float r = 0;
  switch (in.sub) {
  case FAdd: r = in.rnd == Round::Rn ? a + b : round_f32(double(a) + double(b), in.rnd); break;
  case FSub: r = in.rnd == Round::Rn ? a - b : round_f32(double(a) - double(b), in.rnd); break;
  case FMul: r = in.rnd == Round::Rn ? a * b : round_f32(double(a) * double(b), in.rnd); break;
  case FFma: r = in.rnd == Round::Rn ? std::fmaf(a, b, c) : round_f32(std::fma(double(a), double(b), double(c)), in.rnd); break;
  case FDiv: r = (in.flags & (kApprox | kFull)) || in.rnd == Round::Rn ? a / b : round_f32(double(a) / double(b), in.rnd); break;
  case FRcp: r = (in.flags & kApprox) || in.rnd == Round::Rn ? 1.0f / a : round_f32(1.0 / double(a), in.rnd); break;
  case FSqrt: r = (in.flags & kApprox) || in.rnd == Round::Rn ? std::sqrt(a) : round_f32(std::sqrt(double(a)), in.rnd); break;
  case FRsqrt: r = 1.0f / std::sqrt(a); break;
  case FEx2: r = std::exp2(a); break;
  case FLg2: r = std::log2(a); break;
  case FSin: r = std::sin(a); break;
  case FCos: r = std::cos(a); break;
  case FTanh: r = std::tanh(a); break;
  case FMin: r = fmin_ptx(a, b, in.flags & kNaN); break;
  case FMax: r = fmax_ptx(a, b, in.flags & kNaN); break;
  case FAbs: r = std::fabs(a); break;
  case FNeg: r = -a; break;
  case FCopysign: r = std::copysign(b, a); break;
  }
  if (z)
    r = ftz(r);
  if (in.flags & kSat)
    r = sat(r);
  return r;
}

double f64_op(const DInstr &in, double a, double b, double c) {
  double r = 0;
  // Directed rounding for f64 add/mul/fma/div/sqrt uses the host's rounding mode.
  int old = 0;
  bool directed = in.rnd != Round::Rn && (in.sub <= FSqrt);
  if (directed) {
    old = std::fegetround();
    std::fesetround(in.rnd == Round::Rz ? FE_TOWARDZERO : in.rnd == Round::Rm ? FE_DOWNWARD : FE_UPWARD);
  }
  switch (in.sub) {
  case FAdd: r = a + b; break;
  case FSub: r = a - b; break;
  case FMul: r = a * b; break;
  case FFma: r = std::fma(a, b, c); break;
  case FDiv: r = a / b; break;
  case FRcp: r = 1.0 / a; break;
  case FSqrt: r = std::sqrt(a); break;
  case FRsqrt: r = 1.0 / std::sqrt(a); break;
  case FEx2: r = std::exp2(a); break;
  case FLg2: r = std::log2(a); break;
  case FSin: r = std::sin(a); break;
  case FCos: r = std::cos(a); break;
  case FTanh: r = std::tanh(a); break;
  case FMin: r = fmin_ptx(a, b, in.flags & kNaN); break;
  case FMax: r = fmax_ptx(a, b, in.flags & kNaN); break;
  case FAbs: r = std::fabs(a); break;
  case FNeg: r = -a; break;
  case FCopysign: r = std::copysign(b, a); break;
  }
  if (directed)
    std::fesetround(old);
  if (in.flags & kSat)
    r = sat(r);
  return r;
}

void h_f32(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    float a = f32_of(rd(x, in.s[0], l)), b = f32_of(rd(x, in.s[1], l)), c = f32_of(rd(x, in.s[2], l));
    wr(x, in.d, l, bits_of(f32_op(in, a, b, c)));
  }
}

// The hot three, without the general switch.
template <int op> void h_f32_fast(Exec &x, const DInstr &in, uint32_t m) {
  if (in.s[0].kind == Opd::R && in.s[1].kind == Opd::R && in.d.kind == Opd::R &&
      (op != FFma || in.s[2].kind == Opd::R)) {
    const uint64_t *pa = x.regs + size_t(in.s[0].slot) * 32, *pb = x.regs + size_t(in.s[1].slot) * 32;
    const uint64_t *pc = op == FFma ? x.regs + size_t(in.s[2].slot) * 32 : nullptr;
    uint64_t *pd = x.regs + size_t(in.d.slot) * 32;
    FOR_LANES(m, l) {
      float a = f32_of(pa[l]), b = f32_of(pb[l]);
      float r = op == FAdd ? a + b : op == FMul ? a * b : op == FSub ? a - b : std::fmaf(a, b, f32_of(pc[l]));
      pd[l] = bits_of(r);
    }
    return;
  }
  FOR_LANES(m, l) {
    float a = f32_of(rd(x, in.s[0], l)), b = f32_of(rd(x, in.s[1], l));
    float r = op == FAdd ? a + b : op == FMul ? a * b : op == FSub ? a - b
                                 : std::fmaf(a, b, f32_of(rd(x, in.s[2], l)));
    wr(x, in.d, l, bits_of(r));
  }
}

void h_f64(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    double a = f64_of(rd(x, in.s[0], l)), b = f64_of(rd(x, in.s[1], l)), c = f64_of(rd(x, in.s[2], l));
    wr(x, in.d, l, bits_of(f64_op(in, a, b, c)));
  }
}

// f16/bf16, scalar or x2: each half computed in double and rounded once.
void h_half(Exec &x, const DInstr &in, uint32_t m) {
  const bool bf = in.ty == Ty::BF16 || in.ty == Ty::BF16x2;
  const int halves = (in.ty == Ty::F16x2 || in.ty == Ty::BF16x2) ? 2 : 1;
  FOR_LANES(m, l) {
    uint64_t va = rd(x, in.s[0], l), vb = rd(x, in.s[1], l), vc = rd(x, in.s[2], l), out = 0;
    for (int h = 0; h < halves; ++h) {
      auto get = [&](uint64_t v) {
        uint16_t u = uint16_t(v >> (16 * h));
        return double(bf ? bf16_to_float(u) : half_to_float(u));
      };
      double a = get(va), b = get(vb), c = get(vc), r = 0;
      switch (in.sub) {
      case FAdd: r = a + b; break;
      case FSub: r = a - b; break;
      case FMul: r = a * b; break;
      case FFma: r = a * b + c; break;
      case FMin: r = fmin_ptx(a, b, in.flags & kNaN); break;
      case FMax: r = fmax_ptx(a, b, in.flags & kNaN); break;
      case FNeg: r = -a; break;
      case FAbs: r = std::fabs(a); break;
      default: r = std::nan(""); break;
      }
      if (in.flags & kRelu && !std::isnan(r) && r < 0)
        r = 0;
      if (in.flags & kSat)
        r = sat(r);
      uint16_t o = bf ? double_to_bf16(r, in.rnd) : double_to_half(r, in.rnd);
      if (std::isnan(r))
        o = bf ? 0x7fff : 0x7fff;
      if (in.sub == FNeg && !std::isnan(a)) // neg/abs are bit operations
        o = uint16_t((va >> (16 * h)) ^ 0x8000);
      if (in.sub == FAbs)
        o = uint16_t((va >> (16 * h)) & 0x7fff);
      out |= uint64_t(o) << (16 * h);
    }
    wr(x, in.d, l, out);
  }
}

void h_testp(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    double v = in.ty == Ty::F64 ? f64_of(rd(x, in.s[0], l)) : double(f32_of(rd(x, in.s[0], l)));
    int cls = in.ty == Ty::F64 ? std::fpclassify(v) : std::fpclassify(float(v));
    bool r = false;
    switch (in.sub2) {
    case 0: r = std::isfinite(v); break;
    case 1: r = std::isinf(v); break;
    case 2: r = !std::isnan(v); break;
    case 3: r = std::isnan(v); break;
    case 4: r = cls == FP_NORMAL; break;
    case 5: r = cls == FP_SUBNORMAL; break;
    }
    wr(x, in.d, l, r);
  }
}

} // namespace

bool decode_float(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  const std::string &op = in.opcode;
  Ty t = first_type(in);
  if (!is_float(t) || t == Ty::TF32)
    return false;
  static const struct { const char *n; FOp o; int nsrc; } ops[] = {
      {"add", FAdd, 2}, {"sub", FSub, 2}, {"mul", FMul, 2}, {"fma", FFma, 3}, {"mad", FFma, 3},
      {"div", FDiv, 2}, {"rcp", FRcp, 1}, {"sqrt", FSqrt, 1}, {"rsqrt", FRsqrt, 1},
      {"ex2", FEx2, 1}, {"lg2", FLg2, 1}, {"sin", FSin, 1}, {"cos", FCos, 1}, {"tanh", FTanh, 1},
      {"min", FMin, 2}, {"max", FMax, 2}, {"abs", FAbs, 1}, {"neg", FNeg, 1},
      {"copysign", FCopysign, 2}, {"testp", FTestp, 1},
  };
  const auto *e = &ops[0];
  for (; e != std::end(ops); ++e)
    if (op == e->n)
      break;
  if (e == std::end(ops))
    return false;
  d.ty = t;
  d.sub = e->o;
  bool given = false;
  d.rnd = round_of(in, &given);
  d.flags |= (c.has("ftz") ? kFtz : 0) | (c.has("sat") ? kSat : 0) | (c.has("approx") ? kApprox : 0) |
             (c.has("full") ? kFull : 0) | (c.has("NaN") ? kNaN : 0) | (c.has("relu") ? kRelu : 0);
  d.d = c.opd(0, t);
  for (int i = 0; i < e->nsrc; ++i)
    d.s[i] = c.opd(size_t(i) + 1, t);
  if (c.has("xorsign"))
    return true; // min/max.xorsign.abs: not emitted by nvcc for these kernels
  if (e->o == FTestp) {
    static const char *cls[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
    for (int i = 0; i < 6; ++i)
      if (c.has(cls[i]))
        d.sub2 = uint8_t(i), d.run = h_testp;
    return true;
  }
  if (t == Ty::F32) {
    bool plain = !(d.flags & (kFtz | kSat)) && d.rnd == Round::Rn;
    if (plain && e->o == FAdd) d.run = h_f32_fast<FAdd>;
    else if (plain && e->o == FSub) d.run = h_f32_fast<FSub>;
    else if (plain && e->o == FMul) d.run = h_f32_fast<FMul>;
    else if (plain && e->o == FFma) d.run = h_f32_fast<FFma>;
    else d.run = h_f32;
  } else if (t == Ty::F64) {
    d.run = h_f64;
  } else if (e->o == FAdd || e->o == FSub || e->o == FMul || e->o == FFma || e->o == FMin ||
             e->o == FMax || e->o == FNeg || e->o == FAbs) {
    d.run = h_half;
  }
  return true;
}

} // namespace emu::exec
