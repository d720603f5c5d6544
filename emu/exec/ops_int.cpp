// emu/exec/ops_int.cpp - integer and bit arithmetic --------------------------//
// add/sub/mul/mad (.lo/.hi/.wide, .sat, .cc carry chains), mul24/mad24,
// div/rem (division by zero gives the hardware's all-ones quotient), min/max,
// abs/neg, and/or/xor/not/cnot, shl/shr, popc/clz/brev/bfind/fns, bfe/bfi,
// prmt (every mode), lop3, sad. Handlers are instantiated per C++ type.
#include "emu/exec/ops.h"

#include <type_traits>

namespace emu::exec {

namespace {

template <class T> inline uint64_t out(T v) {
  if constexpr (std::is_signed<T>::value)
    return uint64_t(int64_t(v));
  else
    return uint64_t(v);
}

template <class T> struct Wide;
template <> struct Wide<int16_t> { using type = int32_t; };
template <> struct Wide<uint16_t> { using type = uint32_t; };
template <> struct Wide<int32_t> { using type = int64_t; };
template <> struct Wide<uint32_t> { using type = uint64_t; };
template <> struct Wide<int64_t> { using type = __int128; };
template <> struct Wide<uint64_t> { using type = unsigned __int128; };
template <> struct Wide<int8_t> { using type = int16_t; };
template <> struct Wide<uint8_t> { using type = uint16_t; };

// Binary operators: T f(T, T).
#define BIN(name, expr)                                                                            \
  struct name {                                                                                    \
    template <class T> static T f(T a, T b) { return expr; }                                       \
  };
BIN(Add, T(a + b))
BIN(Sub, T(a - b))
BIN(MulLo, T(a * b))
BIN(And, T(a & b))
BIN(Or, T(a | b))
BIN(Xor, T(a ^ b))
BIN(Min, a < b ? a : b)
BIN(Max, a < b ? b : a)
#undef BIN
struct MulHi {
  template <class T> static T f(T a, T b) {
    using W = typename Wide<T>::type;
    return T((W(a) * W(b)) >> (sizeof(T) * 8));
  }
};
struct Div {
  template <class T> static T f(T a, T b) {
    if (b == 0)
      return T(~T(0)); // the hardware's quotient for a zero divisor
    if (std::is_signed<T>::value && b == T(-1))
      return T(0 - a);
    return T(a / b);
  }
};
struct Rem {
  template <class T> static T f(T a, T b) {
    if (b == 0)
      return a;
    if (std::is_signed<T>::value && b == T(-1))
      return 0;
    return T(a % b);
  }
};
struct Shl {
  template <class T> static T f(T a, T b) {
    using U = typename std::make_unsigned<T>::type;
    U s = U(b);
    return s >= sizeof(T) * 8 ? T(0) : T(U(a) << s);
  }
};
struct Shr { // arithmetic for signed types, clamped shift amounts
  template <class T> static T f(T a, T b) {
    using U = typename std::make_unsigned<T>::type;
    U s = U(b);
    if (s >= sizeof(T) * 8)
      return std::is_signed<T>::value && a < 0 ? T(-1) : T(0);
    return T(a >> s);
  }
};
struct AddSat {
  template <class T> static T f(T a, T b) {
    int64_t r = int64_t(a) + int64_t(b);
    return T(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
  }
};
struct SubSat {
  template <class T> static T f(T a, T b) {
    int64_t r = int64_t(a) - int64_t(b);
    return T(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
  }
};
struct Mul24 {
  template <class T> static T f(T a, T b) {
    int64_t x = std::is_signed<T>::value ? int64_t(int32_t(uint32_t(a) << 8) >> 8) : int64_t(a & 0xffffff);
    int64_t y = std::is_signed<T>::value ? int64_t(int32_t(uint32_t(b) << 8) >> 8) : int64_t(b & 0xffffff);
    return T(x * y);
  }
};
struct Mul24Hi {
  template <class T> static T f(T a, T b) {
    int64_t x = std::is_signed<T>::value ? int64_t(int32_t(uint32_t(a) << 8) >> 8) : int64_t(a & 0xffffff);
    int64_t y = std::is_signed<T>::value ? int64_t(int32_t(uint32_t(b) << 8) >> 8) : int64_t(b & 0xffffff);
    return T(uint64_t(x * y) >> 16);
  }
};

template <class T, class Op> void h_bin(Exec &x, const DInstr &in, uint32_t m) {
  const Opd &a = in.s[0], &b = in.s[1];
  if (a.kind == Opd::R && b.kind == Opd::R && in.d.kind == Opd::R) {
    const uint64_t *pa = x.regs + size_t(a.slot) * 32, *pb = x.regs + size_t(b.slot) * 32;
    uint64_t *pd = x.regs + size_t(in.d.slot) * 32;
    FOR_LANES(m, l) pd[l] = out<T>(Op::f(T(pa[l]), T(pb[l])));
    return;
  }
  if (a.kind == Opd::R && b.kind == Opd::I && in.d.kind == Opd::R) {
    const uint64_t *pa = x.regs + size_t(a.slot) * 32;
    uint64_t *pd = x.regs + size_t(in.d.slot) * 32;
    T vb = T(b.imm);
    FOR_LANES(m, l) pd[l] = out<T>(Op::f(T(pa[l]), vb));
    return;
  }
  FOR_LANES(m, l) wr(x, in.d, l, out<T>(Op::f(T(rd(x, a, l)), T(rd(x, b, l)))));
}

// a * b + c with the product's low, high or wide part.
template <class T, int part> void h_mad(Exec &x, const DInstr &in, uint32_t m) {
  using W = typename Wide<T>::type;
  FOR_LANES(m, l) {
    T a = T(rd(x, in.s[0], l)), b = T(rd(x, in.s[1], l));
    if (part == 0)
      wr(x, in.d, l, out<T>(T(a * b + T(rd(x, in.s[2], l)))));
    else if (part == 1)
      wr(x, in.d, l, out<T>(T(T((W(a) * W(b)) >> (sizeof(T) * 8)) + T(rd(x, in.s[2], l)))));
    else // .wide: the addend is read at the double width
      wr(x, in.d, l, out<W>(W(W(a) * W(b) + W(rd(x, in.s[2], l)))));
  }
}

template <class T> void h_mul_wide(Exec &x, const DInstr &in, uint32_t m) {
  using W = typename Wide<T>::type;
  FOR_LANES(m, l) wr(x, in.d, l, out<W>(W(T(rd(x, in.s[0], l))) * W(T(rd(x, in.s[1], l)))));
}

template <class T> void h_mad24(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    T p = Mul24::f<T>(T(rd(x, in.s[0], l)), T(rd(x, in.s[1], l)));
    wr(x, in.d, l, out<T>(T(p + T(rd(x, in.s[2], l)))));
  }
}

// Carry chains: add.cc / addc(.cc) / sub.cc / subc(.cc) / mad.cc / madc. The
// carry flag lives in a per-warp lane mask (Warp::carry).
template <class T> void h_addc(Exec &x, const DInstr &in, uint32_t m) {
  // sub: bit 0; use carry-in: bit 1; write carry-out: bit 2; mad: bit 3
  uint8_t f = in.sub;
  FOR_LANES(m, l) {
    unsigned __int128 a = T(rd(x, in.s[0], l)), b = T(rd(x, in.s[1], l));
    if (f & 8)
      a = (unsigned __int128)(T(a * b)), b = T(rd(x, in.s[2], l));
    unsigned __int128 cin = (f & 2) ? ((x.warp->carry >> l) & 1) : 0;
    unsigned __int128 r;
    bool cout;
    if (f & 1) { // a - (b + CF): the flag holds the borrow
      r = a - b - cin;
      cout = a < b + cin;
    } else {
      r = a + b + cin;
      cout = (r >> (sizeof(T) * 8)) & 1;
    }
    wr(x, in.d, l, out<T>(T(r)));
    if (f & 4)
      x.warp->carry = (x.warp->carry & ~(1u << l)) | (uint32_t(cout) << l);
  }
}

template <class T> void h_unary(Exec &x, const DInstr &in, uint32_t m) {
  using U = typename std::make_unsigned<T>::type;
  const unsigned bits = sizeof(T) * 8;
  FOR_LANES(m, l) {
    T a = T(rd(x, in.s[0], l));
    U u = U(a);
    uint64_t r = 0;
    switch (in.sub) {
    case 0: r = out<T>(T(a < 0 ? T(0 - a) : a)); break;        // abs
    case 1: r = out<T>(T(0 - a)); break;                        // neg
    case 2: r = out<T>(T(~a)); break;                           // not
    case 3: r = a == 0 ? 1 : 0; break;                          // cnot
    case 4: r = uint64_t(__builtin_popcountll(uint64_t(u))); break; // popc
    case 5: r = u ? uint64_t(__builtin_clzll(uint64_t(u)) - (64 - bits)) : bits; break; // clz
    case 6: { // brev
      U v = 0;
      for (unsigned i = 0; i < bits; ++i)
        v |= U((u >> i) & 1) << (bits - 1 - i);
      r = out<T>(T(v));
      break;
    }
    case 7: { // bfind (.shiftamt: from the top)
      U v = std::is_signed<T>::value && a < 0 ? U(~u) : u;
      if (!v)
        r = 0xffffffffu;
      else {
        unsigned pos = 63 - unsigned(__builtin_clzll(uint64_t(v)));
        r = (in.flags & kShiftWrap) ? bits - 1 - pos : pos;
      }
      break;
    }
    }
    wr(x, in.d, l, r);
  }
}

template <class T> void h_bfe(Exec &x, const DInstr &in, uint32_t m) {
  using U = typename std::make_unsigned<T>::type;
  const unsigned bits = sizeof(T) * 8;
  FOR_LANES(m, l) {
    U a = U(rd(x, in.s[0], l));
    unsigned pos = unsigned(rd(x, in.s[1], l) & 0xff), len = unsigned(rd(x, in.s[2], l) & 0xff);
    bool sbit;
    if (std::is_signed<T>::value)
      sbit = len == 0 ? false : ((a >> (pos + len - 1 < bits - 1 ? pos + len - 1 : bits - 1)) & 1);
    else
      sbit = false;
    U r = 0;
    for (unsigned i = 0; i < bits; ++i) {
      bool b = i < len && pos + i < bits ? ((a >> (pos + i)) & 1) : sbit;
      r |= U(b) << i;
    }
    wr(x, in.d, l, out<T>(T(r)));
  }
}

template <class T> void h_bfi(Exec &x, const DInstr &in, uint32_t m) {
  const unsigned bits = sizeof(T) * 8;
  FOR_LANES(m, l) {
    T f = T(rd(x, in.s[0], l)), b = T(rd(x, in.s[1], l));
    unsigned pos = unsigned(rd(x, in.s[2], l) & 0xff), len = unsigned(rd(x, in.s[3], l) & 0xff);
    T r = b;
    for (unsigned i = 0; i < len && pos + i < bits; ++i)
      r = T((r & ~(T(1) << (pos + i))) | (((f >> i) & 1) << (pos + i)));
    wr(x, in.d, l, out<T>(r));
  }
}

void h_prmt(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    uint64_t a = uint32_t(rd(x, in.s[0], l)), b = uint32_t(rd(x, in.s[1], l));
    uint32_t c = uint32_t(rd(x, in.s[2], l));
    uint64_t v = a | (b << 32);
    uint8_t byte[8];
    for (int i = 0; i < 8; ++i)
      byte[i] = uint8_t(v >> (8 * i));
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t sel;
      switch (in.sub) {
      case 0: { // default: each nibble picks a byte; bit 3 replicates its sign
        uint32_t s = (c >> (4 * i)) & 0xf;
        uint8_t bb = byte[s & 7];
        r |= uint32_t((s & 8) ? ((bb & 0x80) ? 0xff : 0) : bb) << (8 * i);
        continue;
      }
      case 1: { static const uint8_t t[4][4] = {{0,1,2,3},{1,2,3,4},{2,3,4,5},{3,4,5,6}}; sel = t[c & 3][i]; break; } // f4e
      case 2: { static const uint8_t t[4][4] = {{0,7,6,5},{1,0,7,6},{2,1,0,7},{3,2,1,0}}; sel = t[c & 3][i]; break; } // b4e
      case 3: { static const uint8_t t[4][4] = {{0,0,0,0},{1,1,1,1},{2,2,2,2},{3,3,3,3}}; sel = t[c & 3][i]; break; } // rc8
      case 4: { static const uint8_t t[4][4] = {{0,1,2,3},{1,1,2,3},{2,2,2,3},{3,3,3,3}}; sel = t[c & 3][i]; break; } // ecl
      case 5: { static const uint8_t t[4][4] = {{0,0,0,0},{0,1,1,1},{0,1,2,2},{0,1,2,3}}; sel = t[c & 3][i]; break; } // ecr
      default: { static const uint8_t u[4][4] = {{0,1,0,1},{2,3,2,3},{0,1,0,1},{2,3,2,3}}; sel = u[c & 3][i]; break; } // rc16
      }
      r |= uint32_t(byte[sel]) << (8 * i);
    }
    wr(x, in.d, l, r);
  }
}

void h_lop3(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    uint32_t a = uint32_t(rd(x, in.s[0], l)), b = uint32_t(rd(x, in.s[1], l)),
             c = uint32_t(rd(x, in.s[2], l));
    uint32_t lut = uint32_t(rd(x, in.s[3], l)) & 0xff, r = 0;
    for (int i = 0; i < 32; ++i) {
      int idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
      r |= ((lut >> idx) & 1) << i;
    }
    wr(x, in.d, l, r);
  }
}

