// gemm.cuh - one GEMM shape: FP64 reference, checks, then cuBLAS and exgc timed -----//
// C = A @ B^T, A: [M, K], B: [N, K], C: [M, N] row-major. cuBLAS is column-major, so it
// computes C^T = B A^T: with B read as a column-major K x N matrix (transposed) and A as
// a column-major K x M one, the column-major N x M result is C row-major.
#pragma once
#include "session.cuh"

namespace bench {

struct GemmShape {
  int64_t M, N, K;
  const char *set;  // "square", "thin" or "small"
};

inline std::vector<GemmShape> gemm_shapes(const Options &o, const std::vector<GemmKernel> &ks) {
  std::vector<GemmShape> out;
  auto add = [&](GemmShape s) {
    for (const GemmShape &t : out)
      if (t.M == s.M && t.N == s.N && t.K == s.K) return;
    out.push_back(s);
  };
  if (o.small) {  // ragged in M and N for 128- and 256-wide tiles, rounded to each kernel
    for (const GemmKernel &k : ks)
      add({round_up(200, k.m_mult), round_up(300, k.n_mult), round_up(72, k.k_mult), "small"});
    return out;
  }
  for (int64_t s : o.squares) add({s, s, s, "square"});
  for (int64_t k : o.thin_k)
    for (int64_t m : o.thin_m) add({m, o.thin_n, k, "thin"});
  return out;
}

/// C = A @ B^T in FP64 on the device.
inline void gemm_f64(cublasHandle_t h, const GemmShape &s, const double *A, const double *B,
                     double *C) {
  const double one = 1, zero = 0;
  BENCH_CHECK(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, int(s.N), int(s.M), int(s.K), &one, B,
                           int(s.K), A, int(s.K), &zero, C, int(s.N)));
}

inline Launch cublas_gemm(cublasHandle_t h, Elem e, const GemmShape &s, const void *A,
                          const void *B, float *C) {
  return [=](cudaStream_t) {
    static const float one = 1, zero = 0;
    const cudaDataType t = e == Elem::BF16 ? CUDA_R_16BF : e == Elem::F16 ? CUDA_R_16F : CUDA_R_32F;
    const cublasComputeType_t ct =
        e == Elem::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    return from_cublas(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, int(s.N), int(s.M), int(s.K),
                                    &one, B, t, int(s.K), A, t, int(s.K), &zero, C, CUDA_R_32F,
                                    int(s.N), ct, CUBLAS_GEMM_DEFAULT),
                       "cublasGemmEx");
  };
}

/// FP64 on the host over a grid of sampled elements: values and sums of |a||b|.
struct HostSamples {
  std::vector<int64_t> rows, cols;
  std::vector<double> ref, sum_abs;
};

inline HostSamples host_gemm_samples(const GemmShape &s, const Operand &A, const Operand &B) {
  HostSamples h;
  h.rows = sample_indices(s.M, 48, 11);
  h.cols = sample_indices(s.N, 48, 12);
  std::vector<std::vector<double>> brows;
  for (int64_t n : h.cols) brows.push_back(B.host_row(uint64_t(n), uint64_t(s.K)));
  for (int64_t m : h.rows) {
    const std::vector<double> a = A.host_row(uint64_t(m), uint64_t(s.K));
    for (const std::vector<double> &b : brows) {
      double v = 0, sa = 0;
      for (int64_t k = 0; k < s.K; ++k) v += a[k] * b[k], sa += std::fabs(a[k] * b[k]);
      h.ref.push_back(v);
      h.sum_abs.push_back(sa);
    }
  }
  return h;
}

/// How many sampled elements of device output C break `coef` times their host sum.
inline uint64_t host_bad(const HostSamples &h, const float *C, int64_t ld, double coef) {
  const std::vector<double> got = gather(C, ld, h.rows, h.cols);
  uint64_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    bad += !(std::fabs(got[i] - h.ref[i]) <= coef * h.sum_abs[i]);
  return bad;
}

