// The source of the fatbinaries here (test/unit/emu_cudart/fatbin_test.cpp), made with nvcc 13:
//   nvcc --fatbin -lineinfo -gencode arch=compute_90a,code=compute_90a -no-compress tiny.cu -o tiny_ptx.fatbin
//   nvcc --fatbin -gencode arch=compute_90a,code=compute_90a tiny.cu -o tiny_compressed.fatbin
//   nvcc --fatbin -gencode arch=compute_90a,code=sm_90a tiny.cu -o tiny_sass.fatbin
//   nvcc --fatbin -gencode arch=compute_90a,code=[sm_90a,compute_90a] \
//        -gencode arch=compute_80,code=compute_80 -no-compress tiny.cu -o tiny_multi.fatbin
#include <cstdio>
__device__ float gv[4];
__constant__ int cv = 3;
__global__ void add(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] += gv[i%4] + cv; }
template<int N> __global__ void tk(int *p) { p[0] = N; }
int main() {
  float *d; cudaMalloc(&d, 64);
  float h[4] = {1,2,3,4};
  cudaMemcpyToSymbol(gv, h, sizeof h);
  add<<<1, 16>>>(d, 16);
  tk<5><<<1,1>>>((int*)d);
  cudaError_t e = cudaGetLastError();
  printf("%s\n", cudaGetErrorString(e));
  cudaDeviceSynchronize();
  cudaFree(d);
}
