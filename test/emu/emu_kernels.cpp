// emu_kernels.cpp - every example kernel, emulated, against its CPU reference //
// Built with `exg-emu --nvcc-flags` and run as `exg-emu --seed S -- emu_kernels
// --only=NAME`: each example's CUDA function (exgc's .cu) runs its kernels on
// the emulator at several ragged sizes, and its output is compared with the
// CPU reference of the same proc (`exgc --emit=cpp`, renamed ref_NAME by
// ref_names.h): bit for bit where the arithmetic is exact (copies), within the
// GPU benchmark's bound otherwise (bench/gpu/check.cuh):
//   |c - r| <= 2 * 2 * (eps_in + K 2^-23) * S,  S = sum_k |a||b|,
// twice the bench's bound since both c and r are rounded; S is the reference
// proc run on |A| and |B|, so no kernel's layout is assumed. The relative
// Frobenius error must also stay under the bench's per-type limit (a skipped
// K step moves it far past). Outputs start as NaN, so an element no thread
// writes fails.
#include "gemm_hopper.h"
#include "gemm_naive.h"
#include "gemm_sm80.h"
#include "gemm_tf32_sm90a.h"
#include "gemm_tf32_sm90a_cluster.h"
#include "gemm_tf32_sm90a_tmastore.h"
#include "gemv_f32.h"
#include "saxpy.h"
#include "softmax.h"
#include "softmax_sm90a.h"
#include "pv_sm90a.h"
#include "attention_sm90a.h"
#include "vector_copy.h"

#include "ref_names.h"

#include "gemm_hopper_ref.h"
#include "gemm_naive_ref.h"
#include "gemm_sm80_ref.h"
#include "gemm_tf32_sm90a_cluster_ref.h"
#include "gemm_tf32_sm90a_ref.h"
#include "gemm_tf32_sm90a_tmastore_ref.h"
#include "gemv_f32_ref.h"
#include "saxpy_ref.h"
#include "softmax_ref.h"
#include "softmax_sm90a_ref.h"
#include "pv_sm90a_ref.h"
#include "attention_sm90a_ref.h"
#include "vector_copy_ref.h"

#include "ref_names_undef.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

enum class Elem { TF32, BF16, F16, F32 };

double input_eps(Elem e) { return e == Elem::TF32 ? 0x1p-9 : 0.0; }
double frobenius_limit(Elem e) {
  switch (e) {
  case Elem::TF32: return 0x1p-8;
  case Elem::BF16:
  case Elem::F16: return 0x1p-10;
  case Elem::F32: return 0x1p-14;
  }
  return 0;
}

int passed = 0, failed = 0;

void check_cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "emu_kernels: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

/// A device copy of a host vector, freed at scope end.
template <typename T> struct DeviceVec {
  T *ptr = nullptr;
  size_t n;
  explicit DeviceVec(const std::vector<T> &host) : n(host.size()) {
    check_cuda(cudaMalloc(&ptr, n * sizeof(T)), "cudaMalloc");
    check_cuda(cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  /// Filled with 0xFF bytes: NaN in every float format.
  explicit DeviceVec(size_t count) : n(count) {
    check_cuda(cudaMalloc(&ptr, n * sizeof(T)), "cudaMalloc");
    check_cuda(cudaMemset(ptr, 0xFF, n * sizeof(T)), "cudaMemset");
  }
  std::vector<T> to_host() const {
    std::vector<T> h(n);
    check_cuda(cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return h;
  }
  ~DeviceVec() { cudaFree(ptr); }
};

template <typename T> std::vector<T> random_values(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<T> v(n);
  for (T &x : v)
    x = T(dist(gen));
  return v;
}

template <typename T> std::vector<T> absolute(const std::vector<T> &v) {
  std::vector<T> a(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    a[i] = T(std::fabs(float(v[i])));
  return a;
}

void record(bool ok, const std::string &name, const std::string &detail) {
  std::printf("%s %s %s\n", ok ? "PASS" : "FAIL", name.c_str(), detail.c_str());
  std::fflush(stdout);
  ok ? ++passed : ++failed;
}

/// Compares `got` with the reference `want` within coef * S per element and
/// the Frobenius limit; returns a description of the first failure, or "".
std::string compare(const std::vector<float> &got, const std::vector<float> &want,
                    const std::vector<float> &sum_abs, double coef, double rel_limit) {
  double err2 = 0, ref2 = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double e = std::fabs(double(got[i]) - double(want[i])), b = coef * double(sum_abs[i]);
    if (!(e <= b)) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "element %zu: got %.9g, reference %.9g, bound %.3g", i,
                    double(got[i]), double(want[i]), b);
      return buf;
    }
    err2 += e * e;
    ref2 += double(want[i]) * double(want[i]);
  }
  double rel = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  if (rel > rel_limit) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "relative Frobenius error %.3g over %.3g", rel, rel_limit);
    return buf;
  }
  return "";
}

