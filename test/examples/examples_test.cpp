// examples_test.cpp - the examples' CPU references against plain C++ -------//
// Each examples/X.exg is compiled by `exgc --emit=cpp` into X_ref.cpp (see
// CMakeLists.txt); this file calls their extern "C" functions, declared here
// with the ABI of docs/abi.md, on random inputs of several sizes and compares
// with loops written directly in C++: exactly for copies and element-wise
// updates (the same float operations in the same order), with a relative
// tolerance for sums.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
int saxpy(int64_t n, float a, const float *x, float *y);
int vector_copy(int64_t n, const float *A, float *B);
int matmul(int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C);
int gemm_naive(int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C);
int gemm_sm80(int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C);
int gemm_tf32_sm90a(int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C);
int gemm_tf32_sm90a_cluster(int64_t M, int64_t N, int64_t K, const float *A, const float *B,
                            float *C);
int gemm_tf32_sm90a_tmastore(int64_t M, int64_t N, int64_t K, const float *A, const float *B,
                             float *C);
int gemv_f32(int64_t M, int64_t K, const float *A, const float *x, float *y);
}
// The GEMM family declares exg_bf16 and exg_f16 (docs/abi.md) with its functions.
#include "gemm_hopper_ref.h"

namespace {

std::vector<float> random_vector(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

void expect_close(const std::vector<float> &got, const std::vector<float> &want, int64_t K) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-5 * K + 1e-6) << "at element " << i;
}

// Sizes that are and are not multiples of the task size (256).
class SaxpyTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(SaxpyTest, MatchesLoop) {
  int64_t n = GetParam();
  std::vector<float> x = random_vector(n, 1), y = random_vector(n, 2), want = y;
  float a = 1.75f;
  for (int64_t i = 0; i < n; ++i)
    want[i] = a * x[i] + want[i];
  ASSERT_EQ(saxpy(n, a, x.data(), y.data()), 0);
  EXPECT_EQ(y, want);
}

INSTANTIATE_TEST_SUITE_P(Sizes, SaxpyTest, ::testing::Values(1, 255, 256, 257, 1000, 4096));

class VectorCopyTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(VectorCopyTest, CopiesExactly) {
  int64_t n = GetParam();
  std::vector<float> a = random_vector(n, 3), b(n, 0.0f);
  ASSERT_EQ(vector_copy(n, a.data(), b.data()), 0);
  EXPECT_EQ(a, b);
}

INSTANTIATE_TEST_SUITE_P(Sizes, VectorCopyTest, ::testing::Values(256, 512, 2816));

TEST(VectorCopy, ViolatedPreconditionReturnsItsLineAndWritesNothing) {
  // `assert n % 256 == 0` is line 5 of examples/vector_copy.exg.
  std::vector<float> a = random_vector(300, 4), b(300, 0.0f);
  EXPECT_EQ(vector_copy(300, a.data(), b.data()), 5);
  EXPECT_EQ(b, std::vector<float>(300, 0.0f));
}

TEST(VectorCopy, NonPositiveSizeIsRejected) {
  float a = 0, b = 0;
  EXPECT_NE(vector_copy(0, &a, &b), 0);
  EXPECT_NE(vector_copy(-256, &a, &b), 0);
}

struct MatSizes {
  int64_t M, N, K;
};

std::vector<float> reference_matmul(const MatSizes &s, const std::vector<float> &A,
                                    const std::vector<float> &B) {
  std::vector<float> C(s.M * s.N, 0.0f);
  for (int64_t i = 0; i < s.M; ++i)
    for (int64_t j = 0; j < s.N; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < s.K; ++k)
        acc += double(A[i * s.K + k]) * double(B[k * s.N + j]);
      C[i * s.N + j] = float(acc);
    }
  return C;
}

class MatmulTest : public ::testing::TestWithParam<MatSizes> {};

TEST_P(MatmulTest, Matmul) {
  MatSizes s = GetParam();
  std::vector<float> A = random_vector(s.M * s.K, 5), B = random_vector(s.K * s.N, 6);
  std::vector<float> C(s.M * s.N, 123.0f); // overwritten: matmul starts from 0
  ASSERT_EQ(matmul(s.M, s.N, s.K, A.data(), B.data(), C.data()), 0);
  expect_close(C, reference_matmul(s, A, B), s.K);
}

