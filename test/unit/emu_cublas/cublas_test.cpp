// cublas_test.cpp - the host cuBLAS stand-in against products written out ---//
// Column-major storage and the op(A) / op(B) conventions are what cuBLAS
// defines; the benchmark harness (bench/gpu/) relies on exactly these calls.
#include <cublas_v2.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

struct Handle {
  cublasHandle_t h = nullptr;
  Handle() { EXPECT_EQ(cublasCreate_v2(&h), CUBLAS_STATUS_SUCCESS); }
  ~Handle() { cublasDestroy_v2(h); }
};

TEST(CublasStandIn, DgemmColumnMajorWithTransposes) {
  Handle h;
  // A is 2x3 column-major, B^T is given as 2x3 (so op(B) = B^T is 3x2).
  std::vector<double> A = {1, 4, 2, 5, 3, 6}; // [[1 2 3], [4 5 6]]
  std::vector<double> Bt = {1, 2, 0, 1, 1, 0}; // [[1 0 1], [2 1 0]] -> B = [[1 2], [0 1], [1 0]]
  std::vector<double> C(4, 99.0);
  double one = 1, zero = 0;
  ASSERT_EQ(cublasDgemm_v2(h.h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 2, 3, &one, A.data(), 2, Bt.data(),
                           2, &zero, C.data(), 2),
            CUBLAS_STATUS_SUCCESS);
  // A B = [[1+0+3, 2+2+0], [4+0+6, 8+5+0]]
  EXPECT_EQ(C, (std::vector<double>{4, 10, 4, 13}));
}

TEST(CublasStandIn, BetaZeroIgnoresNaNInC) {
  Handle h;
  std::vector<float> A = {2}, B = {3}, C = {std::numeric_limits<float>::quiet_NaN()};
  float one = 1, zero = 0;
  ASSERT_EQ(cublasSgemm_v2(h.h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, A.data(), 1, B.data(), 1,
                           &zero, C.data(), 1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C[0], 6.0f);
}

TEST(CublasStandIn, GemmExReadsBf16Operands) {
  Handle h;
  // bf16 1.5 = 0x3FC0, -2 = 0xC000.
  std::vector<uint16_t> A = {0x3FC0, 0xC000}, B = {0x3FC0, 0x3FC0};
  std::vector<float> C(1, 0.0f);
  float one = 1, zero = 0;
  // C (1x1) = A^T (1x2 of a 2x1 column) times B (2x1).
  ASSERT_EQ(cublasGemmEx(h.h, CUBLAS_OP_T, CUBLAS_OP_N, 1, 1, 2, &one, A.data(), CUDA_R_16BF, 2,
                         B.data(), CUDA_R_16BF, 2, &zero, C.data(), CUDA_R_32F, 1,
                         CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C[0], 1.5f * 1.5f - 2.0f * 1.5f);
}

TEST(CublasStandIn, SgemvTransposed) {
  Handle h;
  std::vector<float> A = {1, 2, 3, 4, 5, 6}; // 3x2 column-major: [[1 4], [2 5], [3 6]]
  std::vector<float> x = {1, 1, 1}, y = {0, 0};
  float one = 1, zero = 0;
  ASSERT_EQ(cublasSgemv_v2(h.h, CUBLAS_OP_T, 3, 2, &one, A.data(), 3, x.data(), 1, &zero, y.data(),
                           1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(y, (std::vector<float>{6, 15}));
}

TEST(CublasStandIn, RejectsWhatCublasRejects) {
  Handle h;
  double one = 1;
  std::vector<double> A(4), C(4);
  EXPECT_EQ(cublasDgemm_v2(h.h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, A.data(), 1, A.data(), 2,
                           &one, C.data(), 2),
            CUBLAS_STATUS_INVALID_VALUE); // lda < m
  EXPECT_EQ(cublasDgemm_v2(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, A.data(), 1, A.data(),
                           1, &one, C.data(), 1),
            CUBLAS_STATUS_NOT_INITIALIZED);
  float f = 1;
  EXPECT_EQ(cublasGemmEx(h.h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &f, A.data(), CUDA_R_8I, 1,
                         A.data(), CUDA_R_8I, 1, &f, C.data(), CUDA_R_32F, 1, CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STREQ(cublasGetStatusString(CUBLAS_STATUS_SUCCESS), "success");
}

} // namespace