template <typename T>
using GemmFn = cudaError_t (*)(cudaStream_t, int64_t, int64_t, int64_t, const T *, const T *,
                               float *);
template <typename T>
using GemmRef = int (*)(int64_t, int64_t, int64_t, const T *, const T *, float *);

/// One GEMM-shaped proc (C: [M, N] from A and B of M*K and N*K elements).
template <typename T>
void run_gemm(const std::string &name, GemmFn<T> fn, GemmRef<T> ref, Elem elem, int64_t M,
              int64_t N, int64_t K) {
  std::string size = std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  std::vector<T> a = random_values<T>(size_t(M * K), 11), b = random_values<T>(size_t(N * K), 12);
  DeviceVec<T> da(a), db(b);
  DeviceVec<float> dc{size_t(M * N)};
  check_cuda(fn(nullptr, M, N, K, da.ptr, db.ptr, dc.ptr), name.c_str());
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> got = dc.to_host(), want(static_cast<size_t>(M * N)), sum_abs(static_cast<size_t>(M * N));
  if (int line = ref(M, N, K, a.data(), b.data(), want.data())) {
    record(false, name, size + ": the reference's precondition at line " + std::to_string(line));
    return;
  }
  ref(M, N, K, absolute(a).data(), absolute(b).data(), sum_abs.data());
  double coef = 4.0 * (input_eps(elem) + double(K) * 0x1p-23);
  std::string why = compare(got, want, sum_abs, coef, frobenius_limit(elem));
  record(why.empty(), name, size + (why.empty() ? "" : ": " + why));
}

using GemvFn = cudaError_t (*)(cudaStream_t, int64_t, int64_t, const float *, const float *, float *);
using GemvRef = int (*)(int64_t, int64_t, const float *, const float *, float *);

void run_gemv(const char *name, GemvFn fn, GemvRef ref, int64_t M, int64_t K) {
  std::string size = std::to_string(M) + "x" + std::to_string(K);
  std::vector<float> a = random_values<float>(size_t(M * K), 21),
                     x = random_values<float>(size_t(K), 22);
  DeviceVec<float> da(a), dx(x), dy{size_t(M)};
  check_cuda(fn(nullptr, M, K, da.ptr, dx.ptr, dy.ptr), name);
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> got = dy.to_host(), want(static_cast<size_t>(M)), sum_abs(static_cast<size_t>(M));
  ref(M, K, a.data(), x.data(), want.data());
  ref(M, K, absolute(a).data(), absolute(x).data(), sum_abs.data());
  std::string why = compare(got, want, sum_abs, 4.0 * double(K) * 0x1p-23,
                            frobenius_limit(Elem::F32));
  record(why.empty(), name, size + (why.empty() ? "" : ": " + why));
}

