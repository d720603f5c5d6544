// Runs the CPU references of gemv (the algorithm) and gemv_f32 (the hand-scheduled kernel) of
// cpp_gemv_flagship.exg on small-integer data, where float sums are exact in any order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" int gemv(int64_t M, int64_t K, const float *A, const float *x, float *y);
extern "C" int gemv_f32(int64_t M, int64_t K, const float *A, const float *x, float *y);

static void run(int64_t M, int64_t K) {
  std::vector<float> A(M * K), x(K), y1(M, -1), y2(M, -2);
  for (int64_t i = 0; i < M * K; ++i)
    A[i] = float(i * 7 % 13 - 6);
  for (int64_t i = 0; i < K; ++i)
    x[i] = float(i % 5 - 2);
  int r1 = gemv(M, K, A.data(), x.data(), y1.data());
  int r2 = gemv_f32(M, K, A.data(), x.data(), y2.data());
  double err = 0;
  for (int64_t i = 0; i < M; ++i)
    err = std::max(err, double(std::fabs(y1[i] - y2[i])));
  if (r1 || r2)
    std::printf("M=%lld K=%lld rc=%d %d\n", (long long)M, (long long)K, r1, r2);
  else
    std::printf("M=%lld K=%lld rc=%d %d max_err=%g\n", (long long)M, (long long)K, r1, r2, err);
}

int main() {
  run(4, 8);
  run(12, 24);
  run(64, 256);
  run(6, 8); // M % 4 != 0: both return the line of their `assert M % 4 == 0`
  return 0;
}
