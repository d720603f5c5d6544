// attention.cuh - forward attention: FP64 reference, checks, the exgc kernels timed -----//
// O = softmax(Q K^T / sqrt(D)) V per (batch, head) pair, of BH pairs: Q: [BH, Sq, D],
// K: [BH, Sk, D], V given transposed, Vt: [BH, D, Sk] (16-bit), O: f32 [BH, Sq, D]. With
// `causal`, query i attends key j only when j <= i + Sk - Sq (bottom-right aligned, as
// FlashAttention); the shapes here keep Sq <= Sk, so every query attends a key.
//
// The sweep is FlashAttention-3's (Shah et al. 2024, figures 5-6): a total of 16k tokens,
// sequence lengths 512 to 16k (batch = tokens / length), hidden size 2048 (heads = 2048 / D),
// causal and not. FLOPs are 4 D per attended (query, key) pair (both products), so a causal
// run counts about half, as FlashAttention reports it; the rate's reference is the H100's
// dense BF16/FP16 peak, 989 TFLOP/s (FA3 reaches about 740 forward at D = 128).
//
// Check: R and A = sum_j p_j |v_jc| (exact probabilities p) come from an FP64 attention on the
// device (cuBLAS DGEMM for both products, the softmax in double), itself compared with the
// host's FP64 at sampled rows. An element
// passes when |o - r| <= (2^-7 + 4 Sk 2^-23) A: the kernel rounds each probability to the
// 16-bit type for the second product (2^-9 relative for bf16, of which 2^-7 leaves room for
// ex2.approx and the fp32 scores), and adds Sk products and rescales in fp32 (the second
// term). The relative Frobenius error must also stay under 2^-8: rounded probabilities
// give about 2^-10 here, while a softmax scale off by 1% or a key tile dropped moves it far
// more.
#pragma once
#include <numeric>
#include <thread>

#include "gemm.cuh"
#include "session.cuh"