/// A kernel that asserts aligned(x, 4) refuses an x one float off 16 bytes
/// before it launches; so does its CPU reference, with the assert's line.
void run_gemv_misaligned(const char *name, GemvFn fn, GemvRef ref, int64_t M, int64_t K) {
  DeviceVec<float> da{size_t(M * K)}, dx{size_t(K + 1)}, dy{size_t(M)};
  cudaError_t e = fn(nullptr, M, K, da.ptr, dx.ptr + 1, dy.ptr);
  std::vector<float> a(static_cast<size_t>(M * K)), x(static_cast<size_t>(K + 4)),
      y(static_cast<size_t>(M));
  float *x_off = x.data() + (reinterpret_cast<uintptr_t>(x.data()) % 16 == 0 ? 1 : 0);
  int line = ref(M, K, a.data(), x_off, y.data());
  record(e == cudaErrorInvalidValue && line > 0, name,
         "misaligned x: CUDA " + std::string(cudaGetErrorName(e)) + ", reference line " +
             std::to_string(line));
}

/// Kernels compute in 32 bits what sizes up to 2^31 - 1 allow (docs/abi.md):
/// a size past that is refused before anything launches or is read.
void run_gemv_too_large(const char *name, GemvFn fn) {
  DeviceVec<float> da{64}, dx{64}, dy{64};
  const int64_t past = int64_t(1) << 31; // a multiple of 4 and of 32: only the size check fails
  cudaError_t rows = fn(nullptr, past, 32, da.ptr, dx.ptr, dy.ptr);
  cudaError_t cols = fn(nullptr, 4, past, da.ptr, dx.ptr, dy.ptr);
  record(rows == cudaErrorInvalidValue && cols == cudaErrorInvalidValue, name,
         "M or K = 2^31: CUDA " + std::string(cudaGetErrorName(rows)) + ", " +
             std::string(cudaGetErrorName(cols)));
}

/// y = a x + y: the kernel may fuse the multiply-add, the reference need not,
/// so each element may differ by the rounding of one product.
void run_saxpy(int64_t n) {
  std::vector<float> x = random_values<float>(size_t(n), 31), y = random_values<float>(size_t(n), 32);
  const float a = 1.75f;
  DeviceVec<float> dx(x), dy(y);
  check_cuda(saxpy(nullptr, n, a, dx.ptr, dy.ptr), "saxpy");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> got = dy.to_host(), want = y, sum_abs(static_cast<size_t>(n));
  ref_saxpy(n, a, x.data(), want.data());
  for (int64_t i = 0; i < n; ++i)
    sum_abs[size_t(i)] = std::fabs(a * x[size_t(i)]) + std::fabs(y[size_t(i)]);
  std::string why = compare(got, want, sum_abs, 0x1p-22, 1.0); // per element only
  record(why.empty(), "saxpy", std::to_string(n) + (why.empty() ? "" : ": " + why));
}

using SoftmaxFn = cudaError_t (*)(cudaStream_t, int64_t, int64_t, const float *, float *);
using SoftmaxRef = int (*)(int64_t, int64_t, const float *, float *);

