// Calls cpp_control_range.exg's reference with control values out of range.
#include <cstdint>
#include <cstdio>

extern "C" int f(int64_t n, float *x);
extern "C" int g(int64_t k, float *x);

int main() {
  float x = -1;
  int rc = f(int64_t(1) << 62, &x);
  std::printf("n=2^62: rc=%d x=%g\n", rc, x);
  rc = f(int64_t(1) << 40, &x);
  std::printf("n=2^40: rc=%d x=%g\n", rc, x);
  rc = g(-(int64_t(1) << 41), &x);
  std::printf("k=-2^41: rc=%d\n", rc);
  return 0;
}