INSTANTIATE_TEST_SUITE_P(Sizes, MatmulTest,
                         ::testing::Values(MatSizes{1, 1, 1}, MatSizes{3, 5, 7},
                                           MatSizes{16, 32, 8}, MatSizes{33, 17, 65}));

class GemmNaiveTest : public ::testing::TestWithParam<MatSizes> {};

TEST_P(GemmNaiveTest, MatchesMatmul) {
  MatSizes s = GetParam();
  std::vector<float> A = random_vector(s.M * s.K, 7), B = random_vector(s.K * s.N, 8);
  std::vector<float> C(s.M * s.N, -5.0f);
  ASSERT_EQ(gemm_naive(s.M, s.N, s.K, A.data(), B.data(), C.data()), 0);
  expect_close(C, reference_matmul(s, A, B), s.K);
}

INSTANTIATE_TEST_SUITE_P(Sizes, GemmNaiveTest,
                         ::testing::Values(MatSizes{16, 16, 1}, MatSizes{32, 48, 16},
                                           MatSizes{64, 16, 100}));

TEST(GemmNaive, RejectsSizesThatAreNotTileMultiples) {
  std::vector<float> A(24 * 8), B(8 * 16), C(24 * 16, 1.0f);
  EXPECT_EQ(gemm_naive(24, 16, 8, A.data(), B.data(), C.data()), 12); // assert M % 16 == 0 (line 12)
  EXPECT_EQ(gemm_naive(16, 24, 8, A.data(), B.data(), C.data()), 13); // assert N % 16 == 0 (line 13)
  EXPECT_EQ(C, std::vector<float>(24 * 16, 1.0f));
}

// The scheduled tiled GEMM adds the products of each element in the order of
// the textbook loop (k ascending), so it matches examples/matmul.exg exactly.
class GemmSm80Test : public ::testing::TestWithParam<MatSizes> {};

TEST_P(GemmSm80Test, MatchesMatmul) {
  MatSizes s = GetParam();
  std::vector<float> A = random_vector(s.M * s.K, 9), B = random_vector(s.K * s.N, 10);
  std::vector<float> C(s.M * s.N, -5.0f), want(s.M * s.N, 7.0f);
  ASSERT_EQ(gemm_sm80(s.M, s.N, s.K, A.data(), B.data(), C.data()), 0);
  ASSERT_EQ(matmul(s.M, s.N, s.K, A.data(), B.data(), want.data()), 0);
  EXPECT_EQ(C, want);
  expect_close(C, reference_matmul(s, A, B), s.K);
}

INSTANTIATE_TEST_SUITE_P(Sizes, GemmSm80Test,
                         ::testing::Values(MatSizes{64, 64, 16}, MatSizes{128, 64, 48},
                                           MatSizes{64, 192, 32}));

TEST(GemmSm80, RejectsSizesThatAreNotTileMultiples) {
  std::vector<float> A(96 * 32), B(32 * 96), C(96 * 96, 1.0f);
  EXPECT_EQ(gemm_sm80(96, 64, 16, A.data(), B.data(), C.data()), 21); // assert M % 64 == 0
  EXPECT_EQ(gemm_sm80(64, 96, 16, A.data(), B.data(), C.data()), 22); // assert N % 64 == 0
  EXPECT_EQ(gemm_sm80(64, 64, 24, A.data(), B.data(), C.data()), 23); // assert K % 16 == 0
  EXPECT_EQ(C, std::vector<float>(96 * 96, 1.0f));
}

} // namespace

// The hand-scheduled Hopper GEMM (C = A @ B^T, B stored N x K) on ragged sizes:
// its tasks cover 128 x 256 tiles past M and N, its K loop steps of 32 past K
// (the TMA loads read zeros there) and its guarded epilogue stores only inside
// C. 900 x 700 x 272: 7 full row tiles + 4 rows, 2 column tiles + 188, two
// trips around the ring plus a K tail of 16.
namespace {

using GemmAbtF32 = int (*)(int64_t, int64_t, int64_t, const float *, const float *, float *);

/// The TF32 value wgmma reads for an f32 operand: the 13 low mantissa bits
/// cleared (PTX ISA 9.7.15.5.2), written here apart from the generated code's.
float tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u &= ~uint32_t(0x1FFF);
  std::memcpy(&x, &u, 4);
  return x;
}