/// Row softmax (examples/softmax.exg). The CPU reference must equal the
/// algorithm, a softmax computed in double, within (N + 64) ulps per element:
/// the f32 rounding of x - max (up to 8 ulps of exp's result for |x - max| <
/// 16), of the log2(e) scaling in softmax_fast (up to 11, and 6 for the
/// rounded constant), of each exp, of the row's N-term sum and of the
/// product. The kernel computes those roundings as the reference does, so it
/// must equal it within the math functions' bounds (docs/language.md): exp 2
/// ulps on the GPU against 1/2 in the reference, in each term, in the sum and
/// in the product, (2N + 8) ulps in all; the emulator computes ex2.approx
/// exactly, so softmax_fast meets the same bound. Inputs span [-8, 8].
/// softmax_sm90a computes in an accumulator fragment, rows of at most 64.
void run_softmax(const std::string &name, SoftmaxFn fn, SoftmaxRef ref, int64_t M, int64_t N) {
  std::vector<float> x = random_values<float>(size_t(M * N), 51);
  for (float &v : x)
    v *= 8.0f;
  DeviceVec<float> dx(x), dy{size_t(M * N)};
  check_cuda(fn(nullptr, M, N, dx.ptr, dy.ptr), name.c_str());
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> got = dy.to_host(), want(size_t(M * N)), bound(size_t(M * N));
  if (ref(M, N, x.data(), want.data()) != 0) {
    record(false, name, "the reference failed");
    return;
  }
  std::string why;
  for (int64_t r = 0; r < M && why.empty(); ++r) {
    double mx = -INFINITY, s = 0;
    for (int64_t j = 0; j < N; ++j)
      mx = std::max(mx, double(x[size_t(r * N + j)]));
    for (int64_t j = 0; j < N; ++j)
      s += std::exp(double(x[size_t(r * N + j)]) - mx);
    for (int64_t j = 0; j < N && why.empty(); ++j) {
      size_t i = size_t(r * N + j);
      double exact = std::exp(double(x[i]) - mx) / s;
      bound[i] = float(double(2 * N + 8) * 0x1p-24 * exact);
      if (!(std::fabs(double(want[i]) - exact) <= double(N + 64) * 0x1p-24 * exact))
        why = "the reference's element " + std::to_string(i) + " is " + std::to_string(want[i]) +
              ", the algorithm's " + std::to_string(exact);
    }
  }
  if (why.empty())
    why = compare(got, want, bound, 1.0, 1.0);
  record(why.empty(), name,
         std::to_string(M) + "x" + std::to_string(N) + (why.empty() ? "" : ": " + why));
}

/// O = bf16(P) Vt^T with P from registers (examples/pv_sm90a.exg): the f32
/// tile of P goes to bf16 A fragments and four wgmma .rs add 16 exact
/// products each. The reference adds the products one at a time in f32, so
/// the GEMM bound with K = 64 applies (P's rounding to bf16 is in both); the
/// reference must itself equal the algorithm, the same sums in double,
/// within 64 roundings of the sum of |products|.
void run_pv(int64_t n) {
  const size_t np = size_t(64 * n * 64);
  std::vector<float> p = random_values<float>(np, 61);
  std::vector<exg_bf16> vt = random_values<exg_bf16>(64 * 64, 62);
  DeviceVec<float> dp(p), dout{np};
  DeviceVec<exg_bf16> dv(vt);
  check_cuda(pv_sm90a(nullptr, n, dp.ptr, dv.ptr, dout.ptr), "pv_sm90a");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> got = dout.to_host(), want(np), sum_abs(np);
  if (ref_pv_sm90a(n, p.data(), vt.data(), want.data()) != 0 ||
      ref_pv_sm90a(n, absolute(p).data(), absolute(vt).data(), sum_abs.data()) != 0) {
    record(false, "pv_sm90a", "the reference failed");
    return;
  }
  std::string why;
  for (int64_t m = 0; m < 64 * n && why.empty(); ++m)
    for (int64_t j = 0; j < 64 && why.empty(); ++j) {
      double exact = 0;
      for (int64_t k = 0; k < 64; ++k)
        exact += double(float(exg_bf16(p[size_t(m * 64 + k)]))) * double(float(vt[size_t(j * 64 + k)]));
      size_t i = size_t(m * 64 + j);
      if (!(std::fabs(double(want[i]) - exact) <= 64 * 0x1p-24 * double(sum_abs[i])))
        why = "the reference's element " + std::to_string(i) + " is " + std::to_string(want[i]) +
              ", the algorithm's " + std::to_string(exact);
    }
  if (why.empty())
    why = compare(got, want, sum_abs, 4.0 * 64 * 0x1p-23, frobenius_limit(Elem::BF16));
  record(why.empty(), "pv_sm90a", std::to_string(64 * n) + "x64x64" + (why.empty() ? "" : ": " + why));
}

