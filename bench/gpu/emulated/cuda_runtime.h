// cuda_runtime.h (emulated) - the part of CUDA the harness uses, on the CPU ---------//
// For the ctest gpu_bench_emulated only (emulate.py): device memory is host memory,
// streams and events are immediate, one emulated SM. A kernel launch (rewritten by
// emulate.py from `k<<<g, b, s, t>>>(args)` to `emu::launch(g, b, [&] { k(args); })`)
// runs each warp's 32 threads on 32 lane threads, so warp shuffles meet at a barrier;
// warps and blocks run one after another, so kernels that wait on other warps cannot run,
// and grids are cut to two blocks (the harness's kernels are all grid-stride loops).
#pragma once
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct float4 {
  float x, y, z, w;
};
inline thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorNotReady = 600,
  cudaErrorUnknown = 999
};
enum cudaMemcpyKind {
  cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice
};
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount, cudaDevAttrL2CacheSize };
enum cudaDataType { CUDA_R_32F, CUDA_R_64F, CUDA_R_16BF, CUDA_R_16F };
using cudaStream_t = struct EmuStream *;
using cudaEvent_t = std::chrono::steady_clock::time_point *;
constexpr unsigned cudaStreamNonBlocking = 1;
constexpr int emu_sms = 1, emu_l2_bytes = 1 << 20;

struct cudaDeviceProp {
  char name[256];
  int major, minor, multiProcessorCount, l2CacheSize;
  size_t totalGlobalMem;
};

inline const char *cudaGetErrorString(cudaError_t e) {
  return e == cudaSuccess ? "no error" : "emulated error";
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int *n) { return *n = 1, cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) { return *d = 0, cudaSuccess; }
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int) {
  *v = a == cudaDevAttrMultiProcessorCount ? emu_sms : emu_l2_bytes;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  std::strcpy(p->name, "emulated CPU");
  p->major = 9, p->minor = 0, p->multiProcessorCount = emu_sms, p->l2CacheSize = emu_l2_bytes;
  p->totalGlobalMem = size_t(1) << 30;
  return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int *v) { return *v = 0, cudaSuccess; }
inline cudaError_t cudaRuntimeGetVersion(int *v) { return *v = 0, cudaSuccess; }
inline cudaError_t cudaMalloc(void **p, size_t n) {
  *p = std::malloc(n ? n : 1);
  return *p ? cudaSuccess : cudaErrorUnknown;
}
inline cudaError_t cudaFree(void *p) { return std::free(p), cudaSuccess; }
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) {
  return std::memmove(d, s, n), cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k,
                                   cudaStream_t = nullptr) {
  return cudaMemcpy(d, s, n, k);
}
inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t = nullptr) {
  return std::memset(p, v, n), cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
  return *s = nullptr, cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  return *e = new std::chrono::steady_clock::time_point(), cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { return delete e, cudaSuccess; }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
  return *e = std::chrono::steady_clock::now(), cudaSuccess;
}
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(*b - *a).count();
  return cudaSuccess;
}

namespace emu {
struct Warp {
  std::barrier<> meet{32};
  uint64_t slot[32];
};
inline thread_local Warp *warp = nullptr;
inline std::mutex atomic_lock;

/// 32 lane threads, made once, that run one warp of a kernel at a time.
class Lanes {
public:
  Lanes() {
    for (unsigned lane = 0; lane < 32; ++lane)
      threads_.emplace_back([this, lane] {
        for (;;) {
          start_.arrive_and_wait();
          if (quit_) return;
          threadIdx = dim3(first_ + lane), blockIdx = dim3(block_), blockDim = block_dim_,
          gridDim = grid_dim_;
          warp = &warp_;
          (*body_)();
          done_.arrive_and_wait();
        }
      });
  }
  ~Lanes() {
    quit_ = true;
    start_.arrive_and_wait();
    for (std::thread &t : threads_) t.join();
  }
  void run(dim3 grid, dim3 block, unsigned b, unsigned first, const std::function<void()> &f) {
    grid_dim_ = grid, block_dim_ = block, block_ = b, first_ = first, body_ = &f;
    start_.arrive_and_wait();
    done_.arrive_and_wait();
  }

private:
  std::barrier<> start_{33}, done_{33};
  std::vector<std::thread> threads_;
  Warp warp_;
  dim3 grid_dim_, block_dim_;
  unsigned block_ = 0, first_ = 0;
  const std::function<void()> *body_ = nullptr;
  bool quit_ = false;
};

/// Runs `body` as every thread of a grid of `grid` x `block` threads (x only), one warp
/// after another. Every kernel of the harness strides over its elements by the grid's
/// size, so a smaller grid computes the same: at most two blocks run (two, so that the
/// atomics still combine blocks), which keeps the emulation fast on a loaded machine.
inline void launch(dim3 grid, dim3 block, const std::function<void()> &body) {
  static Lanes lanes;
  const dim3 run_grid(grid.x < 2 ? grid.x : 2);
  for (unsigned b = 0; b < run_grid.x; ++b)
    for (unsigned first = 0; first < block.x; first += 32)
      lanes.run(run_grid, block, b, first, body);
}
}  // namespace emu

/// Every lane's `v` into the warp's slots; `from(lane)` names the lane each one reads.
template <class T, class From> T emu_shfl(T v, From from) {
  static_assert(sizeof(T) <= 8);
  const unsigned lane = threadIdx.x % 32;
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  emu::warp->slot[lane] = bits;
  emu::warp->meet.arrive_and_wait();
  std::memcpy(&v, &emu::warp->slot[from(lane) % 32], sizeof v);
  emu::warp->meet.arrive_and_wait();
  return v;
}
template <class T> T __shfl_down_sync(unsigned, T v, int offset) {
  return emu_shfl(v, [offset](unsigned lane) { return lane + offset < 32 ? lane + offset : lane; });
}
template <class T> T __shfl_xor_sync(unsigned, T v, int mask) {
  return emu_shfl(v, [mask](unsigned lane) { return lane ^ unsigned(mask); });
}
template <class T> T __shfl_sync(unsigned, T v, int src) {
  return emu_shfl(v, [src](unsigned) { return unsigned(src); });
}
template <class T> T atomicAdd(T *p, T v) {
  std::lock_guard<std::mutex> g(emu::atomic_lock);
  T old = *p;
  *p += v;
  return old;
}
template <class T> T atomicMin(T *p, T v) {
  std::lock_guard<std::mutex> g(emu::atomic_lock);
  T old = *p;
  *p = v < old ? v : old;
  return old;
}
template <class T> T atomicMax(T *p, T v) {
  std::lock_guard<std::mutex> g(emu::atomic_lock);
  T old = *p;
  *p = v > old ? v : old;
  return old;
}
inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
using std::fabs;
using std::isnan;
