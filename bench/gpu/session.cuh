// session.cuh - one run of the harness: its options, stream, cuBLAS handle and rows --//
#pragma once
#include "report.h"

namespace bench {

struct Options {
  bool small = false;  // one small ragged shape per kernel, checked, not timed (memcheck)
  int samples = 100, warmup = 5;
  double watchdog_s = 30;  // longest wait for one call before it counts as hung
  int64_t copy_mib = 1024;  // the copy whose bandwidth is the GEMV's reference
  std::string json;
  std::vector<std::string> skip;  // exgc kernels left out (run.sh: they faulted before)
  std::vector<int64_t> squares{512, 1024, 2048, 4096, 8192};
  // The paper's thin shapes (sporkbench@pldi26): N = 1536, K = 512 and K = 65536, M from
  // 256 to 4096 (the paper steps by 256; four points of that range here).
  std::vector<int64_t> thin_m{256, 1024, 2048, 4096};
  std::vector<int64_t> thin_k{512, 65536};
  int64_t thin_n = 1536;
  std::vector<std::pair<int64_t, int64_t>> gemv{{4096, 4096},   {8192, 8192},
                                                {16384, 16384}, {32768, 32768},
                                                {65536, 65536}, {65536, 8192},
                                                {8192, 65536}};
  // Attention (attention.cuh): FlashAttention-3's sweep, `attention_tokens` tokens of hidden
  // size `attention_hidden` at each length, and any (BH, length) pairs given.
  std::vector<int64_t> attention_lengths{512, 1024, 2048, 4096, 8192, 16384};
  int64_t attention_tokens = 16384, attention_hidden = 2048;
  std::vector<std::pair<int64_t, int64_t>> attention_shapes;
};

struct Session {
  Options opt;
  // On exg-emu's emulated H200 (its device name says so): the kernels run on the CPU,
  // cuBLAS is the emulator's host stand-in, times are host times and no target is judged.
  bool emulated = false;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  Timer *timer = nullptr;
  std::vector<Row> rows;
  double copy_gbs = 0;  // the best copy bandwidth of this run, the GEMV's reference
  bool skipped(const std::string &name) const {
    return std::find(opt.skip.begin(), opt.skip.end(), name) != opt.skip.end();
  }
  void add(const Row &r) {
    rows.push_back(r);
    print_row(r);
  }
};

/// The steps every shape shares: each contender runs once into `out` (first filled with
/// NaN, so an unwritten element fails) and `check` judges it into a row copied from
/// `proto`; then, unless --small, the first contender (cuBLAS) and the exgc ones that
/// passed are timed together and `finish(row, first's median ms)` sets each timed row's
/// rate, comparison and target. The rows are added in the contenders' order.
inline void check_then_time(Session &ss, const std::vector<Contender> &cs, const Row &proto,
                            void *out, size_t out_bytes,
                            const std::function<CheckResult()> &check,
                            const std::function<void(Row &, double)> &finish) {
  std::vector<Row> rows;
  std::vector<Contender> timed;
  for (const Contender &c : cs) {
    BENCH_CHECK(cudaMemsetAsync(out, 0xff, out_bytes, ss.stream));
    ss.timer->run_once(c);
    Row r = proto;
    r.contender = c.name, r.is_exgc = c.is_exgc;
    r.checked = true, r.check = check();
    if (r.check.passed() || !c.is_exgc) timed.push_back(c);  // a wrong kernel is not timed
    rows.push_back(r);
  }
  if (!ss.opt.small) {
    const std::vector<Timing> t = ss.timer->interleaved(timed, ss.opt.warmup, ss.opt.samples);
    for (size_t i = 0, j = 0; i < rows.size(); ++i) {
      if (j >= timed.size() || timed[j].name != rows[i].contender) continue;
      rows[i].timed = true, rows[i].time = t[j++];
      finish(rows[i], t[0].median_ms);
    }
  }
  for (const Row &r : rows) ss.add(r);
}

inline cudaError_t from_cublas(cublasStatus_t st, const char *what) {
  if (st == CUBLAS_STATUS_SUCCESS) return cudaSuccess;
  std::fprintf(stderr, "harness: %s: %s\n", what, cublasGetStatusString(st));
  return cudaErrorUnknown;
}

inline int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

}  // namespace bench
