// math_functions.h - the elementwise math functions on data ----------------//
//
// `exp(x)`, `fma(a, b, c)`, `exp2_approx(x)`, ...: pure functions of
// floating-point data (docs/language.md, "Math functions"). One table serves
// the typecheck, the IR's result types and both backends, so that adding a
// function is one line here and one helper in each prelude.
#ifndef EXGC_IR_MATH_FUNCTIONS_H
#define EXGC_IR_MATH_FUNCTIONS_H

#include <string>

namespace exgc {

struct MathFunction {
  const char *name;
  int arity;
  /// An f32 hardware approximation (`ex2.approx.ftz.f32`, ...): it takes f32,
  /// f16 and bf16 data (computed in f32), never f64.
  bool approx;
};

/// The function named `name`, or null when it is not a math function.
const MathFunction *find_math_function(const std::string &name);

/// Every math function, for help text and tests; ends with a null name.
const MathFunction *math_functions();

} // namespace exgc

#endif
