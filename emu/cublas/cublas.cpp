// emu/cublas/cublas.cpp - the benchmark's cuBLAS calls, on the host ---------//
// Stands in for libcublas.so.13 under exg-emu: GEMM and GEMV in column-major
// order as cuBLAS defines them, each product summed in double and rounded
// once (so these results are at least as accurate as cuBLAS's; TF32 "fast"
// compute types are not degraded to TF32). Launches are synchronous under the
// emulator, so the stream is only remembered.
#include <cublas_v2.h>

#include <cstdint>
#include <cstring>
#include <new>

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
};

namespace {

/// Element (i, j) of op(X) for a column-major X with leading dimension ld.
template <typename T> double at(const T *x, cublasOperation_t op, int64_t ld, int64_t i, int64_t j) {
  return op == CUBLAS_OP_N ? double(x[i + j * ld]) : double(x[j + i * ld]);
}

double load(const void *p, cudaDataType t, int64_t idx) {
  switch (t) {
  case CUDA_R_32F: return double(static_cast<const float *>(p)[idx]);
  case CUDA_R_64F: return static_cast<const double *>(p)[idx];
  case CUDA_R_16BF: {
    uint32_t u = uint32_t(static_cast<const uint16_t *>(p)[idx]) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  case CUDA_R_16F: {
    uint16_t h = static_cast<const uint16_t *>(p)[idx];
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? m * 0x1p-24 : e == 31 ? (m ? __builtin_nan("") : __builtin_inf())
                                              : (1024 + m) * __builtin_ldexp(1.0, e - 25);
    return (h & 0x8000) ? -v : v;
  }
  default: return 0;
  }
}

bool supported(cudaDataType t) {
  return t == CUDA_R_32F || t == CUDA_R_64F || t == CUDA_R_16BF || t == CUDA_R_16F;
}

bool bad_dims(int m, int n, int k, int lda, int ldb, int ldc, cublasOperation_t ta,
              cublasOperation_t tb) {
  if (m < 0 || n < 0 || k < 0)
    return true;
  int a_rows = ta == CUBLAS_OP_N ? m : k, b_rows = tb == CUBLAS_OP_N ? k : n;
  return lda < (a_rows > 1 ? a_rows : 1) || ldb < (b_rows > 1 ? b_rows : 1) ||
         ldc < (m > 1 ? m : 1);
}

/// C = alpha op(A) op(B) + beta C, column-major, summed in double; beta == 0
/// ignores C's old values (they may be NaN), as cuBLAS does.
template <typename T>
cublasStatus_t gemm(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, int m,
                    int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,
                    const T *beta, T *C, int ldc) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (bad_dims(m, n, k, lda, ldb, ldc, ta, tb) || !alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += at(A, ta, lda, i, p) * at(B, tb, ldb, p, j);
      T &c = C[i + j * int64_t(ldc)];
      c = T(double(*alpha) * s + (*beta == 0 ? 0.0 : double(*beta) * double(c)));
    }
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new (std::nothrow) cublasContext;
  return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version) {
  if (!version)
    return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION; // the headers' version: what the program was built against
  return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  default: return "CUBLAS_STATUS_INTERNAL_ERROR";
  }
}

const char *cublasGetStatusString(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS: return "success";
  case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
  case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
  case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
  default: return "an internal operation failed";
  }
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                              int m, int n, int k, const double *alpha, const double *A, int lda,
                              const double *B, int ldb, const double *beta, double *C, int ldc) {
  return gemm(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                              int m, int n, int k, const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta, float *C, int ldc) {
  return gemm(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const float *alpha, const float *A, int lda, const float *x,
                              int incx, const float *beta, float *y, int incy) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 || !alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  int64_t rows = trans == CUBLAS_OP_N ? m : n, cols = trans == CUBLAS_OP_N ? n : m;
  auto xi = [&](int64_t j) { return x[(incx > 0 ? j : cols - 1 - j) * (incx > 0 ? incx : -incx)]; };
  for (int64_t i = 0; i < rows; ++i) {
    double s = 0;
    for (int64_t j = 0; j < cols; ++j)
      s += at(A, trans, lda, i, j) * double(xi(j));
    float &yi = y[(incy > 0 ? i : rows - 1 - i) * (incy > 0 ? incy : -incy)];
    yi = float(double(*alpha) * s + (*beta == 0 ? 0.0 : double(*beta) * yi));
  }
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                            int m, int n, int k, const void *alpha, const void *A,
                            cudaDataType Atype, int lda, const void *B, cudaDataType Btype,
                            int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (bad_dims(m, n, k, lda, ldb, ldc, ta, tb) || !alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (!supported(Atype) || !supported(Btype) || (Ctype != CUDA_R_32F && Ctype != CUDA_R_64F))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  // Scalars are of the compute type: double for the 64F types, else float.
  bool f64 = compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC;
  double a = f64 ? *static_cast<const double *>(alpha) : *static_cast<const float *>(alpha);
  double b = f64 ? *static_cast<const double *>(beta) : *static_cast<const float *>(beta);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) {
        int64_t ai = ta == CUBLAS_OP_N ? i + p * int64_t(lda) : p + i * int64_t(lda);
        int64_t bi = tb == CUBLAS_OP_N ? p + j * int64_t(ldb) : j + p * int64_t(ldb);
        s += load(A, Atype, ai) * load(B, Btype, bi);
      }
      int64_t ci = i + j * int64_t(ldc);
      double old = b == 0 ? 0.0 : b * load(C, Ctype, ci);
      if (Ctype == CUDA_R_32F)
        static_cast<float *>(C)[ci] = float(a * s + old);
      else
        static_cast<double *>(C)[ci] = a * s + old;
    }
  return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"
