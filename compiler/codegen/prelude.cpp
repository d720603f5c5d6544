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
template <typename T> inline T exg_abs(T a) { return a < T(0) ? -a : a; }
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
template <typename T> struct exg_unsigned { using type = typename std::make_unsigned<T>::type; };
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

} // namespace exgc::codegen
