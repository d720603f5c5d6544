// nvcc_entry_names_main.cpp - calls the CPU reference and the two CUDA
// libraries of examples/saxpy.exg linked into one program (nvcc_entry_names.test);
// each header is included by its folder. The GPU runs only where one exists.
#include <cstdio>

#include "gpu/saxpy.h"
#include "gpu_ns/saxpy.h"
#include "ref/saxpy.h"

int main() {
  const float x[4] = {0, 1, 2, 3};
  float want[4] = {1, 1, 1, 1};
  int rc = ref_saxpy(4, 3.0f, x, want);
  std::printf("ref_saxpy %d: y = %g %g %g %g\n", rc, want[0], want[1], want[2], want[3]);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 0;
  }
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&dx), sizeof x);
  cudaMalloc(reinterpret_cast<void **>(&dy), sizeof x);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  bool same = true;
  for (int lib = 0; lib < 2; ++lib) {
    float y[4] = {1, 1, 1, 1};
    cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
    cudaError_t err = lib == 0 ? saxpy(0, 4, 3.0f, dx, dy) : other::saxpy(0, 4, 3.0f, dx, dy);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; ++i)
      same = same && err == cudaSuccess && y[i] == want[i];
  }
  std::printf(same ? "saxpy and other::saxpy equal ref_saxpy\n" : "the GPU results differ\n");
  return same ? 0 : 1;
}