// fns.b32 d, mask, base, offset: the offset-th set bit of mask from base.
void h_fns(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    uint32_t mask = uint32_t(rd(x, in.s[0], l)), base = uint32_t(rd(x, in.s[1], l)) & 31;
    int32_t off = int32_t(rd(x, in.s[2], l));
    uint32_t r = 0xffffffffu;
    if (off == 0)
      r = base;
    else if (off > 0) {
      int n = 0;
      for (uint32_t i = base; i < 32; ++i)
        if ((mask >> i & 1) && ++n == off) { r = i; break; }
    } else {
      int n = 0;
      for (int i = int(base); i >= 0; --i)
        if ((mask >> i & 1) && --n == off) { r = uint32_t(i); break; }
    }
    wr(x, in.d, l, r);
  }
}

template <class T> void h_sad(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    T a = T(rd(x, in.s[0], l)), b = T(rd(x, in.s[1], l)), c = T(rd(x, in.s[2], l));
    wr(x, in.d, l, out<T>(T(c + (a < b ? b - a : a - b))));
  }
}

template <template <class> class H> Handler by_type(Ty t) { return by_int_type<H>(t); }
#define WRAP(Name, expr)                                                                           \
  template <class T> struct Name {                                                                 \
    static Handler get() { return expr; }                                                          \
  };