inline void run_gemm_shape(Session &ss, const GemmShape &s, Elem elem,
                           const std::vector<const GemmKernel *> &ks) {
  const cudaStream_t st = ss.stream;
  const uint64_t mk = uint64_t(s.M) * s.K, nk = uint64_t(s.N) * s.K, mn = uint64_t(s.M) * s.N;
  Operand A(elem, mk, 1, st), B(elem, nk, 2, st);
  DeviceBuffer<double> R(mn), S(mn);
  {
    DeviceBuffer<double> Ad(mk), Bd(nk);
    A.widen_into(Ad.ptr, false, st), B.widen_into(Bd.ptr, false, st);
    gemm_f64(ss.blas, s, Ad.ptr, Bd.ptr, R.ptr);
    A.widen_into(Ad.ptr, true, st), B.widen_into(Bd.ptr, true, st);
    gemm_f64(ss.blas, s, Ad.ptr, Bd.ptr, S.ptr);
    BENCH_CHECK(cudaStreamSynchronize(st));
  }
  const HostSamples h = host_gemm_samples(s, A, B);
  // The device reference must be the host's up to FP64 rounding (K * 2^-53 of S).
  {
    const std::vector<double> dev = gather(R.ptr, s.N, h.rows, h.cols);
    for (size_t i = 0; i < dev.size(); ++i)
      if (!(std::fabs(dev[i] - h.ref[i]) <= 1e-9 * h.sum_abs[i]))
        die("FP64 reference", "cuBLAS DGEMM gives " + std::to_string(dev[i]) + " at row " +
                                  std::to_string(h.rows[i / h.cols.size()]) + ", column " +
                                  std::to_string(h.cols[i % h.cols.size()]) + "; the host " +
                                  std::to_string(h.ref[i]));
  }

  DeviceBuffer<float> C(mn);
  std::vector<Contender> cs{{std::string("cuBLAS ") + elem_name(elem), false,
                             cublas_gemm(ss.blas, elem, s, A.ptr, B.ptr, C.ptr)}};
  for (const GemmKernel *k : ks)
    cs.push_back({k->name, true, [k, s, &A, &B, &C](cudaStream_t t) {
                    return k->call(t, s.M, s.N, s.K, A.ptr, B.ptr, C.ptr);
                  }});

  const double coef = bound_coefficient(elem, s.K);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)s.M, (long long)s.N,
                (long long)s.K);
  Row proto;
  proto.op = "gemm", proto.elem = elem_name(elem), proto.shape = shape, proto.set = s.set;
  proto.M = s.M, proto.N = s.N, proto.K = s.K;
  auto check = [&] {
    CheckResult c = check_on_device(C.ptr, R.ptr, S.ptr, mn, uint64_t(s.N), coef,
                                    frobenius_limit(elem), st);
    c.host_samples = h.ref.size();
    c.host_bad = host_bad(h, C.ptr, s.N, coef);
    return c;
  };
  auto finish = [&](Row &r, double cublas_ms) {
    if (ss.emulated) return;  // host times: no rate, comparison or target
    r.rate = 2.0 * double(s.M) * double(s.N) * double(s.K) / (r.time.median_ms * 1e9);
    r.vs_ref = cublas_ms / r.time.median_ms;
    const bool headline = std::string(s.set) == "square" && (s.M == 4096 || s.M == 8192);
    if (r.is_exgc && headline && elem != Elem::F32) {  // issue 9's targets
      const double goal = elem == Elem::TF32 ? 1.0 : 0.95;
      char target[40];
      std::snprintf(target, sizeof target, ">=%.2fx cuBLAS", goal);
      r.target = target, r.target_met = r.vs_ref >= goal;
    }
  };
  check_then_time(ss, cs, proto, C.ptr, mn * sizeof(float), check, finish);
}

/// Every GEMM shape, for each element type that some (not skipped) kernel takes.
inline void run_gemms(Session &ss, const std::vector<GemmKernel> &all) {
  std::vector<GemmKernel> ks;
  for (const GemmKernel &k : all)
    if (!ss.skipped(k.name)) ks.push_back(k);
  for (const GemmShape &s : gemm_shapes(ss.opt, ks))
    for (Elem e : {Elem::TF32, Elem::BF16, Elem::F16, Elem::F32}) {
      std::vector<const GemmKernel *> here;
      for (const GemmKernel &k : ks)
        if (k.elem == e && k.accepts(s.M, s.N, s.K)) here.push_back(&k);
      if (!here.empty()) run_gemm_shape(ss, s, e, here);
    }
}

}  // namespace bench
