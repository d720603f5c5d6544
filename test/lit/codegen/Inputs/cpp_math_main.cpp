// Runs cpp_math.exg's reference on ordinary values and on the corner cases of
// the PTX ISA's tables (zeros, subnormals, infinities, negative inputs).
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" int math_f32(int64_t n, const float *x, float *y, int32_t *k);
extern "C" int math_f64(int64_t n, const double *z, double *d);
extern "C" int math_bf16(int64_t n, const uint16_t *g, uint16_t *h, float *m);

int main() {
  const float x[] = {0.5f, 3.0f, -0.0f, 0x1p-130f, -0x1p-130f, -1.0f, -130.0f, 100.0f, -__builtin_inff(), __builtin_inff()};
  const int n = sizeof x / sizeof x[0];
  float y[n * 12];
  int32_t k[n];
  if (math_f32(n, x, y, k))
    return 1;
  const char *names[] = {"exp", "exp2", "log", "log2", "tanh", "rsqrt", "rcp", "fma",
                         "exp2_approx", "log2_approx", "tanh_approx", "rsqrt_approx"};
  for (int i = 0; i < n; ++i) {
    std::printf("f32 %a:", x[i]);
    for (int f = 0; f < 12; ++f)
      std::printf(" %s=%a", names[f], y[i * 12 + f]);
    std::printf(" int=%d\n", k[i]);
  }
  const double z[] = {0.5, 3.0, 0x1p-1070};
  double d[3 * 8];
  if (math_f64(3, z, d))
    return 1;
  for (int i = 0; i < 3; ++i) {
    std::printf("f64 %a:", z[i]);
    for (int f = 0; f < 8; ++f)
      std::printf(" %s=%a", names[f], d[i * 8 + f]);
    std::printf("\n");
  }
  // bf16 1.0 (0x3f80) and 3.0 (0x4040): exp rounded from f32 to bf16.
  const uint16_t g[] = {0x3f80, 0x4040};
  uint16_t h[2];
  float m[2];
  if (math_bf16(2, g, h, m))
    return 1;
  std::printf("bf16 exp(1)=%#06x exp(3)=%#06x max=%a %a\n", h[0], h[1], m[0], m[1]);
  return 0;
}
