// Runs the CPU reference of cpp_reference.exg (declared with the ABI of docs/abi.md).
#include <cstdint>
#include <cstdio>

extern "C" int accumulate(int64_t n, float a, const float *x, float *y, float *total,
                          float *sums);
extern "C" int floors(const float *x, float *y);

int main() {
  float x[12], y[12], sums[3], total = -1;
  for (int i = 0; i < 12; ++i) {
    x[i] = float(i);
    y[i] = 1;
  }
  // y[i, j] = 1 + 2 (4 i + j); row sums 16 + 32 i.
  int rc = accumulate(3, 2.0f, x, y, &total, sums);
  std::printf("rc=%d total=%g sums=%g %g %g\n", rc, total, sums[0], sums[1], sums[2]);
  std::printf("precondition rc=%d\n", accumulate(1, 2.0f, x, y, &total, sums));
  float fx[8] = {0, 1, 2, 3, 4, 5, 6, 7}, fy[8];
  floors(fx, fy);
  std::printf("floors");
  for (float v : fy)
    std::printf(" %g", v);
  std::printf("\n");
  return 0;
}
