// timing.cuh - interleaved, L2-flushed timing of several contenders -----------------//
// Method (the paper's, docs in bench/README.md): warm-up calls, then `samples` rounds; each
// round times every contender once, in an order rotated by the round so no contender
// always follows another; before each sample a memset writes a buffer of four times the
// L2 size, so no operand is served from L2; CUDA events around exactly one call. The
// generated host function's own work (tensor-map encoding, attribute queries) runs while
// the flush runs, so it is inside the events only when it is slower than the flush.
// Reported: the median and the mean of the middle half of the samples, min and max.
#pragma once
#include <chrono>
#include <thread>

#include "data.cuh"

namespace bench {

struct Timing {
  int samples = 0;
  double median_ms = 0, mid_mean_ms = 0, min_ms = 0, max_ms = 0;
};

inline Timing summarize(std::vector<double> ms) {
  Timing t;
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  const size_t n = ms.size(), lo = n / 4, hi = std::max(n - n / 4, lo + 1);
  t.samples = int(n);
  t.median_ms = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  double sum = 0;
  for (size_t i = lo; i < hi; ++i) sum += ms[i];
  t.mid_mean_ms = sum / double(hi - lo);
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  return t;
}

struct Contender {
  std::string name;
  bool is_exgc;  // a fault or hang ends the run as that kernel's fault
  Launch launch;
};

// In Timer: an error while contender c runs is that kernel's when c is exgc's (the
// context may be lost), else the harness's or cuBLAS's.
#define BENCH_CUDA_OR_FAULT(c, expr)                                                          \
  do {                                                                                        \
    cudaError_t e_ = (expr);                                                                  \
    if (e_ != cudaSuccess) fail(c, #expr, e_);                                                \
  } while (0)

class Timer {
public:
  Timer(cudaStream_t stream, double watchdog_s) : stream_(stream), watchdog_s_(watchdog_s) {
    int dev = 0, l2 = 0;
    BENCH_CHECK(cudaGetDevice(&dev));
    BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    flush_bytes_ = std::max<size_t>(size_t(l2) * 4, size_t(64) << 20);
    BENCH_CHECK(cudaMalloc(&flush_, flush_bytes_));
    BENCH_CHECK(cudaEventCreate(&start_));
    BENCH_CHECK(cudaEventCreate(&stop_));
  }
  ~Timer() {
    cudaFree(flush_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  size_t flush_bytes() const { return flush_bytes_; }

  /// Runs `c` once and waits for it, at most the watchdog's time.
  void run_once(const Contender &c) {
    launch(c);
    BENCH_CUDA_OR_FAULT(c, cudaEventRecord(stop_, stream_));
    wait(c, stop_);
  }

  /// One Timing per contender, in the order given.
  std::vector<Timing> interleaved(const std::vector<Contender> &cs, int warmup, int samples) {
    for (const Contender &c : cs)
      for (int i = 0; i < warmup; ++i) run_once(c);
    std::vector<std::vector<double>> ms(cs.size());
    for (int round = 0; round < samples; ++round)
      for (size_t j = 0; j < cs.size(); ++j) {
        const size_t which = (j + size_t(round)) % cs.size();
        const Contender &c = cs[which];
        BENCH_CHECK(cudaMemsetAsync(flush_, round & 0xff, flush_bytes_, stream_));
        BENCH_CHECK(cudaEventRecord(start_, stream_));
        launch(c);
        BENCH_CUDA_OR_FAULT(c, cudaEventRecord(stop_, stream_));
        wait(c, stop_);
        float t = 0;
        BENCH_CHECK(cudaEventElapsedTime(&t, start_, stop_));
        ms[which].push_back(t);
      }
    std::vector<Timing> out;
    for (auto &v : ms) out.push_back(summarize(v));
    return out;
  }

private:
  [[noreturn]] static void fail(const Contender &c, const char *what, cudaError_t e) {
    const std::string msg = std::string(what) + ": " + cudaGetErrorString(e);
    if (c.is_exgc) kernel_fault(c.name, msg);
    die(c.name.c_str(), msg);
  }
  void launch(const Contender &c) {
    BENCH_CUDA_OR_FAULT(c, c.launch(stream_));
  }
  /// Polls instead of blocking so that a kernel that never finishes (a deadlocked
  /// mbarrier wait, say) ends the run with its name instead of hanging it.
  void wait(const Contender &c, cudaEvent_t ev) {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
      const cudaError_t e = cudaEventQuery(ev);
      if (e == cudaSuccess) return;
      if (e != cudaErrorNotReady) fail(c, "waiting for the call", e);
      const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - t0;
      if (waited.count() > watchdog_s_) {
        const std::string msg = "did not finish in " + std::to_string(watchdog_s_) + " s";
        if (c.is_exgc) kernel_fault(c.name, msg);
        die(c.name.c_str(), msg);
      }
      std::this_thread::yield();
    }
  }

  cudaStream_t stream_;
  double watchdog_s_;
  void *flush_ = nullptr;
  size_t flush_bytes_ = 0;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};
#undef BENCH_CUDA_OR_FAULT

}  // namespace bench
