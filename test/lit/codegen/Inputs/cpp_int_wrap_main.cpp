// Runs cpp_int_wrap.exg's reference on integer overflow and float-to-integer edges.
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>

extern "C" int wrap(const int32_t *x, int32_t *y, int8_t *b, uint16_t *u, const float *f,
                    int32_t *z);

int main() {
  int32_t x[] = {2000000000, 3, INT_MIN, INT_MAX}, y[5] = {}, z[4] = {};
  int8_t b[] = {0, 20};
  uint16_t u[] = {0, 65535};
  float f[] = {3e9f, -3e9f, NAN, -7.9f};
  if (wrap(x, y, b, u, f, z))
    return 1;
  std::printf("mul=%d neg=%d sub=%d abs=%d acc=%d i8=%d u16=%d f2i=%d,%d,%d,%d\n", y[0], y[1],
              y[2], y[3], y[4], b[0], u[0], z[0], z[1], z[2], z[3]);
  return 0;
}