template <class Op> struct BinOf {
  template <class T> struct H {
    static Handler get() { return h_bin<T, Op>; }
  };
};
WRAP(MadLo, (h_mad<T, 0>))
WRAP(MadHi, (h_mad<T, 1>))
WRAP(Unary, h_unary<T>)
WRAP(Bfe, h_bfe<T>)
WRAP(Bfi, h_bfi<T>)
WRAP(Mad24, h_mad24<T>)
WRAP(Sad, h_sad<T>)
WRAP(AddC, h_addc<T>)
template <class T> struct MadWide {
  static Handler get() {
    if constexpr (sizeof(T) <= 4)
      return h_mad<T, 2>;
    else
      return nullptr;
  }
};
template <class T> struct MulWide {
  static Handler get() {
    if constexpr (sizeof(T) <= 4)
      return h_mul_wide<T>;
    else
      return nullptr;
  }
};
#undef WRAP

} // namespace

bool decode_int(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  const std::string &op = in.opcode;
  Ty t = first_type(in);
  auto load = [&](size_t n) {
    d.d = c.opd(0, t);
    for (size_t i = 0; i < n && i < 6; ++i)
      d.s[i] = c.opd(i + 1, t);
  };
  d.ty = t;
  if (is_float(t) && op != "bfe" && op != "prmt")
    return false; // the float decoder's
  if (op == "add" || op == "sub" || op == "mul" || op == "mad" || op == "addc" || op == "subc" ||
      op == "madc") {
    bool hi = c.has("hi"), wide = c.has("wide"), sat = c.has("sat"), cc = c.has("cc");
    bool is_mad = op == "mad" || op == "madc";
    load(is_mad ? 3 : 2);
    if (cc || op == "addc" || op == "subc" || op == "madc") {
      if (hi || wide || (t != Ty::U32 && t != Ty::S32 && t != Ty::B32 && t != Ty::U64 &&
                         t != Ty::S64 && t != Ty::B64))
        return true;
      d.sub = uint8_t((op == "sub" || op == "subc" ? 1 : 0) |
                      (op == "addc" || op == "subc" || op == "madc" ? 2 : 0) | (cc ? 4 : 0) |
                      (is_mad ? 8 : 0));
      d.run = by_type<AddC>(t);
      return true;
    }
    if (op == "add")
      d.run = sat ? (t == Ty::S32 ? h_bin<int32_t, AddSat> : nullptr) : by_type<BinOf<Add>::H>(t);
    else if (op == "sub")
      d.run = sat ? (t == Ty::S32 ? h_bin<int32_t, SubSat> : nullptr) : by_type<BinOf<Sub>::H>(t);
    else if (op == "mul")
      d.run = wide ? by_type<MulWide>(t) : hi ? by_type<BinOf<MulHi>::H>(t) : by_type<BinOf<MulLo>::H>(t);
    else if (sat)
      return true; // mad.hi.sat.s32: not emitted by nvcc
    else
      d.run = wide ? by_type<MadWide>(t) : hi ? by_type<MadHi>(t) : by_type<MadLo>(t);
    return true;
  }
  if (op == "mul24" || op == "mad24") {
    load(op == "mad24" ? 3 : 2);
    if (t == Ty::U32)
      d.run = op == "mad24" ? (c.has("hi") ? nullptr : h_mad24<uint32_t>)
                            : (c.has("hi") ? h_bin<uint32_t, Mul24Hi> : h_bin<uint32_t, Mul24>);
    else if (t == Ty::S32)
      d.run = op == "mad24" ? (c.has("hi") ? nullptr : h_mad24<int32_t>)
                            : (c.has("hi") ? h_bin<int32_t, Mul24Hi> : h_bin<int32_t, Mul24>);
    return true;
  }
  struct { const char *n; Handler (*pick)(Ty); } bins[] = {
      {"div", by_type<BinOf<Div>::H>}, {"rem", by_type<BinOf<Rem>::H>},
      {"min", by_type<BinOf<Min>::H>}, {"max", by_type<BinOf<Max>::H>},
      {"and", by_type<BinOf<And>::H>}, {"or", by_type<BinOf<Or>::H>},
      {"xor", by_type<BinOf<Xor>::H>}, {"shl", by_type<BinOf<Shl>::H>},
      {"shr", by_type<BinOf<Shr>::H>},
  };
  for (const auto &b : bins)
    if (op == b.n) {
      if (t == Ty::Pred)
        return false; // and/or/xor.pred: ops_cmp
      load(2);
      if ((op == "min" || op == "max") && c.has("relu"))
        return true;
      // shl/shr take a 32-bit shift amount: read it unsigned whatever the type.
      d.run = b.pick(t);
      return true;
    }
  static const char *unary[] = {"abs", "neg", "not", "cnot", "popc", "clz", "brev", "bfind"};
  for (int i = 0; i < 8; ++i)
    if (op == unary[i]) {
      if (t == Ty::Pred)
        return false;
      load(1);
      d.sub = uint8_t(i);
      d.flags |= c.has("shiftamt") ? kShiftWrap : 0;
      d.run = by_type<Unary>(t);
      return true;
    }
  if (op == "bfe") {
    load(3);
    d.run = by_type<Bfe>(t);
    return true;
  }
  if (op == "bfi") {
    load(4);
    d.run = by_type<Bfi>(t);
    return true;
  }
  if (op == "prmt") {
    load(3);
    static const char *modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    d.sub = 0;
    for (int i = 0; i < 6; ++i)
      if (c.has(modes[i]))
        d.sub = uint8_t(i + 1);
    d.run = h_prmt;
    return true;
  }
  if (op == "lop3") {
    load(4);
    d.run = c.nops() == 5 ? h_lop3 : nullptr; // the .or/.and predicate form is not emitted
    return true;
  }
  if (op == "fns") {
    load(3);
    d.run = h_fns;
    return true;
  }
  if (op == "sad") {
    load(3);
    d.run = by_type<Sad>(t);
    return true;
  }
  return false;
}

} // namespace emu::exec