namespace bench {

struct AttentionShape {
  int64_t BH, Sq, Sk;
  bool causal;
  const char *set;  // "attention" (the sweep), "given" (--attention-shapes) or "small"
};

/// Keys that query i attends.
__host__ __device__ inline int64_t attended_keys(int64_t i, int64_t Sq, int64_t Sk, bool causal) {
  if (!causal) return Sk;
  const int64_t n = i + Sk - Sq + 1;
  return n < 0 ? 0 : n < Sk ? n : Sk;
}

inline double attention_flops(const AttentionShape &s, int64_t D) {
  double pairs = 0;
  for (int64_t i = 0; i < s.Sq; ++i) pairs += double(attended_keys(i, s.Sq, s.Sk, s.causal));
  return 4.0 * double(D) * double(s.BH) * pairs;
}

inline std::vector<AttentionShape> attention_shapes(const Options &o, int64_t D, int64_t sk_mult) {
  std::vector<AttentionShape> out;
  if (o.small) {  // ragged query and key tiles; the key ring goes around more than once
    const int64_t sk = round_up(152, sk_mult);
    for (bool causal : {false, true}) out.push_back({3, 100, sk, causal, "small"});
    return out;
  }
  for (bool causal : {false, true}) {
    for (const auto &[bh, s] : o.attention_shapes)
      if (s % sk_mult == 0) out.push_back({bh, s, s, causal, "given"});
    for (int64_t s : o.attention_lengths)
      if (s % sk_mult == 0 && o.attention_tokens % s == 0 && o.attention_hidden % D == 0)
        out.push_back({o.attention_tokens / s * (o.attention_hidden / D), s, s, causal,
                       "attention"});
  }
  return out;
}

/// Row i of S (the scores of one (batch, head) pair, [Sq, Sk] in FP64) becomes its softmax
/// probabilities in place: scaled by 1 / sqrt(D), the keys past the diagonal 0. One warp
/// per row, three passes (max, sum, normalize).
__global__ void softmax_rows_f64(double *S, int64_t Sq, int64_t Sk, bool causal, double scale) {
  const unsigned lane = threadIdx.x % 32;
  const int64_t warps = int64_t(gridDim.x) * blockDim.x / 32;
  for (int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32; i < Sq; i += warps) {
    double *row = S + i * Sk;
    const int64_t keys = attended_keys(i, Sq, Sk, causal);
    double m = -INFINITY, l = 0;
    for (int64_t j = lane; j < keys; j += 32) m = fmax(m, row[j] * scale);
    for (int off = 16; off > 0; off /= 2) m = fmax(m, __shfl_xor_sync(0xffffffffu, m, off));
    for (int64_t j = lane; j < keys; j += 32) l += exp(row[j] * scale - m);
    for (int off = 16; off > 0; off /= 2) l += __shfl_xor_sync(0xffffffffu, l, off);
    for (int64_t j = lane; j < Sk; j += 32) row[j] = j < keys ? exp(row[j] * scale - m) / l : 0.0;
  }
}

/// Attention in FP64 on the device, one (batch, head) pair at a time: S = Q K^T by cuBLAS
/// DGEMM, its rows' softmax (softmax_rows_f64), then R = P V and A = P |V| by DGEMM. Every
/// product is exact in FP64 (16-bit operands); what remains is FP64 rounding, far below any
/// bound here. The workspace is one pair's S, Sq x Sk doubles.
inline void attention_f64(Session &ss, int64_t D, const AttentionShape &s, const Operand &Q,
                          const Operand &K, const Operand &Vt, double *R, double *A) {
  const cudaStream_t st = ss.stream;
  DeviceBuffer<double> Qd(Q.n), Kd(K.n), Vd(Vt.n), Vabs(Vt.n), S(uint64_t(s.Sq * s.Sk));
  Q.widen_into(Qd.ptr, false, st), K.widen_into(Kd.ptr, false, st);
  Vt.widen_into(Vd.ptr, false, st), Vt.widen_into(Vabs.ptr, true, st);
  for (int64_t h = 0; h < s.BH; ++h) {
    const int64_t q0 = h * s.Sq * D, k0 = h * s.Sk * D;
    gemm_f64(ss.blas, {s.Sq, s.Sk, D, ""}, Qd.ptr + q0, Kd.ptr + k0, S.ptr);  // S = Q K^T
    softmax_rows_f64<<<elementwise_blocks(), 256, 0, st>>>(S.ptr, s.Sq, s.Sk, s.causal,
                                                           1.0 / std::sqrt(double(D)));
    BENCH_CHECK(cudaGetLastError());
    gemm_f64(ss.blas, {s.Sq, D, s.Sk, ""}, S.ptr, Vd.ptr + k0, R + q0);    // P (Vt)^T
    gemm_f64(ss.blas, {s.Sq, D, s.Sk, ""}, S.ptr, Vabs.ptr + k0, A + q0);  // P |V|
  }
  BENCH_CHECK(cudaStreamSynchronize(st));
}

/// Row `row` of the attention in FP64 on the host, two passes, from the operands' seeds.
inline void host_attention_row(const AttentionShape &s, int64_t D, Elem e, int64_t row,
                               std::vector<double> &r, std::vector<double> &a) {
  const int64_t h = row / s.Sq, keys = attended_keys(row % s.Sq, s.Sq, s.Sk, s.causal);
  std::vector<double> sc(static_cast<size_t>(keys));
  double mx = -INFINITY, l = 0;
  for (int64_t j = 0; j < keys; ++j) {
    double dot = 0;
    for (int64_t c = 0; c < D; ++c)
      dot += double(operand_value(1, uint64_t(row * D + c), e)) *
             double(operand_value(2, uint64_t((h * s.Sk + j) * D + c), e));
    sc[size_t(j)] = dot / std::sqrt(double(D));
    mx = std::max(mx, sc[size_t(j)]);
  }
  for (int64_t j = 0; j < keys; ++j) l += std::exp(sc[size_t(j)] - mx);
  r.assign(size_t(D), 0), a.assign(size_t(D), 0);
  for (int64_t c = 0; c < D; ++c)
    for (int64_t j = 0; j < keys; ++j) {
      const double p = std::exp(sc[size_t(j)] - mx) / l,
                   v = operand_value(3, uint64_t((h * D + c) * s.Sk + j), e);
      r[size_t(c)] += p * v, a[size_t(c)] += p * std::fabs(v);
    }
}

inline double attention_bound(int64_t Sk) { return 0x1p-7 + 4.0 * double(Sk) * 0x1p-23; }

inline void run_attention_shape(Session &ss, const AttentionShape &s, Elem elem, int64_t D,
                                const std::vector<const AttentionKernel *> &ks) {
  const cudaStream_t st = ss.stream;
  const uint64_t nq = uint64_t(s.BH * s.Sq * D), nk = uint64_t(s.BH * s.Sk * D);
  Operand Q(elem, nq, 1, st), K(elem, nk, 2, st), Vt(elem, nk, 3, st);
  DeviceBuffer<double> R(nq), A(nq);
  attention_f64(ss, D, s, Q, K, Vt, R.ptr, A.ptr);

  // Sampled rows on the host: the device reference must be theirs up to FP64 rounding.
  const std::vector<int64_t> rows = sample_indices(s.BH * s.Sq, 12, 13);
  std::vector<std::vector<double>> host_r(rows.size()), host_a(rows.size());
  {
    std::vector<std::thread> pool;
    for (size_t i = 0; i < rows.size(); ++i)
      pool.emplace_back([&, i] { host_attention_row(s, D, elem, rows[i], host_r[i], host_a[i]); });
    for (std::thread &t : pool) t.join();
  }
  std::vector<int64_t> all_cols(static_cast<size_t>(D));
  std::iota(all_cols.begin(), all_cols.end(), int64_t(0));
  {
    const std::vector<double> dev = gather(R.ptr, D, rows, all_cols);
    for (size_t i = 0; i < dev.size(); ++i) {
      const double want = host_r[i / D][i % D], bound = 1e-9 * host_a[i / D][i % D] + 1e-300;
      if (!(std::fabs(dev[i] - want) <= bound))
        die("FP64 attention", "the device gives " + std::to_string(dev[i]) + " at row " +
                                  std::to_string(rows[i / D]) + ", column " +
                                  std::to_string(i % D) + "; the host " + std::to_string(want));
    }
  }

  DeviceBuffer<float> O(nq);
  std::vector<Contender> cs;
  // Query i attends key j when j <= i + diag: causal is diag = Sk - Sq.
  const int64_t diag = s.causal ? s.Sk - s.Sq : s.Sk;
  for (const AttentionKernel *k : ks)
    cs.push_back({k->name, true, [k, s, diag, &Q, &K, &Vt, &O](cudaStream_t t) {
                    return k->call(t, s.BH, s.Sq, s.Sk, diag, Q.ptr, K.ptr, Vt.ptr, O.ptr);
                  }});
  const double coef = attention_bound(s.Sk);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lldx%lldx%lld%s", (long long)s.BH, (long long)s.Sq,
                (long long)s.Sk, (long long)D, s.causal ? " causal" : "");
  Row proto;
  proto.op = "attn", proto.elem = elem_name(elem), proto.shape = shape, proto.set = s.set;
  proto.M = s.Sq, proto.N = s.Sk, proto.K = D, proto.batch = s.BH, proto.causal = s.causal;
  auto check = [&] {
    CheckResult c = check_on_device(O.ptr, R.ptr, A.ptr, nq, uint64_t(D), coef, 0x1p-8, st);
    const std::vector<double> got = gather(O.ptr, D, rows, all_cols);
    c.host_samples = got.size();
    for (size_t i = 0; i < got.size(); ++i)
      c.host_bad += !(std::fabs(got[i] - host_r[i / D][i % D]) <= coef * host_a[i / D][i % D]);
    return c;
  };
  const double flops = attention_flops(s, D);
  auto finish = [&](Row &r, double) {
    if (ss.emulated) return;  // host times: no rate or comparison
    r.rate = flops / (r.time.median_ms * 1e9);
    r.vs_ref = r.rate / 989.0;  // share of the H100's dense 16-bit peak
  };
  check_then_time(ss, cs, proto, O.ptr, nq * sizeof(float), check, finish);
}

/// Every attention shape, per (element type, head dim) of the kernels not skipped.
inline void run_attentions(Session &ss, const std::vector<AttentionKernel> &all) {
  std::vector<std::pair<Elem, int64_t>> groups;
  for (const AttentionKernel &k : all)
    if (!ss.skipped(k.name) &&
        std::find(groups.begin(), groups.end(), std::make_pair(k.elem, k.head_dim)) == groups.end())
      groups.push_back({k.elem, k.head_dim});
  for (const auto &[elem, D] : groups) {
    int64_t sk_mult = 1;
    std::vector<const AttentionKernel *> ks;
    for (const AttentionKernel &k : all)
      if (!ss.skipped(k.name) && k.elem == elem && k.head_dim == D)
        ks.push_back(&k), sk_mult = std::lcm(sk_mult, k.sk_mult);
    for (const AttentionShape &s : attention_shapes(ss.opt, D, sk_mult))
      run_attention_shape(ss, s, elem, D, ks);
  }
}

}  // namespace bench
