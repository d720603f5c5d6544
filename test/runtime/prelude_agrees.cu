// prelude_agrees.cu - the CPU reference's helpers against exg/runtime.h's host side ------//
// runtime.h promises "the same names and meaning as in the CPU reference's prelude": two
// texts, one in the compiler (codegen/prelude.cpp), one in the runtime. This program holds
// both in one translation unit (the prelude through a file exgc generated, EXG_GENERATED,
// where it lives in exg_impl) and compares every helper both define, bit for bit, on edge
// values and random ones. Built by prelude_agrees.py with nvcc (host code only).
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "exg/runtime.h"
#include EXG_GENERATED

namespace {

int failures = 0;

template <typename T> uint64_t bits(T v) {
  uint64_t u = 0;
  std::memcpy(&u, &v, sizeof(T));
  return u;
}

template <typename T> void same(const char *what, double input, T prelude, T runtime) {
  bool both_nan = prelude != prelude && runtime != runtime;
  if (both_nan || bits(prelude) == bits(runtime))
    return;
  if (++failures <= 20)
    std::printf("DIFFER %s(%.17g): prelude %.17g, runtime.h %.17g\n", what, input,
                static_cast<double>(prelude), static_cast<double>(runtime));
}

std::vector<double> float_inputs() {
  std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 1e-40, -1e-40, 1e-30, 1e30,
                           88.7, -88.7, 127.9, -149.5, 0x1p-126, 0x1p-127, 65504.0, 1e38,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()};
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> wide(-200.0, 200.0), unit(0.0, 1.0);
  for (int i = 0; i < 20000; ++i)
    v.push_back(i % 2 ? wide(rng) : unit(rng) * std::pow(2.0, static_cast<int>(wide(rng) / 2)));
  return v;
}

#define EXG_SAME1(name)                                                                        \
  for (double x : xs) {                                                                        \
    same(#name "<float>", x, exg_impl::exg_##name(static_cast<float>(x)),                      \
         ::exg_##name(static_cast<float>(x)));                                                 \
    same(#name "<double>", x, exg_impl::exg_##name(x), ::exg_##name(x));                       \
  }

void floats() {
  const std::vector<double> xs = float_inputs();
  EXG_SAME1(sqrt)
  EXG_SAME1(relu)
  EXG_SAME1(tf32_truncate)
  EXG_SAME1(exp)
  EXG_SAME1(exp2)
  EXG_SAME1(log)
  EXG_SAME1(log2)
  EXG_SAME1(tanh)
  EXG_SAME1(rsqrt)
  EXG_SAME1(rcp)
  EXG_SAME1(abs)
  for (double x : xs) {
    float f = static_cast<float>(x);
    same("exp2_approx", x, exg_impl::exg_exp2_approx(f), ::exg_exp2_approx(f));
    same("log2_approx", x, exg_impl::exg_log2_approx(f), ::exg_log2_approx(f));
    same("tanh_approx", x, exg_impl::exg_tanh_approx(f), ::exg_tanh_approx(f));
    same("rsqrt_approx", x, exg_impl::exg_rsqrt_approx(f), ::exg_rsqrt_approx(f));
    same("fma<float>", x, exg_impl::exg_fma(f, 1.5f, -f), ::exg_fma(f, 1.5f, -f));
    same("fma<double>", x, exg_impl::exg_fma(x, 1.5, -x), ::exg_fma(x, 1.5, -x));
    same("min", x, exg_impl::exg_min(f, 0.25f), ::exg_min(f, 0.25f));
    same("max", x, exg_impl::exg_max(x, -0.25), ::exg_max(x, -0.25));
    same("to_int<int32_t>", x, exg_impl::exg_to_int<int32_t>(f), ::exg_to_int<int32_t>(f));
    same("to_int<int8_t>", x, exg_impl::exg_to_int<int8_t>(x), ::exg_to_int<int8_t>(x));
    same("to_int<uint16_t>", x, exg_impl::exg_to_int<uint16_t>(x), ::exg_to_int<uint16_t>(x));
  }
}

template <typename T> void integers(std::mt19937_64 &rng) {
  std::vector<T> vs = {T(0), T(1), T(2), T(3), T(7), std::numeric_limits<T>::max(),
                       std::numeric_limits<T>::min(), T(std::numeric_limits<T>::max() - 1)};
  if (std::is_signed<T>::value)
    vs.insert(vs.end(), {T(-1), T(-2), T(-7), T(std::numeric_limits<T>::min() + 1)});
  for (int i = 0; i < 200; ++i)
    vs.push_back(static_cast<T>(rng()));
  for (T a : vs)
    for (T b : vs) {
      double in = static_cast<double>(a);
      same("add", in, exg_impl::exg_add(a, b), ::exg_add(a, b));
      same("sub", in, exg_impl::exg_sub(a, b), ::exg_sub(a, b));
      same("mul", in, exg_impl::exg_mul(a, b), ::exg_mul(a, b));
      same("div", in, exg_impl::exg_div(a, b), ::exg_div(a, b));
      same("mod", in, exg_impl::exg_mod(a, b), ::exg_mod(a, b));
      same("min", in, exg_impl::exg_min(a, b), ::exg_min(a, b));
    }
  for (T a : vs) {
    same("neg", static_cast<double>(a), exg_impl::exg_neg(a), ::exg_neg(a));
    same("abs", static_cast<double>(a), exg_impl::exg_abs(a), ::exg_abs(a));
  }
}

void index_arithmetic() {
  for (int64_t a = -300; a <= 300; ++a)
    for (int64_t b = 1; b <= 17; ++b) {
      same("floordiv", double(a), exg_impl::exg_floordiv(a, b), ::exg_floordiv(a, b));
      same("floormod", double(a), exg_impl::exg_floormod(a, b), ::exg_floormod(a, b));
    }
  const int64_t big = int64_t(1) << 40;
  for (int64_t a : {big, -big, big - 1, -big + 1, INT64_MAX, INT64_MIN + 1})
    for (int64_t b : {int64_t(1), int64_t(3), int64_t(64), big})
      same("floordiv", double(a), exg_impl::exg_floordiv(a, b), ::exg_floordiv(a, b));
}

} // namespace

int main() {
  floats();
  std::mt19937_64 rng(2);
  integers<int8_t>(rng);
  integers<uint8_t>(rng);
  integers<uint16_t>(rng);
  integers<int32_t>(rng);
  integers<int64_t>(rng);
  index_arithmetic();
  if (failures) {
    std::printf("%d differences between the CPU prelude and exg/runtime.h\n", failures);
    return 1;
  }
  std::printf("the CPU prelude and exg/runtime.h agree on every helper they share\n");
  return 0;
}
