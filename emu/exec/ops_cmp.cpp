// emu/exec/ops_cmp.cpp - comparisons and predicates --------------------------//
// setp (every compare op, ordered and unordered float forms, .and/.or/.xor
// with a predicate, the `p|q` pair), set, selp, slct, and predicate logic.
#include "emu/exec/ops.h"

#include <cmath>

namespace emu::exec {

namespace {

enum Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum Bop : uint8_t { BNone, BAnd, BOr, BXor };

template <class T> inline bool cmp_int(uint8_t c, T a, T b) {
  switch (c) {
  case Eq: return a == b;
  case Ne: return a != b;
  case Lt: case Lo: return a < b;
  case Le: case Ls: return a <= b;
  case Gt: case Hi: return a > b;
  case Ge: case Hs: return a >= b;
  }
  return false;
}
template <class F> inline bool cmp_float(uint8_t c, F a, F b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (c) {
  case Eq: return !un && a == b;
  case Ne: return !un && a != b;
  case Lt: return !un && a < b;
  case Le: return !un && a <= b;
  case Gt: return !un && a > b;
  case Ge: return !un && a >= b;
  case Equ: return un || a == b;
  case Neu: return un || a != b;
  case Ltu: return un || a < b;
  case Leu: return un || a <= b;
  case Gtu: return un || a > b;
  case Geu: return un || a >= b;
  case Num: return !un;
  case Nan: return un;
  }
  return false;
}

inline bool combine(uint8_t op, bool v, bool c) {
  switch (op) {
  case BAnd: return v && c;
  case BOr: return v || c;
  case BXor: return v != c;
  }
  return v;
}

template <class T> bool compare(Exec &x, const DInstr &in, int l) {
  uint64_t a = rd(x, in.s[0], l), b = rd(x, in.s[1], l);
  if constexpr (std::is_same<T, float>::value)
    return cmp_float(in.sub, f32_of(a), f32_of(b));
  else if constexpr (std::is_same<T, double>::value)
    return cmp_float(in.sub, f64_of(a), f64_of(b));
  else
    return cmp_int<T>(in.sub, T(a), T(b));
}

// Half types compare as floats.
template <class T> bool compare_half(Exec &x, const DInstr &in, int l, int half) {
  uint16_t a = uint16_t(rd(x, in.s[0], l) >> (16 * half)), b = uint16_t(rd(x, in.s[1], l) >> (16 * half));
  float fa = in.ty == Ty::BF16 || in.ty == Ty::BF16x2 ? bf16_to_float(a) : half_to_float(a);
  float fb = in.ty == Ty::BF16 || in.ty == Ty::BF16x2 ? bf16_to_float(b) : half_to_float(b);
  return cmp_float(in.sub, fa, fb);
}

template <class T> void h_setp(Exec &x, const DInstr &in, uint32_t m) {
  const bool pair = in.d.kind == Opd::V;
  FOR_LANES(m, l) {
    bool v = compare<T>(x, in, l);
    bool c = in.sub2 != BNone ? rdp(x, in.s[2], l) : false;
    if (pair) {
      wr(x, in.d.elems[0], l, combine(in.sub2, v, c));
      wr(x, in.d.elems[1], l, combine(in.sub2, !v, c));
    } else {
      wr(x, in.d, l, combine(in.sub2, v, c));
    }
  }
}

void h_setp_half(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    bool v = compare_half<uint16_t>(x, in, l, 0);
    bool c = in.sub2 != BNone ? rdp(x, in.s[2], l) : false;
    if (in.d.kind == Opd::V) {
      if (in.ty == Ty::F16x2 || in.ty == Ty::BF16x2) { // p gets the low half, q the high
        bool hi = compare_half<uint16_t>(x, in, l, 1);
        wr(x, in.d.elems[0], l, combine(in.sub2, v, c));
        wr(x, in.d.elems[1], l, combine(in.sub2, hi, c));
      } else {
        wr(x, in.d.elems[0], l, combine(in.sub2, v, c));
        wr(x, in.d.elems[1], l, combine(in.sub2, !v, c));
      }
    } else {
      wr(x, in.d, l, combine(in.sub2, v, c));
    }
  }
}

// set.dtype.stype: all ones (or 1.0f) when true.
template <class T> void h_set(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    bool v = compare<T>(x, in, l);
    if (in.sub2 != BNone)
      v = combine(in.sub2, v, rdp(x, in.s[2], l));
    uint64_t r = in.ty2 == Ty::F32 ? (v ? bits_of(1.0f) : 0) : (v ? 0xffffffffu : 0);
    wr(x, in.d, l, r);
  }
}

