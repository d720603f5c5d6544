// app_gpu.cpp - links the CUDA library; it runs saxpy only when a device is
// present, so the link is what the consumer test checks without one.
#include <cstdio>

#include "saxpy.h"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("linked; no CUDA device\n");
    return 0;
  }
  float *x = nullptr, *y = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&x), 4 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&y), 4 * sizeof(float));
  float hx[4] = {0, 1, 2, 3}, hy[4] = {1, 1, 1, 1};
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  cudaError_t rc = saxpy(0, 4, 3.0f, x, y);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  std::printf("saxpy %s: y = %g %g %g %g\n", cudaGetErrorString(rc), hy[0], hy[1], hy[2], hy[3]);
  return rc == cudaSuccess ? 0 : 1;
}
