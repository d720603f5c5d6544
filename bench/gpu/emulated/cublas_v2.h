// cublas_v2.h (emulated) - the cuBLAS calls of the harness, as cuBLAS documents them --//
// Column-major matrices, op(X) = X or X^T, leading dimensions in elements. Plain loops on
// the CPU for the ctest gpu_bench_emulated: they check that the harness's row-major
// reading of cuBLAS (C = A B^T computed as C^T = B A^T) agrees with its host FP64 samples.
// FAST_TF32 rounds both operands to TF32 (10 explicit bits, to nearest).
#pragma once
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_runtime.h"

enum cublasStatus_t { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_INVALID_VALUE = 7 };
enum cublasOperation_t { CUBLAS_OP_N, CUBLAS_OP_T };
enum cublasComputeType_t { CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_FAST_TF32 };
enum cublasGemmAlgo_t { CUBLAS_GEMM_DEFAULT = -1 };
using cublasHandle_t = struct EmuBlas *;

inline cublasStatus_t cublasCreate(cublasHandle_t *h) { return *h = nullptr, CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasDestroy(cublasHandle_t) { return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t) { return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasGetVersion(cublasHandle_t, int *v) { return *v = 0, CUBLAS_STATUS_SUCCESS; }
inline const char *cublasGetStatusString(cublasStatus_t s) {
  return s == CUBLAS_STATUS_SUCCESS ? "success" : "emulated cuBLAS error";
}

namespace emu {
/// Element (i, j) of op(X), X column-major with leading dimension ld.
template <class Get> double op_at(Get get, cublasOperation_t op, int ld, int i, int j) {
  return op == CUBLAS_OP_N ? get(size_t(i) + size_t(j) * ld) : get(size_t(j) + size_t(i) * ld);
}
inline float tf32(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  b = (b + 0x1000u) & ~0x1FFFu;
  std::memcpy(&v, &b, 4);
  return v;
}
inline double read(const void *p, cudaDataType t, size_t i, bool to_tf32) {
  if (t == CUDA_R_16BF) return __bfloat162float(static_cast<const __nv_bfloat16 *>(p)[i]);
  if (t == CUDA_R_16F) return __half2float(static_cast<const __half *>(p)[i]);
  if (t == CUDA_R_64F) return static_cast<const double *>(p)[i];
  const float v = static_cast<const float *>(p)[i];
  return to_tf32 ? tf32(v) : v;
}
}  // namespace emu

inline cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb,
                                   int m, int n, int k, const void *alpha, const void *A,
                                   cudaDataType at, int lda, const void *B, cudaDataType bt,
                                   int ldb, const void *beta, void *C, cudaDataType ct, int ldc,
                                   cublasComputeType_t comp, cublasGemmAlgo_t) {
  if (ct != CUDA_R_32F) return CUBLAS_STATUS_INVALID_VALUE;
  const bool t32 = comp == CUBLAS_COMPUTE_32F_FAST_TF32;
  const float al = *static_cast<const float *>(alpha), be = *static_cast<const float *>(beta);
  float *c = static_cast<float *>(C);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float acc = 0;
      for (int l = 0; l < k; ++l)
        acc += float(emu::op_at([&](size_t x) { return emu::read(A, at, x, t32); }, ta, lda, i, l) *
                     emu::op_at([&](size_t x) { return emu::read(B, bt, x, t32); }, tb, ldb, l, j));
      float &out = c[size_t(i) + size_t(j) * ldc];
      out = al * acc + (be != 0 ? be * out : 0.f);
    }
  return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasDgemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb,
                                  int m, int n, int k, const double *alpha, const double *A,
                                  int lda, const double *B, int ldb, const double *beta,
                                  double *C, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double acc = 0;
      for (int l = 0; l < k; ++l)
        acc += emu::op_at([&](size_t x) { return A[x]; }, ta, lda, i, l) *
               emu::op_at([&](size_t x) { return B[x]; }, tb, ldb, l, j);
      double &out = C[size_t(i) + size_t(j) * ldc];
      out = *alpha * acc + (*beta != 0 ? *beta * out : 0.0);
    }
  return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasSgemv(cublasHandle_t, cublasOperation_t t, int m, int n,
                                  const float *alpha, const float *A, int lda, const float *x,
                                  int incx, const float *beta, float *y, int incy) {
  const int rows = t == CUBLAS_OP_N ? m : n, inner = t == CUBLAS_OP_N ? n : m;
  for (int i = 0; i < rows; ++i) {
    float acc = 0;
    for (int l = 0; l < inner; ++l)
      acc += float(emu::op_at([&](size_t e) { return A[e]; }, t, lda, i, l)) * x[size_t(l) * incx];
    float &out = y[size_t(i) * incy];
    out = *alpha * acc + (*beta != 0 ? *beta * out : 0.f);
  }
  return CUBLAS_STATUS_SUCCESS;
}
