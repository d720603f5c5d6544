// check.cuh - results against FP64, element by element, with a stated bound ---------//
//
// Every output element c(m, n) of every contender (exgc's kernels and cuBLAS alike) must
// satisfy |c - r| <= bound, where r is the exact product in FP64 and
//
//   bound(m, n) = 2 * (eps_in + K * 2^-23) * S(m, n),   S(m, n) = sum_k |a_mk| |b_nk|.
//
// Why: the first term is the rounding of the operands to what the multiplier reads. TF32
// keeps 10 explicit significand bits and the hardware may truncate instead of round, so
// each operand is off by less than 2^-10 of itself and a product by less than about 2^-9
// (eps_in = 2^-9). bf16 (f16) operands are bf16 (f16) values already and the fp32 products
// of two of them are exact (eps_in = 0); the GEMV's fp32 fused multiply-adds likewise (eps_in = 0).
// The second term is fp32 accumulation: at most K additions, each off by at most one unit
// in the last place, 2^-23 of the partial sum, whatever the order (tensor cores need not
// round to nearest, hence 2^-23 and not 2^-24). The factor 2 covers the second-order terms
// and the fp32 rounding of S itself. A contender that breaks it is wrong; cuBLAS breaking
// it would mean the bound is, so the run fails either way.
//
// A worst-case bound is loose for random data (errors grow like sqrt(K), not K), so it
// would let through a kernel that skips a 32-wide step of K. The relative Frobenius error
// ||C - R|| / ||R|| must also stay under a per-type limit: TF32 2^-8 = 3.9e-3 (this data
// gives 6.9e-4 with truncated operands, 2.5e-4 with rounded ones, at every K from 72 to
// 65536 in a CPU emulation of the rounding; the largest err/bound there was 0.08), bf16
// and f16 2^-10, fp32 2^-14 (both only accumulate rounding: about 1e-5 at K = 65536). A
// dropped K step of 32 moves it by about sqrt(32 / K) >= 2e-2.
//
// R and S come from cuBLAS DGEMM on the operands widened to double (all elements, on the
// device); a grid of sampled elements is also computed on the host in FP64 and must match
// R, so the device reference is itself checked.
#pragma once
#include "data.cuh"

namespace bench {

inline double bound_coefficient(Elem e, int64_t K) {
  const double eps_in = e == Elem::TF32 ? 0x1p-9 : 0.0;
  return 2.0 * (eps_in + double(K) * 0x1p-23);
}
inline double frobenius_limit(Elem e) {
  switch (e) {
  case Elem::TF32: return 0x1p-8;
  case Elem::BF16: return 0x1p-10;
  case Elem::F16: return 0x1p-10;
  case Elem::F32: return 0x1p-14;
  }
  return 0;
}

/// The outcome of checking one output against FP64.
struct CheckResult {
  uint64_t elements = 0, bad = 0;  // elements checked, elements over the bound
  uint64_t first_bad = 0;          // row-major index of the first bad element
  uint64_t cols = 1;               // columns of the output, to name that element's place
  double first_value = 0, first_ref = 0, first_bound = 0;
  double max_ratio = 0;  // largest |c - r| / bound (infinite for NaN or a zero bound broken)
  double rel_err = 0;    // ||C - R||_F / ||R||_F
  double rel_limit = 0;
  uint64_t host_samples = 0, host_bad = 0;  // the host FP64 sample grid
  bool passed() const { return bad == 0 && host_bad == 0 && rel_err <= rel_limit; }
  std::string summary() const;
};

struct DeviceStats {
  unsigned long long bad, first_bad;
  unsigned max_ratio_bits;  // a non-negative float: its bits order as the values do
  double err2, ref2;
};

__global__ void compare_to_reference(const float *c, const double *ref, const double *sum_abs,
                                     uint64_t n, double coef, DeviceStats *st) {
  unsigned long long bad = 0, first = ~0ull;
  float max_ratio = 0;
  double err2 = 0, ref2 = 0;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const double r = ref[i], e = fabs(double(c[i]) - r), b = coef * sum_abs[i];
    if (!(e <= b)) {  // NaN fails too
      ++bad;
      first = i < first ? i : first;
    }
    const double ratio = b > 0 ? e / b : (e == 0 ? 0.0 : INFINITY);
    max_ratio = fmaxf(max_ratio, isnan(ratio) ? INFINITY : float(ratio));
    err2 += e * e;
    ref2 += r * r;
  }
  for (int off = 16; off > 0; off /= 2) {
    bad += __shfl_down_sync(0xffffffffu, bad, off);
    const unsigned long long f = __shfl_down_sync(0xffffffffu, first, off);
    first = f < first ? f : first;
    max_ratio = fmaxf(max_ratio, __shfl_down_sync(0xffffffffu, max_ratio, off));
    err2 += __shfl_down_sync(0xffffffffu, err2, off);
    ref2 += __shfl_down_sync(0xffffffffu, ref2, off);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&st->bad, bad);
    atomicMin(&st->first_bad, first);
    atomicMax(&st->max_ratio_bits, __float_as_uint(max_ratio));
    atomicAdd(&st->err2, err2);
    atomicAdd(&st->ref2, ref2);
  }
}

