// prelude.cpp - helper functions every generated file defines -------------//
#include "compiler/codegen/prelude.h"

namespace exgc::codegen {

const char *cpu_prelude() {
  return R"(// Index arithmetic is floor division by a positive divisor: -7 / 2 == -4, -7 % 2 == 1.
inline int64_t exg_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t exg_floormod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
template <typename T> inline T exg_min(T a, T b) { return b < a ? b : a; }
template <typename T> inline T exg_max(T a, T b) { return a < b ? b : a; }
template <typename T> inline T exg_sqrt(T a) { return static_cast<T>(std::sqrt(a)); }
template <typename T> inline T exg_relu(T a) { return a > T(0) ? a : T(0); }
template <typename T> inline T exg_abs(T a) { return a < T(0) ? -a : a; }
)";
}

} // namespace exgc::codegen
