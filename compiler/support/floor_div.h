// floor_div.h - integer division rounding toward negative infinity ---------//
// The index arithmetic of the language (docs/language.md): -7 / 2 == -4. One
// definition for the simplifier, the index forms, the schedule scripts, the
// GPU stage and the sync interpreter (the generated code's exg_floordiv has
// the same rule, in the runtime and the CPU prelude).
#pragma once

namespace exgc {

/// a / b rounded down; b != 0 (the callers divide by positive values).
template <typename T> constexpr T floor_div(T a, T b) {
  T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

} // namespace exgc
