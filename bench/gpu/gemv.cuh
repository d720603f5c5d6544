// gemv.cuh - copy bandwidth, then each GEMV shape against FP64 and cuBLAS -----------//
// y = A x, A: f32[M, K] row-major. The GEMV reads M K + K floats and writes M; its
// bandwidth is those bytes over the median time, compared with the best copy bandwidth of
// the same run (bytes read plus bytes written by a 1 GiB device-to-device copy).
#pragma once
#include <thread>

#include "session.cuh"

namespace bench {

__global__ void copy_float4(const float4 *in, float4 *out, uint64_t n) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

/// Times a copy (1 GiB unless --copy-mib) two ways, a float4 kernel and cudaMemcpyAsync;
/// records both and keeps the faster as the session's copy bandwidth.
inline void run_copy(Session &ss) {
  const uint64_t bytes = uint64_t(ss.opt.copy_mib) << 20, n4 = bytes / sizeof(float4);
  DeviceBuffer<float4> src(n4), dst(n4);
  BENCH_CHECK(cudaMemsetAsync(src.ptr, 0x3f, bytes, ss.stream));
  const unsigned blocks = elementwise_blocks();
  std::vector<Contender> cs{
      {"copy kernel (float4)", false,
       [&](cudaStream_t t) {
         copy_float4<<<blocks, 256, 0, t>>>(src.ptr, dst.ptr, n4);
         return cudaGetLastError();
       }},
      {"cudaMemcpyAsync D2D", false, [&](cudaStream_t t) {
         return cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDeviceToDevice, t);
       }}};
  const std::vector<Timing> t = ss.timer->interleaved(cs, ss.opt.warmup, ss.opt.samples);
  for (size_t i = 0; i < cs.size(); ++i) {
    Row r;
    r.op = "copy", r.elem = "-", r.shape = std::to_string(ss.opt.copy_mib) + " MiB", r.set = "copy";
    r.contender = cs[i].name;
    r.N = int64_t(bytes);
    r.timed = true, r.time = t[i];
    r.rate = ss.emulated ? 0 : 2.0 * double(bytes) / (t[i].median_ms * 1e6);
    ss.copy_gbs = std::max(ss.copy_gbs, r.rate);
    ss.add(r);
  }
}

/// y = A x in FP64 on the host, every row, with sum_k |a_mk x_k|; rows split over threads.
inline void host_gemv(const Operand &A, const std::vector<double> &x, int64_t M, int64_t K,
                      std::vector<double> &ref, std::vector<double> &sum_abs) {
  ref.assign(M, 0), sum_abs.assign(M, 0);
  const int64_t nt = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < nt; ++t)
    pool.emplace_back([&, t] {
      for (int64_t m = t; m < M; m += nt) {
        double v = 0, sa = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double p = operand_value(A.seed, uint64_t(m * K + k), A.elem) * x[k];
          v += p, sa += std::fabs(p);
        }
        ref[m] = v, sum_abs[m] = sa;
      }
    });
  for (std::thread &th : pool) th.join();
}

inline CheckResult check_gemv(const float *y_dev, const std::vector<double> &ref,
                              const std::vector<double> &sum_abs, double coef) {
  std::vector<float> y(ref.size());
  BENCH_CHECK(cudaMemcpy(y.data(), y_dev, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CheckResult c;
  c.elements = c.host_samples = y.size();
  c.rel_limit = frobenius_limit(Elem::F32);
  double err2 = 0, ref2 = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double e = std::fabs(double(y[i]) - ref[i]), b = coef * sum_abs[i];
    const double ratio = b > 0 ? e / b : (e == 0 ? 0.0 : INFINITY);
    c.max_ratio = std::max(c.max_ratio, std::isnan(ratio) ? INFINITY : ratio);
    if (!(e <= b) && c.bad++ == 0)
      c.first_bad = i, c.first_value = y[i], c.first_ref = ref[i], c.first_bound = b;
    err2 += e * e, ref2 += ref[i] * ref[i];
  }
  c.host_bad = c.bad;
  c.rel_err = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  return c;
}

inline void run_gemv_shape(Session &ss, int64_t M, int64_t K, const char *set,
                           const std::vector<const GemvKernel *> &ks) {
  const cudaStream_t st = ss.stream;
  Operand A(Elem::F32, uint64_t(M) * K, 3, st), X(Elem::F32, uint64_t(K), 4, st);
  DeviceBuffer<float> y(M);
  std::vector<double> ref, sum_abs;
  host_gemv(A, X.host_row(0, uint64_t(K)), M, K, ref, sum_abs);
  const float *a = static_cast<const float *>(A.ptr), *x = static_cast<const float *>(X.ptr);
  std::vector<Contender> cs{{"cuBLAS sgemv", false, [&](cudaStream_t) {
                               static const float one = 1, zero = 0;
                               return from_cublas(cublasSgemv(ss.blas, CUBLAS_OP_T, int(K),
                                                              int(M), &one, a, int(K), x, 1,
                                                              &zero, y.ptr, 1),
                                                  "cublasSgemv");
                             }}};
  for (const GemvKernel *k : ks)
    cs.push_back({k->name, true, [&, k](cudaStream_t t) { return k->call(t, M, K, a, x, y.ptr); }});

  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld", (long long)M, (long long)K);
  const double coef = bound_coefficient(Elem::F32, K);
  Row proto;
  proto.op = "gemv", proto.elem = "f32", proto.shape = shape, proto.set = set;
  proto.M = M, proto.K = K;
  const double bytes = 4.0 * (double(M) * double(K) + double(K) + double(M));
  auto finish = [&](Row &r, double) {
    if (ss.emulated) return;  // host times: no rate, comparison or target
    r.rate = bytes / (r.time.median_ms * 1e6);
    r.vs_ref = ss.copy_gbs > 0 ? r.rate / ss.copy_gbs : 0;
    // The target is for shapes past launch and cache effects: A of 1 GiB or more.
    if (r.is_exgc && double(M) * double(K) * 4 >= double(1 << 30))
      r.target = ">=90% copy", r.target_met = r.vs_ref >= 0.9;
  };
  check_then_time(ss, cs, proto, y.ptr, M * sizeof(float),
                  [&] { return check_gemv(y.ptr, ref, sum_abs, coef); }, finish);
}

inline void run_gemvs(Session &ss, const std::vector<GemvKernel> &all) {
  std::vector<const GemvKernel *> ks;
  for (const GemvKernel &k : all)
    if (!ss.skipped(k.name)) ks.push_back(&k);
  if (ks.empty()) return;
  std::vector<std::pair<int64_t, int64_t>> shapes = ss.opt.gemv;
  if (ss.opt.small) {
    shapes.clear();
    for (const GemvKernel *k : ks) {  // not a multiple of 64 rows or 64 columns, rounded
      const std::pair<int64_t, int64_t> s{round_up(262, k->m_mult), round_up(140, k->k_mult)};
      if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
    }
  } else {
    run_copy(ss);
  }
  for (const auto &[M, K] : shapes) {
    std::vector<const GemvKernel *> here;
    for (const GemvKernel *k : ks)
      if (k->accepts(M, K)) here.push_back(k);
    if (!here.empty()) run_gemv_shape(ss, M, K, ss.opt.small ? "small" : "gemv", here);
  }
}

}  // namespace bench