/// C = A @ B^T by `gemm` (B stored N x K) against reference_matmul of the
/// TF32 operands, the algorithm's products (`tf32_truncate(A[m, k]) *
/// tf32_truncate(B[n, k])`).
void expect_gemm_abt(GemmAbtF32 gemm, const MatSizes &s) {
  std::vector<float> A = random_vector(s.M * s.K, 11), Bt = random_vector(s.N * s.K, 12);
  std::vector<float> A32(A.size()), B(s.K * s.N); // B^T, as reference_matmul reads it
  for (size_t i = 0; i < A.size(); ++i)
    A32[i] = tf32(A[i]);
  for (int64_t n = 0; n < s.N; ++n)
    for (int64_t k = 0; k < s.K; ++k)
      B[k * s.N + n] = tf32(Bt[n * s.K + k]);
  std::vector<float> C(s.M * s.N, -5.0f);
  ASSERT_EQ(gemm(s.M, s.N, s.K, A.data(), Bt.data(), C.data()), 0);
  expect_close(C, reference_matmul(s, A32, B), s.K);
}

} // namespace

class GemmTf32Sm90aTest : public ::testing::TestWithParam<MatSizes> {};

TEST_P(GemmTf32Sm90aTest, MatchesAlgorithm) { expect_gemm_abt(gemm_tf32_sm90a, GetParam()); }

INSTANTIATE_TEST_SUITE_P(Sizes, GemmTf32Sm90aTest,
                         ::testing::Values(MatSizes{900, 700, 272}, MatSizes{1, 1, 4},
                                           MatSizes{128, 256, 32}, MatSizes{129, 257, 36}));

// The 2 x 1 cluster GEMM: a task is a 256 x 256 tile, CTA c of the cluster takes its rows
// 128 c .. 128 c + 127, both share the B tile. 900 = 3 tiles + 132 rows (the second CTA of the
// last cluster has 4 rows), 129 (the second CTA has no row at all), 256 (exactly one cluster).
class GemmTf32Sm90aClusterTest : public ::testing::TestWithParam<MatSizes> {};

