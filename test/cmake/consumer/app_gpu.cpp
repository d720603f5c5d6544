// app_gpu.cpp - links the CUDA library and the CPU reference of the same
// module (FUNCTION_PREFIX ref_); it runs saxpy only when a device is present,
// so without one the link, and the reference, are what the consumer test checks.
#include <cstdio>

#include "kernels_gpu/saxpy.h"
#include "kernels_gpu_ref/saxpy.h"

int main() {
  const float hx[4] = {0, 1, 2, 3};
  float want[4] = {1, 1, 1, 1};
  int ref_rc = ref_saxpy(4, 3.0f, hx, want);
  std::printf("ref_saxpy %d: y = %g %g %g %g\n", ref_rc, want[0], want[1], want[2], want[3]);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("linked; no CUDA device\n");
    return 0;
  }
  float *x = nullptr, *y = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&x), 4 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&y), 4 * sizeof(float));
  float hy[4] = {1, 1, 1, 1};
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  cudaError_t rc = saxpy(0, 4, 3.0f, x, y);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  bool same = rc == cudaSuccess;
  for (int i = 0; i < 4; ++i)
    same = same && hy[i] == want[i];
  std::printf("saxpy %s: y = %g %g %g %g (%s)\n", cudaGetErrorString(rc), hy[0], hy[1], hy[2],
              hy[3], same ? "equals ref_saxpy" : "differs from ref_saxpy");
  return same ? 0 : 1;
}