void h_selp(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) wr(x, in.d, l, rdp(x, in.s[2], l) ? rd(x, in.s[0], l) : rd(x, in.s[1], l));
}

void h_slct(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    uint64_t cv = rd(x, in.s[2], l);
    bool ge = in.ty2 == Ty::F32 ? !(f32_of(cv) < 0.0f) : int32_t(cv) >= 0;
    wr(x, in.d, l, ge ? rd(x, in.s[0], l) : rd(x, in.s[1], l));
  }
}

void h_pred_logic(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    bool a = rdp(x, in.s[0], l);
    bool r;
    switch (in.sub) {
    case 0: r = a && rdp(x, in.s[1], l); break;
    case 1: r = a || rdp(x, in.s[1], l); break;
    case 2: r = a != rdp(x, in.s[1], l); break;
    default: r = !a; break;
    }
    wr(x, in.d, l, r);
  }
}

template <class T> struct SetpOf { static Handler get() { return h_setp<T>; } };
template <class T> struct SetOf { static Handler get() { return h_set<T>; } };

template <template <class> class H> Handler by_cmp_type(Ty t) {
  switch (t) {
  case Ty::F32: return H<float>::get();
  case Ty::F64: return H<double>::get();
  default: return by_int_type<H>(t);
  }
}

bool cmp_of(const DecodeCtx &c, uint8_t &cmp, uint8_t &bop) {
  static const char *names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  bool found = false;
  bop = BNone;
  for (const std::string &m : c.in->mods) {
    for (int i = 0; i < 18; ++i)
      if (m == names[i]) {
        cmp = uint8_t(i);
        found = true;
      }
    if (m == "and") bop = BAnd;
    if (m == "or") bop = BOr;
    if (m == "xor") bop = BXor;
  }
  return found;
}

} // namespace

bool decode_cmp(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  const std::string &op = in.opcode;
  if (op == "setp" || op == "set") {
    Ty dt, st;
    dt = first_type(in, &st);
    Ty t = op == "setp" ? dt : st; // set.dtype.stype
    d.ty = t;
    d.ty2 = dt;
    if (!cmp_of(c, d.sub, d.sub2))
      return true;
    d.d = c.opd(0);
    d.s[0] = c.opd(1, t);
    d.s[1] = c.opd(2, t);
    if (d.sub2 != BNone)
      d.s[2] = c.opd(3);
    if (op == "set") {
      d.run = (dt == Ty::U32 || dt == Ty::S32 || dt == Ty::F32 || dt == Ty::B32) ? by_cmp_type<SetOf>(t) : nullptr;
      return true;
    }
    if (t == Ty::F16 || t == Ty::BF16 || t == Ty::F16x2 || t == Ty::BF16x2)
      d.run = h_setp_half;
    else
      d.run = by_cmp_type<SetpOf>(t);
    return true;
  }
  if (op == "selp") {
    d.ty = first_type(in);
    d.d = c.opd(0, d.ty);
    d.s[0] = c.opd(1, d.ty);
    d.s[1] = c.opd(2, d.ty);
    d.s[2] = c.opd(3);
    d.run = h_selp;
    return true;
  }
  if (op == "slct") {
    Ty st;
    d.ty = first_type(in, &st);
    d.ty2 = st;
    d.d = c.opd(0, d.ty);
    d.s[0] = c.opd(1, d.ty);
    d.s[1] = c.opd(2, d.ty);
    d.s[2] = c.opd(3, st);
    d.run = h_slct;
    return true;
  }
  if ((op == "and" || op == "or" || op == "xor" || op == "not") && first_type(in) == Ty::Pred) {
    d.ty = Ty::Pred;
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.sub = op == "and" ? 0 : op == "or" ? 1 : op == "xor" ? 2 : 3;
    d.run = h_pred_logic;
    return true;
  }
  return false;
}

} // namespace emu::exec
