// common.cuh - what every part of the GPU benchmark harness shares ------------------//
// Element types, the kernel table (kernels.def) turned into records, and the two ways a
// CUDA error ends the run: a fault in the harness or cuBLAS (exit 1: our bug or a broken
// machine), and a fault or hang inside an exgc kernel (exit 4, the kernel's name written
// to the fault file, so run.sh can run again without it and keep the others' numbers).
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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
#include <type_traits>
#include <vector>

namespace bench {

enum class Elem { F32, TF32, BF16, F16 };
#define EXG_ELEM_f32 ::bench::Elem::F32
#define EXG_ELEM_tf32 ::bench::Elem::TF32
#define EXG_ELEM_bf16 ::bench::Elem::BF16
#define EXG_ELEM_f16 ::bench::Elem::F16

inline const char *elem_name(Elem e) {
  switch (e) {
  case Elem::F32: return "f32";
  case Elem::TF32: return "tf32";
  case Elem::BF16: return "bf16";
  case Elem::F16: return "f16";
  }
  return "?";
}
/// Bytes of one operand element in device memory (TF32 operands are stored as fp32).
inline size_t elem_bytes(Elem e) { return e == Elem::BF16 || e == Elem::F16 ? 2 : 4; }

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

inline bool succeeded(cudaError_t e) { return e == cudaSuccess; }
inline bool succeeded(cublasStatus_t s) { return s == CUBLAS_STATUS_SUCCESS; }
inline const char *message(cudaError_t e) { return cudaGetErrorString(e); }
inline const char *message(cublasStatus_t s) { return cublasGetStatusString(s); }
/// A CUDA or cuBLAS call of the harness itself: failing ends the run (exit 1).
#define BENCH_CHECK(expr)                                                                     \
  do {                                                                                        \
    const auto bench_result_ = (expr);                                                        \
    if (!::bench::succeeded(bench_result_))                                                   \
      ::bench::die(#expr, ::bench::message(bench_result_));                                  \
  } while (0)

/// One launchable computation: an exgc host function or a cuBLAS call, bound to its operands.
using Launch = std::function<cudaError_t(cudaStream_t)>;

using GemmCall = std::function<cudaError_t(cudaStream_t, int64_t M, int64_t N, int64_t K,
                                           const void *A, const void *B, float *C)>;
using GemvCall = std::function<cudaError_t(cudaStream_t, int64_t M, int64_t K, const float *A,
                                           const float *x, float *y)>;
using AttentionCall =
    std::function<cudaError_t(cudaStream_t, int64_t BH, int64_t Sq, int64_t Sk, int64_t diag,
                              const void *Q, const void *K, const void *Vt, float *O)>;

/// A generated function's parameter from the harness's argument: a pointer becomes the
/// pointer type of the generated header (bf16 and f16 are the structs exg_bf16 and
/// exg_f16 there; the cast only names the same device bytes), a size stays as it is.
template <class P, class A> P to_param(A a) {
  if constexpr (std::is_pointer_v<P>)
    return static_cast<P>(const_cast<void *>(static_cast<const void *>(a)));
  else
    return a;
}
/// Adapts a generated host function to the harness's call types (GemmCall, GemvCall,
/// AttentionCall).
template <class... P> auto erase(cudaError_t (*f)(cudaStream_t, P...)) {
  return [f](cudaStream_t s, auto... a) { return f(s, to_param<P>(a)...); };
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

struct AttentionKernel {
  const char *file, *name;
  Elem elem;
  int64_t head_dim, sk_mult;
  AttentionCall call;
};

std::vector<GemmKernel> gemm_kernels();
std::vector<GemvKernel> gemv_kernels();
std::vector<AttentionKernel> attention_kernels();

}  // namespace bench