/// Attention (examples/attention_sm90a.exg), O = softmax(Q K^T / sqrt(D)) V, against
/// its reference and a softmax computed in double, with ragged lengths, query i attending
/// keys j <= i + diag (diag = Sk: every key; Sk - Sq: causal, bottom-right aligned). The
/// reference rounds each probability to bf16 for the second product (2^-9 relative), so
/// it must be within 2^-7 of A = sum_k p_k |V[k, c]| (exact probabilities) of the
/// algorithm. The kernel computes the reference's roundings, but S's sums
/// may differ in order (wgmma adds 16 products at once), which can tip a
/// probability to the neighbouring bf16: the same bound per element, and a
/// relative Frobenius error under 2^-12, since such tips touch a small part of
/// the probabilities (measured: 1e-7 at head dim 64, 2.6e-5 at 128, where S
/// sums twice the products; a softmax scale off by 1% gives 4e-3).
using AttentionFn = cudaError_t (*)(cudaStream_t, int64_t, int64_t, int64_t, int64_t,
                                    const exg_bf16 *, const exg_bf16 *, const exg_bf16 *, float *);
using AttentionRef = int (*)(int64_t, int64_t, int64_t, int64_t, const exg_bf16 *, const exg_bf16 *,
                             const exg_bf16 *, float *);

/// `D` is the head dim: attention_sm90a's 64 or attention_d128_sm90a's 128.
template <int64_t D>
void run_attention(const std::string &name, AttentionFn fn, AttentionRef ref, int64_t BH,
                   int64_t Sq, int64_t Sk, int64_t diag) {
  const size_t nq = size_t(BH * Sq * D), nk = size_t(BH * Sk * D);
  std::vector<exg_bf16> q = random_values<exg_bf16>(nq, 71), k = random_values<exg_bf16>(nk, 72),
                        vt = random_values<exg_bf16>(nk, 73);
  DeviceVec<exg_bf16> dq(q), dk(k), dv(vt);
  DeviceVec<float> dout{nq};
  check_cuda(fn(nullptr, BH, Sq, Sk, diag, dq.ptr, dk.ptr, dv.ptr, dout.ptr), name.c_str());
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> got = dout.to_host(), want(nq), bound(nq);
  const std::string size = std::to_string(BH) + "x" + std::to_string(Sq) + "x" + std::to_string(Sk) +
                           (diag == Sk ? "" : diag == Sk - Sq ? " causal" : " diag " + std::to_string(diag));
  if (ref(BH, Sq, Sk, diag, q.data(), k.data(), vt.data(), want.data()) != 0) {
    record(false, name, size + ": the reference failed");
    return;
  }
  std::string why;
  std::vector<double> s(static_cast<size_t>(Sk));
  for (int64_t h = 0; h < BH && why.empty(); ++h)
    for (int64_t i = 0; i < Sq && why.empty(); ++i) {
      double mx = -INFINITY, l = 0;
      const int64_t keys = std::min(Sk, i + diag + 1);
      for (int64_t j = 0; j < keys; ++j) {
        double dot = 0;
        for (int64_t c = 0; c < D; ++c)
          dot += double(float(q[size_t((h * Sq + i) * D + c)])) * double(float(k[size_t((h * Sk + j) * D + c)]));
        s[size_t(j)] = dot / std::sqrt(double(D));
        mx = std::max(mx, s[size_t(j)]);
      }
      for (int64_t j = 0; j < keys; ++j)
        l += std::exp(s[size_t(j)] - mx);
      for (int64_t c = 0; c < D && why.empty(); ++c) {
        double o = 0, a = 0;
        for (int64_t j = 0; j < keys; ++j) {
          double p = std::exp(s[size_t(j)] - mx) / l, v = double(float(vt[size_t((h * D + c) * Sk + j)]));
          o += p * v;
          a += p * std::fabs(v);
        }
        size_t e = size_t((h * Sq + i) * D + c);
        bound[e] = float(0x1p-7 * a + 1e-6);
        if (!(std::fabs(double(want[e]) - o) <= double(bound[e])))
          why = "the reference's element " + std::to_string(e) + " is " + std::to_string(want[e]) +
                ", the algorithm's " + std::to_string(o);
      }
    }
  if (why.empty())
    why = compare(got, want, bound, 1.0, 0x1p-12);
  record(why.empty(), name, size + (why.empty() ? "" : ": " + why));
}

