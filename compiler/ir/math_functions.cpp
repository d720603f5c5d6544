// math_functions.cpp - the table of elementwise math functions -------------//
#include "compiler/ir/math_functions.h"

namespace exgc {

namespace {
// The GPU form and its error bound are in docs/language.md; each backend's
// prelude defines exg_<name>.
const MathFunction kTable[] = {
    {"exp", 1, false},         {"exp2", 1, false},        {"log", 1, false},
    {"log2", 1, false},        {"tanh", 1, false},        {"rsqrt", 1, false},
    {"rcp", 1, false},         {"fma", 3, false},         {"exp2_approx", 1, true},
    {"log2_approx", 1, true},  {"tanh_approx", 1, true},  {"rsqrt_approx", 1, true},
    {nullptr, 0, false},
};
} // namespace

const MathFunction *find_math_function(const std::string &name) {
  for (const MathFunction *m = kTable; m->name; ++m)
    if (name == m->name)
      return m;
  return nullptr;
}

const MathFunction *math_functions() { return kTable; }

} // namespace exgc
