// prelude.cpp - helper functions every generated file defines -------------//
#include "compiler/codegen/prelude.h"

namespace exgc::codegen {

const char *cpu_prelude() {
  // [[maybe_unused]]: the prelude sits in an anonymous namespace, where clang's
  // -Wunused-function (in -Wall) reports a helper the file does not call.
  return R"(// Index arithmetic is floor division by a positive divisor: -7 / 2 == -4, -7 % 2 == 1.
[[maybe_unused]] inline int64_t exg_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
[[maybe_unused]] inline int64_t exg_floormod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
template <typename T> inline T exg_min(T a, T b) { return b < a ? b : a; }
template <typename T> inline T exg_max(T a, T b) { return a < b ? b : a; }
template <typename T> inline T exg_sqrt(T a) { return static_cast<T>(std::sqrt(a)); }
template <typename T> inline T exg_relu(T a) { return a > T(0) ? a : T(0); }
// tf32_truncate: the value wgmma reads for a .tf32 operand ("will truncate
// lower 13 bits of the 32-bit input data", PTX ISA 9.7.15.5.2): the f32 with
// its 13 low mantissa bits cleared. On a double (f32 computed in f64) the
// value is first rounded to f32, as the operand in memory is.
template <typename T> inline T exg_tf32_truncate(T a) {
  float f = static_cast<float>(a);
  uint32_t u;
  __builtin_memcpy(&u, &f, 4);
  u &= 0xFFFFE000u;
  __builtin_memcpy(&f, &u, 4);
  return static_cast<T>(f);
}
// Math functions (docs/language.md, "Math functions"): f64 data in double,
// every other type through f32 as the GPU computes it, each from the exact
// value rounded once (the GPU's CUDA functions are within the ulps the docs
// list). The _approx forms are the f32 instructions ex2/lg2/rsqrt.approx.ftz
// and tanh.approx: their flush of subnormal inputs and results to a signed
// zero is reproduced, their approximation is the documented bound.
template <typename T, typename F> inline T exg_math1(T a, F exact) {
  if constexpr (std::is_same<T, double>::value)
    return exact(a);
  else
    return static_cast<T>(static_cast<float>(exact(static_cast<double>(static_cast<float>(a)))));
}
template <typename T> inline T exg_exp(T a) { return exg_math1(a, [](double x) { return std::exp(x); }); }
template <typename T> inline T exg_exp2(T a) { return exg_math1(a, [](double x) { return std::exp2(x); }); }
template <typename T> inline T exg_log(T a) { return exg_math1(a, [](double x) { return std::log(x); }); }
template <typename T> inline T exg_log2(T a) { return exg_math1(a, [](double x) { return std::log2(x); }); }
template <typename T> inline T exg_tanh(T a) { return exg_math1(a, [](double x) { return std::tanh(x); }); }
// rsqrt in long double: 1 / sqrt in double would round twice.
template <typename T> inline T exg_rsqrt(T a) {
  return exg_math1(a, [](double x) { return static_cast<double>(1.0L / std::sqrt(static_cast<long double>(x))); });
}
template <typename T> inline T exg_rcp(T a) { return exg_math1(a, [](double x) { return 1.0 / x; }); }
template <typename T> inline T exg_fma(T a, T b, T c) {
  if constexpr (std::is_same<T, double>::value)
    return std::fma(a, b, c);
  else
    return static_cast<T>(std::fma(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c)));
}
[[maybe_unused]] inline float exg_ftz(float x) { return std::fabs(x) < 0x1p-126f ? std::copysign(0.0f, x) : x; }
template <typename T, typename F> inline T exg_approx1(T a, bool ftz, F exact) {
  float x = static_cast<float>(a);
  float r = static_cast<float>(exact(static_cast<double>(ftz ? exg_ftz(x) : x)));
  return static_cast<T>(ftz ? exg_ftz(r) : r);
}
template <typename T> inline T exg_exp2_approx(T a) { return exg_approx1(a, true, [](double x) { return std::exp2(x); }); }
template <typename T> inline T exg_log2_approx(T a) { return exg_approx1(a, true, [](double x) { return std::log2(x); }); }
template <typename T> inline T exg_tanh_approx(T a) { return exg_approx1(a, false, [](double x) { return std::tanh(x); }); }
template <typename T> inline T exg_rsqrt_approx(T a) { return exg_approx1(a, true, [](double x) { return 1.0 / std::sqrt(x); }); }
template <typename T> struct exg_unsigned { using type = typename std::make_unsigned<T>::type; };
// Integer data + - * wrap around in the stored type (two's complement): they
// are computed in an unsigned type at least as wide as unsigned int, where
// C++ defines the wrap (int32_t overflow, or uint16_t promoted to int, is not).
template <typename T> struct exg_wrap {
  using type = typename std::conditional<(sizeof(T) < sizeof(unsigned)), unsigned,
                                         typename std::make_unsigned<T>::type>::type;
};
template <typename T> inline T exg_add(T a, T b) {
  using U = typename exg_wrap<T>::type;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T> inline T exg_sub(T a, T b) {
  using U = typename exg_wrap<T>::type;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename T> inline T exg_mul(T a, T b) {
  using U = typename exg_wrap<T>::type;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}
template <typename T> inline T exg_neg(T a) { return exg_sub<T>(T(0), a); }
// abs of integer data wraps like negation (abs(MIN) == MIN).
template <typename T> inline T exg_abs(T a) {
  if constexpr (std::is_integral<T>::value)
    return a < T(0) ? exg_neg<T>(a) : a;
  else
    return a < T(0) ? -a : a;
}
// A floating value stored into integer data saturates at the type's range,
// and NaN gives 0, as PTX cvt.rzi does (a C++ cast out of range is undefined).
template <typename T, typename F> inline T exg_to_int(F f) {
  using U = typename std::make_unsigned<T>::type;
  const T hi = std::is_signed<T>::value ? static_cast<T>(static_cast<U>(~U(0)) >> 1) : static_cast<T>(~U(0));
  const T lo = std::is_signed<T>::value ? static_cast<T>(-static_cast<double>(hi) - 1.0) : T(0);
  double d = static_cast<double>(f);
  if (!(d == d))
    return T(0);
  if (d <= static_cast<double>(lo))
    return lo;
  if (d >= static_cast<double>(hi))
    return hi;
  return static_cast<T>(d);
}
// Integer data division truncates toward zero and is total: x / 0 == 0,
// x % 0 == x, MIN / -1 == MIN and MIN % -1 == 0 (so x == (x / y) * y + x % y
// always holds, with wrap-around). Floating point division is IEEE.
template <typename T> inline T exg_div(T a, T b) {
  if (b == T(0))
    return T(0);
  if (T(-1) < T(0) && b == T(T(0) - T(1)))
    return static_cast<T>(T(0) - static_cast<typename exg_unsigned<T>::type>(a));
  return static_cast<T>(a / b);
}
template <typename T> inline T exg_mod(T a, T b) {
  if (b == T(0))
    return a;
  if (T(-1) < T(0) && b == T(T(0) - T(1)))
    return T(0);
  return static_cast<T>(a % b);
}
)";
}

const char *unset_prelude() {
  return R"(// Memory no statement wrote holds an unspecified value (docs/language.md). The
// difftest sets exg_unset_seed before each call, so that each proc it compares
// starts its allocations from other values: a result that depends on them
// shows as a difference. Floats get multiples of 1/4 of magnitude 25 to 100
// (far from the test data, and below 128: converted to an 8-bit integer they
// do not saturate, so two fills cannot give one result by saturating and
// wrapping), integers any bits; a buffer repeats eight values. With
// exg_unset_sign +1 or -1, floats are instead about +2^20 or -2^20: a result
// that passes them through a clamp (a float converted to a narrow integer
// saturates) takes one value for most moderate fills, not for these; and
// integers are odd: a result that keeps only low bits of them (times 2^31
// mod 2^32, its lowest) then differs from the run from zeros.
[[maybe_unused]] inline uint64_t exg_unset_seed = 0;
[[maybe_unused]] inline int exg_unset_sign = 0;
[[maybe_unused]] inline uint64_t exg_unset_bits() {
  uint64_t z = (exg_unset_seed += 0x9E3779B97F4A7C15ull); // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
template <typename T> inline T exg_unset() {
  if (exg_unset_seed == 0)
    return T(0);
  uint64_t r = exg_unset_bits();
  if (std::is_same<T, bool>::value)
    return T(r & 1);
  if (T(0.5) != T(0)) {
    if (exg_unset_sign)
      return T(exg_unset_sign * (1048576.0 + double(r % 301) / 4.0));
    double v = double(100 + int64_t(r % 301)) / 4.0;
    return T((r >> 40) & 1 ? -v : v);
  }
  if (exg_unset_sign)
    r |= 1;
  T out;
  __builtin_memcpy(&out, &r, sizeof(T));
  return out;
}
// Eight values repeated: a fill as cheap as zeroing, for the buffers that
// loops allocate on every iteration.
template <typename T> inline void exg_unset_fill(T *p, int64_t n) {
  T cycle[8];
  for (int k = 0; k < 8; ++k)
    cycle[k] = exg_unset<T>();
  for (int64_t i = 0; i < n; ++i)
    p[i] = cycle[i & 7];
}
)";
}

} // namespace exgc::codegen