TEST_P(GemmTf32Sm90aClusterTest, MatchesAlgorithm) {
  expect_gemm_abt(gemm_tf32_sm90a_cluster, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Sizes, GemmTf32Sm90aClusterTest,
                         ::testing::Values(MatSizes{900, 700, 272}, MatSizes{1, 1, 4},
                                           MatSizes{256, 256, 32}, MatSizes{129, 257, 36},
                                           MatSizes{260, 700, 132}));

// The TMA-store epilogue: each 64 x 32 box of C is stored whole, and the store drops what
// lies outside C. 700 = 21 boxes + 28 columns, 900 = 14 boxes + 4 rows; 4 x 4 is one box
// almost all outside; 260 x 36 leaves 4 columns of a second box. The reference writes
// into a buffer with a guard zone after C, which must stay untouched (a box clipped
// wrongly would spill into it).
class GemmTf32Sm90aTmaStoreTest : public ::testing::TestWithParam<MatSizes> {};

TEST_P(GemmTf32Sm90aTmaStoreTest, MatchesAlgorithmAndStaysInC) {
  const MatSizes s = GetParam();
  expect_gemm_abt(gemm_tf32_sm90a_tmastore, s);
  std::vector<float> A = random_vector(s.M * s.K, 3), B = random_vector(s.N * s.K, 4);
  const size_t guard = 4096;
  std::vector<float> C(s.M * s.N + guard, 7.0f);
  ASSERT_EQ(gemm_tf32_sm90a_tmastore(s.M, s.N, s.K, A.data(), B.data(), C.data()), 0);
  for (size_t i = size_t(s.M * s.N); i < C.size(); ++i)
    ASSERT_EQ(C[i], 7.0f) << "written past C at element " << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, GemmTf32Sm90aTmaStoreTest,
                         ::testing::Values(MatSizes{900, 700, 272}, MatSizes{4, 4, 4},
                                           MatSizes{128, 256, 32}, MatSizes{129, 260, 36},
                                           MatSizes{65, 36, 8}));

TEST(GemmTf32Sm90aTmaStore, RejectsNNotMultipleOf4) {
  std::vector<float> A(8 * 8), B(6 * 8), C(48, 1.0f);
  EXPECT_NE(gemm_tf32_sm90a_tmastore(8, 6, 8, A.data(), B.data(), C.data()), 0); // N % 4
  EXPECT_EQ(C, std::vector<float>(48, 1.0f));
}

TEST(GemmTf32Sm90a, RejectsKNotMultipleOf4) {
  std::vector<float> A(8 * 6), B(8 * 6), C(64, 1.0f);
  EXPECT_NE(gemm_tf32_sm90a(8, 8, 6, A.data(), B.data(), C.data()), 0); // assert K % 4 == 0
  EXPECT_EQ(C, std::vector<float>(64, 1.0f));
}

// The TF32 kernels of examples/gemm_hopper.exg (one schedule, three CTA
// tiles on 1 x 1 and 2 x 1 clusters) on the same ragged sizes, a size that is
// whole tiles for all but the 512-row cluster tile (256 x 256, two K steps),
// one just past it, and a cluster whose second CTA has no row (129 rows).
class GemmHopperTf32Test
    : public ::testing::TestWithParam<std::tuple<GemmAbtF32, MatSizes>> {};

TEST_P(GemmHopperTf32Test, MatchesAlgorithm) {
  expect_gemm_abt(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(
    KernelsAndSizes, GemmHopperTf32Test,
    ::testing::Combine(::testing::Values(gemm_tf32_128x256, gemm_tf32_256x128, gemm_tf32_128x128,
                                         gemm_tf32_128x256_2x1, gemm_tf32_256x128_2x1,
                                         gemm_tf32_128x128_2x1),
                       ::testing::Values(MatSizes{900, 700, 272}, MatSizes{1, 1, 4},
                                         MatSizes{256, 256, 64}, MatSizes{257, 257, 36},
                                         MatSizes{129, 300, 16})));

// exg_bf16, as generated files define it: exact to f32, and from f32 the
// nearest bf16 with ties to even, which the test finds independently by
// comparing distances to the two neighbours in double.
TEST(Bf16, ConvertsAsTheGpuRoundsAndReads) {
  EXPECT_EQ(exg_bf16(1.0f).bits, 0x3F80);
  EXPECT_EQ(exg_bf16(-2.0f).bits, 0xC000);
  EXPECT_EQ(exg_bf16(1.0f + 1.0f / 256).bits, 0x3F80);     // a tie: down to the even 0x3F80
  EXPECT_EQ(exg_bf16(1.0f + 3.0f / 256).bits, 0x3F82);     // a tie: up to the even 0x3F82
  EXPECT_EQ(exg_bf16(3.4028235e38f).bits, 0x7F80);         // past the largest bf16: infinity
  EXPECT_EQ(exg_bf16(__builtin_inff()).bits, 0x7F80);
  EXPECT_TRUE(std::isnan(float(exg_bf16(__builtin_nanf("")))));
  exg_bf16 h;
  h.bits = 0x4049;                                          // 3.140625
  EXPECT_EQ(float(h), 3.140625f);
  std::mt19937 gen(21);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = any(gen);
    if ((u & 0x7F800000u) == 0x7F800000u)
      continue; // infinities and NaNs: above
    float f;
    std::memcpy(&f, &u, 4);
    exg_bf16 lo;
    lo.bits = uint16_t(u >> 16);                            // toward zero; lo.bits + 1 away
    // Magnitudes: the neighbour away from zero is |lo| + one unit in its last
    // place (2^128 past the largest bf16, which IEEE rounding turns into infinity).
    int e = (lo.bits >> 7) & 0xFF;
    double mag = std::fabs(double(f)), mlo = std::fabs(double(float(lo)));
    double dlo = mag - mlo, dhi = mlo + std::ldexp(1.0, (e ? e : 1) - 127 - 7) - mag;
    uint16_t hi = uint16_t(lo.bits + 1);
    uint16_t want = dlo < dhi ? lo.bits : dhi < dlo ? hi : (lo.bits % 2 == 0 ? lo.bits : hi);
    ASSERT_EQ(exg_bf16(f).bits, want) << std::hex << u;
  }
}

// exg_f16, as generated files define it. Reads are checked on all 65,536 bit
// patterns against a decoding by ldexp; from f32, the nearest finite f16 (ties
// to the even bit pattern, infinity from 65520 on, as IEEE rounding does) is
// found by searching the table of all finite f16 magnitudes.
TEST(F16, ConvertsAsTheGpuRoundsAndReads) {
  EXPECT_EQ(exg_f16(1.0f).bits, 0x3C00);
  EXPECT_EQ(exg_f16(-2.0f).bits, 0xC000);
  EXPECT_EQ(exg_f16(65504.0f).bits, 0x7BFF);                // the largest f16
  EXPECT_EQ(exg_f16(65519.996f).bits, 0x7BFF);
  EXPECT_EQ(exg_f16(65520.0f).bits, 0x7C00);                // a tie past the largest: infinity
  EXPECT_EQ(exg_f16(std::ldexp(1.0f, -24)).bits, 0x0001);   // the least subnormal
  EXPECT_EQ(exg_f16(std::ldexp(1.0f, -25)).bits, 0x0000);   // a tie: down to the even 0
  EXPECT_EQ(exg_f16(std::ldexp(3.0f, -25)).bits, 0x0002);   // a tie: up to the even 2
  EXPECT_EQ(exg_f16(-__builtin_inff()).bits, 0xFC00);
  EXPECT_TRUE(std::isnan(float(exg_f16(__builtin_nanf("")))));
  std::vector<double> magnitude(0x7C00);                    // finite f16 magnitudes, ascending
  for (uint32_t b = 0; b < 0x10000; ++b) {
    uint32_t e = (b >> 10) & 0x1F, m = b & 0x3FF;
    double v = e == 0x1F ? (m ? NAN : INFINITY)
                         : e ? std::ldexp(1024.0 + m, int(e) - 25) : std::ldexp(double(m), -24);
    exg_f16 h;
    h.bits = uint16_t(b);
    if (std::isnan(v))
      ASSERT_TRUE(std::isnan(float(h))) << std::hex << b;
    else
      ASSERT_EQ(double(float(h)), b & 0x8000 ? -v : v) << std::hex << b;
    if (b < 0x7C00)
      magnitude[b] = v;
  }
  std::mt19937 gen(22);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 400000; ++i) {
    uint32_t u = any(gen);
    if (i % 2) // half of them near the f16 range: exponents 2^-28 to 2^17
      u = (u & 0x807FFFFFu) | ((99u + (u >> 23) % 46u) << 23);
    if ((u & 0x7F800000u) == 0x7F800000u)
      continue; // infinities and NaNs: above
    float f;
    std::memcpy(&f, &u, 4);
    double mag = std::fabs(double(f));
    uint16_t want = 0x7C00;
    if (mag < 65520.0) {
      size_t hi = std::lower_bound(magnitude.begin(), magnitude.end(), mag) - magnitude.begin();
      size_t lo = hi > 0 && magnitude[hi] != mag ? hi - 1 : hi;
      double dlo = mag - magnitude[lo], dhi = hi < magnitude.size() ? magnitude[hi] - mag : 1e9;
      want = uint16_t(dlo < dhi ? lo : dhi < dlo ? hi : (lo % 2 == 0 ? lo : hi));
    }
    want = uint16_t(want | ((u >> 16) & 0x8000u));
    ASSERT_EQ(exg_f16(f).bits, want) << std::hex << u;
  }
}

// The BF16 and FP16 kernels of the family: inputs are 16-bit floats, products
// exact in f32 and summed in f32; the reference sums the same values in double.
template <typename T> using GemmAbt16 = int (*)(int64_t, int64_t, int64_t, const T *, const T *, float *);

template <typename T> void expect_gemm_abt_16(GemmAbt16<T> gemm, MatSizes s) {
  std::vector<float> Af = random_vector(s.M * s.K, 15), Bf = random_vector(s.N * s.K, 16);
  std::vector<T> A(Af.begin(), Af.end()), Bt(Bf.begin(), Bf.end());
  std::vector<float> C(s.M * s.N, -5.0f), want(s.M * s.N);
  for (int64_t m = 0; m < s.M; ++m)
    for (int64_t n = 0; n < s.N; ++n) {
      double acc = 0;
      for (int64_t k = 0; k < s.K; ++k)
        acc += double(float(A[m * s.K + k])) * double(float(Bt[n * s.K + k]));
      want[m * s.N + n] = float(acc);
    }
  ASSERT_EQ(gemm(s.M, s.N, s.K, A.data(), Bt.data(), C.data()), 0);
  expect_close(C, want, s.K);
}

// Ragged sizes, one element, whole tiles of every configuration (256 x 256,
// two K steps), one past them, and (for the 2 x 1 clusters, 256 rows a task) a
// cluster whose second CTA has no row.
const auto kGemm16Sizes =
    ::testing::Values(MatSizes{900, 700, 272}, MatSizes{1, 1, 8}, MatSizes{256, 256, 128},
                      MatSizes{257, 257, 72}, MatSizes{129, 300, 16});

class GemmHopperBf16Test
    : public ::testing::TestWithParam<std::tuple<GemmAbt16<exg_bf16>, MatSizes>> {};

TEST_P(GemmHopperBf16Test, MatchesAlgorithm) {
  expect_gemm_abt_16(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(KernelsAndSizes, GemmHopperBf16Test,
                         ::testing::Combine(::testing::Values(gemm_bf16_128x256, gemm_bf16_128x128,
                                                              gemm_bf16_128x256_2x1),
                                            kGemm16Sizes));

class GemmHopperF16Test
    : public ::testing::TestWithParam<std::tuple<GemmAbt16<exg_f16>, MatSizes>> {};

TEST_P(GemmHopperF16Test, MatchesAlgorithm) {
  expect_gemm_abt_16(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(KernelsAndSizes, GemmHopperF16Test,
                         ::testing::Combine(::testing::Values(gemm_f16_128x256,
                                                              gemm_f16_128x256_2x1),
                                            kGemm16Sizes));

TEST(GemmHopperF16, RejectsKNotMultipleOf8) {
  std::vector<exg_f16> A(8 * 12, exg_f16(1.0f)), B(8 * 12, exg_f16(1.0f));
  std::vector<float> C(64, 1.0f);
  EXPECT_NE(gemm_f16_128x256(8, 8, 12, A.data(), B.data(), C.data()), 0); // assert K % 8 == 0
  EXPECT_EQ(C, std::vector<float>(64, 1.0f));
}

TEST(GemmHopperBf16, RejectsKNotMultipleOf8) {
  std::vector<exg_bf16> A(8 * 12, exg_bf16(1.0f)), B(8 * 12, exg_bf16(1.0f));
  std::vector<float> C(64, 1.0f);
  EXPECT_NE(gemm_bf16_128x256(8, 8, 12, A.data(), B.data(), C.data()), 0); // assert K % 8 == 0
  EXPECT_EQ(C, std::vector<float>(64, 1.0f));
}

// The hand-scheduled GEMV: partial sums per team thread, then the butterfly
// of shuffles; every team thread ends with the row's sum and thread 0 stores.
TEST(GemvF32, MatchesAx) {
  for (auto [M, K] : {std::pair<int64_t, int64_t>{4, 8}, {256, 128}, {36, 1000}}) {
    std::vector<float> A = random_vector(M * K, 13), x = random_vector(K, 14), y(M, 9.0f);
    ASSERT_EQ(gemv_f32(M, K, A.data(), x.data(), y.data()), 0);
    for (int64_t m = 0; m < M; ++m) {
      double want = 0;
      for (int64_t k = 0; k < K; ++k)
        want += double(A[m * K + k]) * double(x[k]);
      ASSERT_NEAR(y[m], want, 1e-5 * K + 1e-6) << "row " << m << " of " << M << " x " << K;
    }
  }
}
