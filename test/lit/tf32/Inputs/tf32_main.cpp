// Prints tf32_truncate of a few values and checks it against the bit rule.
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" int tf32_of(int64_t n, const float *x, float *y);

int main() {
  const float x[] = {1.0f, 1.00012207f, 1.0009765625f, -3.14159274f, 0.0f};
  float y[5];
  tf32_of(5, x, y);
  bool ok = true;
  for (int i = 0; i < 5; ++i) {
    std::printf("%.8f -> %.8f\n", x[i], y[i]);
    uint32_t u, v;
    std::memcpy(&u, &x[i], 4);
    std::memcpy(&v, &y[i], 4);
    ok = ok && v == (u & 0xFFFFE000u);
  }
  std::puts(ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
