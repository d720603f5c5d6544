// Runs cpp_out_of_bounds.exg's reference on tensors of exactly their declared size.
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" int over(int64_t n, float *x, float *y);
extern "C" int rows(int64_t n, const float *x, float *y);

int main() {
  for (int64_t n : {1, 3, 8}) {
    std::vector<float> x(n), y(8, -1);
    for (int64_t i = 0; i < n; ++i)
      x[i] = float(5 + i);
    if (over(n, x.data(), y.data()))
      return 1;
    std::printf("n=%lld y=", (long long)n);
    for (float v : y)
      std::printf("%g ", v);
    std::printf("x=");
    for (float v : x)
      std::printf("%g ", v);
    std::printf("\n");
  }
  std::vector<float> x(2 * 2), y(8, -1);
  for (int i = 0; i < 4; ++i)
    x[i] = float(i < 2 ? 5 + i : 8 + i);
  if (rows(2, x.data(), y.data()))
    return 1;
  std::printf("rows n=2 y=");
  for (float v : y)
    std::printf("%g ", v);
  std::printf("\n");
  return 0;
}