/// A copy is exact: bit for bit.
void run_vector_copy(int64_t n) {
  std::vector<float> a = random_values<float>(size_t(n), 41);
  DeviceVec<float> da(a), db{size_t(n)};
  check_cuda(vector_copy(nullptr, n, da.ptr, db.ptr), "vector_copy");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> got = db.to_host(), want(static_cast<size_t>(n));
  ref_vector_copy(n, a.data(), want.data());
  bool same = std::memcmp(got.data(), want.data(), size_t(n) * sizeof(float)) == 0;
  record(same, "vector_copy", std::to_string(n) + (same ? "" : ": not bit for bit equal"));
}

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/// --size=MxNxK: the GEMM cases run this size instead (seeded_bugs.py needs
/// a K long enough that the smem rings wrap within a tile).
std::vector<std::array<int64_t, 3>> size_override;

/// Ragged sizes (no tile divides them) and one of exact tiles, rounded up to
/// the kernel's asserted multiples; 1100 x 520 has 9 to 5 rows of tiles, so
/// the gemm_hopper kernels' task groups of 8 rows end in a partial group.
template <typename T>
void run_gemm_sizes(const std::string &name, GemmFn<T> fn, GemmRef<T> ref, Elem elem, int64_t mm,
                    int64_t nm, int64_t km) {
  std::vector<std::array<int64_t, 3>> sizes = {
      {130, 72, 40}, {257, 264, 72}, {128, 256, 64}, {1100, 520, 40}};
  if (!size_override.empty())
    sizes = size_override;
  for (const auto &s : sizes)
    run_gemm<T>(name, fn, ref, elem, round_up(s[0], mm), round_up(s[1], nm), round_up(s[2], km));
}

