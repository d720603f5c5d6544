// Runs cpp_int_division.exg's reference on the edge cases of integer division.
#include <climits>
#include <cstdint>
#include <cstdio>

extern "C" int divide(int64_t n, const int32_t *x, const int32_t *d, int32_t *q, int32_t *r,
                      const float *fx, float *fq);

int main() {
  int32_t x[] = {7, -7, 7, INT_MIN}, d[] = {2, 2, 0, -1}, q[4], r[4];
  float fx = 1, fq = 0;
  if (divide(4, x, d, q, r, &fx, &fq))
    return 1;
  std::printf("7/2=%d 7%%2=%d -7/2=%d -7%%2=%d 7/0=%d 7%%0=%d MIN/-1=%d MIN%%-1=%d f=%g\n", q[0],
              r[0], q[1], r[1], q[2], r[2], q[3], r[3], fq);
  return 0;
}