/// Checks all n elements of device output `c` (row-major, `cols` columns) against R and S
/// (device, FP64).
inline CheckResult check_on_device(const float *c, const double *ref, const double *sum_abs,
                                   uint64_t n, uint64_t cols, double coef, double rel_limit,
                                   cudaStream_t stream) {
  DeviceBuffer<DeviceStats> st(1);
  const DeviceStats init{0, ~0ull, 0, 0, 0};
  BENCH_CHECK(cudaMemcpyAsync(st.ptr, &init, sizeof init, cudaMemcpyHostToDevice, stream));
  compare_to_reference<<<elementwise_blocks(), 256, 0, stream>>>(c, ref, sum_abs, n, coef,
                                                                 st.ptr);
  BENCH_CHECK(cudaGetLastError());
  DeviceStats got;
  BENCH_CHECK(cudaMemcpyAsync(&got, st.ptr, sizeof got, cudaMemcpyDeviceToHost, stream));
  BENCH_CHECK(cudaStreamSynchronize(stream));
  CheckResult res;
  res.elements = n;
  res.cols = cols;
  res.bad = got.bad;
  uint32_t bits = got.max_ratio_bits;
  float ratio;
  std::memcpy(&ratio, &bits, sizeof ratio);
  res.max_ratio = ratio;
  res.rel_err = got.ref2 > 0 ? std::sqrt(got.err2 / got.ref2) : std::sqrt(got.err2);
  res.rel_limit = rel_limit;
  if (got.bad) {
    res.first_bad = got.first_bad;
    float v;
    double r, s;
    BENCH_CHECK(cudaMemcpy(&v, c + got.first_bad, sizeof v, cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy(&r, ref + got.first_bad, sizeof r, cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy(&s, sum_abs + got.first_bad, sizeof s, cudaMemcpyDeviceToHost));
    res.first_value = v, res.first_ref = r, res.first_bound = coef * s;
  }
  return res;
}

inline std::string CheckResult::summary() const {
  char buf[320];
  int len = std::snprintf(buf, sizeof buf,
                          "%llu of %llu elements over the bound (max err/bound %.3g), "
                          "rel. error %.3g (limit %.3g), host samples %llu of %llu bad",
                          (unsigned long long)bad, (unsigned long long)elements, max_ratio,
                          rel_err, rel_limit, (unsigned long long)host_bad,
                          (unsigned long long)host_samples);
  if (bad && len > 0 && size_t(len) < sizeof buf)
    std::snprintf(buf + len, sizeof buf - len,
                  "; first at row %llu, column %llu: %.9g, FP64 %.9g, bound %.3g",
                  (unsigned long long)(first_bad / cols), (unsigned long long)(first_bad % cols),
                  first_value, first_ref, first_bound);
  return buf;
}

/// Indices 0 .. n-1 to sample: the edges of 64-, 128- and 256-wide tiles near the start,
/// the middle and the end, then random ones, `count` in all (fewer when n is smaller).
inline std::vector<int64_t> sample_indices(int64_t n, int count, uint64_t seed) {
  std::set<int64_t> idx;
  for (int64_t i : {int64_t(0), int64_t(1), int64_t(63), int64_t(64), int64_t(127),
                    int64_t(128), int64_t(255), int64_t(256), n / 2, n - 2, n - 1})
    if (i >= 0 && i < n) idx.insert(i);
  for (uint64_t j = 0; int64_t(idx.size()) < std::min<int64_t>(count, n); ++j)
    idx.insert(int64_t(mix64(seed * 7919 + j) % uint64_t(n)));
  return {idx.begin(), idx.end()};
}

/// Element (rows[i], cols[j]) of a row-major device matrix with `ld` columns, for all i, j.
template <class T>
std::vector<double> gather(const T *dev, int64_t ld, const std::vector<int64_t> &rows,
                           const std::vector<int64_t> &cols) {
  std::vector<double> out;
  std::vector<T> row(ld);
  for (int64_t r : rows) {
    BENCH_CHECK(cudaMemcpy(row.data(), dev + r * ld, ld * sizeof(T), cudaMemcpyDeviceToHost));
    for (int64_t c : cols) out.push_back(double(row[c]));
  }
  return out;
}

}  // namespace bench
