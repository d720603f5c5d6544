// test/emu/cudart_e2e.cu - a plain CUDA program for the stand-in runtime ----//
// Built with `nvcc $(exg-emu --nvcc-flags) cudart_e2e.cu -lcuda` and run under
// exg-emu by cudart_e2e.sh. It uses each door of the runtime a user program
// does: <<<>>>, cudaLaunchKernelEx with a cluster, dynamic shared memory past
// 48 KiB, __device__ symbols, copies, events, device attributes, and
// cuTensorMapEncodeTiled both through the runtime's entry point and directly.
// Prints "e2e ok" and exits 0, or names the first wrong value and exits 1.
// `cudart_e2e exit N` exits N at once (the driver must pass it through).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ int table[4];

__global__ void axpy_table(float *out, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + float(table[i % 4]);
}

__global__ void cluster_rank(unsigned *out) {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  out[blockIdx.x] = rank;
}

__global__ void reverse_in_smem(int *data, int n) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    buf[i] = data[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    data[i] = buf[n - 1 - i];
}

static int failures = 0;
#define EXPECT(cond, ...)                                                       \
  do {                                                                          \
    if (!(cond)) {                                                              \
      std::printf("FAIL line %d: %s: ", __LINE__, #cond);                       \
      std::printf(__VA_ARGS__);                                                 \
      std::printf("\n");                                                        \
      ++failures;                                                               \
    }                                                                           \
  } while (0)

static void check_axpy() {
  const int n = 150;
  float hx[n], hout[n];
  for (int i = 0; i < n; ++i)
    hx[i] = float(i);
  int ht[4] = {10, 20, 30, 40};
  EXPECT(cudaMemcpyToSymbol(table, ht, sizeof ht) == cudaSuccess, "cudaMemcpyToSymbol");
  float *x, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  axpy_table<<<3, 64>>>(out, x, 2.0f, n);
  EXPECT(cudaGetLastError() == cudaSuccess, "<<<>>> launch");
  cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    EXPECT(hout[i] == 2.0f * i + ht[i % 4], "out[%d] = %g", i, hout[i]);
  // A host pointer where the device side must be: the real runtime refuses it.
  EXPECT(cudaMemcpy(hout, hx, sizeof hx, cudaMemcpyHostToDevice) == cudaErrorInvalidValue, "");
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "last error");
  EXPECT(cudaGetLastError() == cudaSuccess, "cleared");
  cudaFree(x);
  cudaFree(out);
}

static void check_cluster() {
  unsigned *out, h[8];
  cudaMalloc(&out, sizeof h);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(8);
  config.blockDim = dim3(32);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 4;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  config.attrs = attr;
  config.numAttrs = 1;
  EXPECT(cudaLaunchKernelEx(&config, cluster_rank, out) == cudaSuccess, "cudaLaunchKernelEx");
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < 8; ++i)
    EXPECT(h[i] == i % 4, "cluster rank of CTA %u = %u", i, h[i]);
  cudaFree(out);
}

static void check_dynamic_smem() {
  const int n = 20000; // 80000 bytes: needs the attribute
  int *d, *h = new int[n];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  reverse_in_smem<<<1, 128, n * sizeof(int)>>>(d, n);
  EXPECT(cudaGetLastError() != cudaSuccess, "80000 bytes without the attribute");
  EXPECT(cudaFuncSetAttribute(reverse_in_smem, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              n * sizeof(int)) == cudaSuccess, "cudaFuncSetAttribute");
  reverse_in_smem<<<1, 128, n * sizeof(int)>>>(d, n);
  EXPECT(cudaGetLastError() == cudaSuccess, "80000 bytes with the attribute");
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 997)
    EXPECT(h[i] == n - 1 - i, "reversed[%d] = %d", i, h[i]);
  cudaFree(d);
  delete[] h;
}

static void check_device_and_events() {
  int sms = 0, optin = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  EXPECT(sms == 132 && optin == 232448, "sms %d optin %d", sms, optin);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = -1;
  EXPECT(cudaEventElapsedTime(&ms, a, b) == cudaSuccess && ms >= 0, "elapsed %g", ms);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}

static void check_tensor_maps() {
  using Encode = decltype(&cuTensorMapEncodeTiled);
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  EXPECT(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                          &q) == cudaSuccess && q == cudaDriverEntryPointSuccess,
         "entry point");
  Encode encode = reinterpret_cast<Encode>(fn);
  float *g;
  cudaMalloc(&g, 64 * 64 * sizeof(float));
  alignas(64) CUtensorMap map;
  cuuint64_t dims[2] = {64, 64}, strides[1] = {64 * sizeof(float)};
  cuuint32_t box[2] = {32, 32}, elem[2] = {1, 1};
  CUresult ok = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box, elem,
                       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                       CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  EXPECT(ok == CUDA_SUCCESS, "encode: %d", int(ok));
  strides[0] = 64 * sizeof(float) + 4; // not a multiple of 16
  CUresult bad = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides,
                                        box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        CU_TENSOR_MAP_SWIZZLE_128B,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  EXPECT(bad == CUDA_ERROR_INVALID_VALUE, "bad stride: %d", int(bad));
  cudaFree(g);
}

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "exit") == 0)
    return std::atoi(argv[2]);
  check_axpy();
  check_cluster();
  check_dynamic_smem();
  check_device_and_events();
  check_tensor_maps();
  if (failures)
    return 1;
  std::printf("e2e ok\n");
  return 0;
}
