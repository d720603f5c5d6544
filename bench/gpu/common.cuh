// common.cuh - what every part of the GPU benchmark harness shares ------------------//
// Element types, the kernel table (kernels.def) turned into records, and the two ways a
// CUDA error ends the run: a fault in the harness or cuBLAS (exit 1: our bug or a broken
// machine), and a fault or hang inside an exgc kernel (exit 4, the kernel's name written
// to the fault file, so run.sh can run again without it and keep the others' numbers).
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace bench {

enum class Elem { F32, TF32, BF16 };
#define EXG_ELEM_f32 ::bench::Elem::F32
#define EXG_ELEM_tf32 ::bench::Elem::TF32
#define EXG_ELEM_bf16 ::bench::Elem::BF16

inline const char *elem_name(Elem e) {
  switch (e) {
  case Elem::F32: return "f32";
  case Elem::TF32: return "tf32";
  case Elem::BF16: return "bf16";
  }
  return "?";
}
/// Bytes of one operand element in device memory (TF32 operands are stored as fp32).
inline size_t elem_bytes(Elem e) { return e == Elem::BF16 ? 2 : 4; }

/// Where an exgc kernel's fault is reported (run.sh sets it with --fault-file).
inline std::string &fault_file() {
  static std::string path;
  return path;
}

[[noreturn]] inline void die(const char *where, const std::string &what) {
  std::fprintf(stderr, "harness: %s: %s\n", where, what.c_str());
  std::exit(1);
}

/// A fault or hang in exgc kernel `kernel`: the CUDA context is lost, so the process ends.
[[noreturn]] inline void kernel_fault(const std::string &kernel, const std::string &what) {
  std::fprintf(stderr, "harness: FAULT in exgc kernel '%s': %s\n", kernel.c_str(), what.c_str());
  if (!fault_file().empty())
    if (FILE *f = std::fopen(fault_file().c_str(), "w")) {
      std::fprintf(f, "%s\n", kernel.c_str());
      std::fclose(f);
    }
  std::fflush(stdout);
  std::_Exit(4);
}

#define BENCH_CUDA(expr)                                                                      \
  do {                                                                                        \
    cudaError_t bench_err_ = (expr);                                                          \
    if (bench_err_ != cudaSuccess)                                                            \
      ::bench::die(#expr, cudaGetErrorString(bench_err_));                                    \
  } while (0)
#define BENCH_CUBLAS(expr)                                                                    \
  do {                                                                                        \
    cublasStatus_t bench_st_ = (expr);                                                        \
    if (bench_st_ != CUBLAS_STATUS_SUCCESS)                                                   \
      ::bench::die(#expr, cublasGetStatusString(bench_st_));                                  \
  } while (0)

/// One launchable computation: an exgc host function or a cuBLAS call, bound to its operands.
using Launch = std::function<cudaError_t(cudaStream_t)>;

using GemmCall = std::function<cudaError_t(cudaStream_t, int64_t M, int64_t N, int64_t K,
                                           const void *A, const void *B, float *C)>;
using GemvCall = std::function<cudaError_t(cudaStream_t, int64_t M, int64_t K, const float *A,
                                           const float *x, float *y)>;

/// Adapts a generated GEMM to untyped operands. The element pointer types come from the
/// generated header (bf16 may be spelled __nv_bfloat16 or uint16_t there); the cast only
/// names the same device bytes.
template <class PA, class PB, class PC>
GemmCall erase_gemm(cudaError_t (*f)(cudaStream_t, int64_t, int64_t, int64_t, PA, PB, PC)) {
  return [f](cudaStream_t s, int64_t M, int64_t N, int64_t K, const void *A, const void *B,
             float *C) {
    return f(s, M, N, K, static_cast<PA>(const_cast<void *>(A)),
             static_cast<PB>(const_cast<void *>(B)), static_cast<PC>(static_cast<void *>(C)));
  };
}
template <class PA, class PX, class PY>
GemvCall erase_gemv(cudaError_t (*f)(cudaStream_t, int64_t, int64_t, PA, PX, PY)) {
  return [f](cudaStream_t s, int64_t M, int64_t K, const float *A, const float *x, float *y) {
    return f(s, M, K, static_cast<PA>(const_cast<float *>(A)),
             static_cast<PX>(const_cast<float *>(x)), static_cast<PY>(y));
  };
}

struct GemmKernel {
  const char *file, *name;
  Elem elem;
  int64_t m_mult, n_mult, k_mult;
  GemmCall call;
  bool accepts(int64_t M, int64_t N, int64_t K) const {
    return M % m_mult == 0 && N % n_mult == 0 && K % k_mult == 0;
  }
};
struct GemvKernel {
  const char *file, *name;
  Elem elem;
  int64_t m_mult, k_mult;
  GemvCall call;
  bool accepts(int64_t M, int64_t K) const { return M % m_mult == 0 && K % k_mult == 0; }
};

std::vector<GemmKernel> gemm_kernels();
std::vector<GemvKernel> gemv_kernels();

}  // namespace bench