struct Case {
  std::string name;
  std::function<void()> run;
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
#define EXG_GEMM(file, fn, elem, mm, nm, km)                                                       \
  cases.push_back({#fn, [] { run_gemm_sizes(#fn, fn, ref_##fn, Elem_##elem, mm, nm, km); }});
#define EXG_GEMV(file, fn, elem, mm, km)
#define EXG_ATTENTION(file, fn, elem, d, skm)  // run_attention's cases below
  constexpr Elem Elem_tf32 = Elem::TF32, Elem_bf16 = Elem::BF16, Elem_f16 = Elem::F16,
                 Elem_f32 = Elem::F32;
  (void)Elem_f32;
#include "bench/gpu/kernels.def"
#undef EXG_GEMM
#undef EXG_GEMV
#undef EXG_ATTENTION
  cases.push_back({"gemv_f32", [] {
                     run_gemv("gemv_f32", gemv_f32, ref_gemv_f32, 100, 72);
                     run_gemv("gemv_f32", gemv_f32, ref_gemv_f32, 36, 1000);
                   }});
  cases.push_back({"gemv_f32x4", [] {
                     run_gemv("gemv_f32x4", gemv_f32x4, ref_gemv_f32x4, 100, 64);
                     run_gemv("gemv_f32x4", gemv_f32x4, ref_gemv_f32x4, 36, 1024);
                     run_gemv_misaligned("gemv_f32x4", gemv_f32x4, ref_gemv_f32x4, 8, 32);
                     run_gemv_too_large("gemv_f32x4", gemv_f32x4);
                   }});
  cases.push_back({"gemm_naive", [] {
                     run_gemm<float>("gemm_naive", gemm_naive, ref_gemm_naive, Elem::F32, 48, 32, 20);
                   }});
  cases.push_back({"gemm_sm80", [] {
                     run_gemm<float>("gemm_sm80", gemm_sm80, ref_gemm_sm80, Elem::F32, 128, 64, 48);
                   }});
  cases.push_back({"saxpy", [] {
                     run_saxpy(1);
                     run_saxpy(1000);
                   }});
  const std::tuple<const char *, SoftmaxFn, SoftmaxRef> softmaxes[] = {
      {"softmax", softmax, ref_softmax},
      {"softmax_fast", softmax_fast, ref_softmax_fast},
      {"softmax_sm90a", softmax_sm90a, ref_softmax_sm90a}};
  for (const auto &[name, fn, ref] : softmaxes)
    cases.push_back({name, [name = std::string(name), fn = fn, ref = ref] {
                       run_softmax(name, fn, ref, 1, 1);
                       run_softmax(name, fn, ref, 300, 7);
                       run_softmax(name, fn, ref, 130, 64);
                     }});
  // Each head dim's kernel and its pingpong variant (a schedule of it) at the same sizes,
  // (BH, Sq, Sk, diag) each. At 64 also causal over three query tiles (tasks of 2, 4 and 5
  // key tiles) and a shifted diagonal.
  using Size = std::array<int64_t, 4>;
  const std::vector<Size> d64{{1, 64, 64, 64},  {2, 128, 192, 192}, {3, 100, 152, 152},
                              {1, 64, 64, 0},   {2, 130, 136, 6},   {2, 70, 200, 130},
                              {2, 320, 320, 0}, {1, 200, 264, 100}};
  const std::vector<Size> d128{{1, 64, 64, 64}, {2, 100, 152, 152}, {2, 70, 200, 130},
                               {1, 320, 320, 0}};
  auto add_attention = [&cases](const char *name, auto run, AttentionFn fn, AttentionRef ref,
                                const std::vector<Size> &sizes) {
    cases.push_back({name, [n = std::string(name), run, fn, ref, sizes] {
                       for (const Size &z : sizes) run(n, fn, ref, z[0], z[1], z[2], z[3]);
                     }});
  };
  add_attention("attention_sm90a", run_attention<64>, attention_sm90a, ref_attention_sm90a, d64);
  add_attention("attention_pingpong_sm90a", run_attention<64>, attention_pingpong_sm90a,
                ref_attention_pingpong_sm90a, d64);
  add_attention("attention_d128_sm90a", run_attention<128>, attention_d128_sm90a,
                ref_attention_d128_sm90a, d128);
  add_attention("attention_d128_pingpong_sm90a", run_attention<128>,
                attention_d128_pingpong_sm90a, ref_attention_d128_pingpong_sm90a, d128);
  cases.push_back({"pv_sm90a", [] {
                     run_pv(1);
                     run_pv(3);
                   }});
  cases.push_back({"vector_copy", [] {
                     run_vector_copy(256);
                     run_vector_copy(2816);
                   }});
  return cases;
}

} // namespace

int main(int argc, char **argv) {
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--only=", 0) == 0) {
      only = arg.substr(7);
    } else if (arg.rfind("--size=", 0) == 0) {
      long long m, n, k;
      char tail;
      if (std::sscanf(arg.c_str() + 7, "%lldx%lldx%lld%c", &m, &n, &k, &tail) != 3 || m < 1 ||
          n < 1 || k < 1) {
        std::fprintf(stderr, "emu_kernels: --size wants MxNxK, got '%s'\n", arg.c_str() + 7);
        return 2;
      }
      size_override.push_back({m, n, k});
    } else if (arg == "--list") {
      for (const Case &c : all_cases())
        std::printf("%s\n", c.name.c_str());
      return 0;
    } else {
      std::fprintf(stderr, "usage: emu_kernels [--only=NAME] [--size=MxNxK]... [--list]\n");
      return 2;
    }
  }
  bool found = false;
  for (const Case &c : all_cases()) {
    if (!only.empty() && c.name != only)
      continue;
    found = true;
    c.run();
  }
  if (!found) {
    std::fprintf(stderr, "emu_kernels: no kernel named '%s' (see --list)\n", only.c_str());
    return 2;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
