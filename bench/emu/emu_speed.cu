// emu_speed.cu - one exgc kernel at one size, timed on the emulator -----------------//
//
// usage: emu_speed KERNEL M N K [--repeat=R]   (a TF32 GEMM: C = A @ B^T)
//        emu_speed gemv_f32 M K [--repeat=R]   (y = A x)
// Built with `nvcc $(exg-emu --nvcc-flags)` and run as `exg-emu -- emu_speed ...` by
// bench/emu/speed.sh. Prints one line per call: the host wall time of the generated host
// function plus the stream synchronize, i.e. the emulated launch (the first call also
// decodes the kernel's PTX). The output is then checked element by element against the
// host: operands are multiples of 1/8 in [-1, 1], so every product and partial sum is
// exact in fp32 (and TF32 reads them unrounded) and the result must equal FP64 exactly.
// Exit codes: 0 every output equal; 1 a wrong element or a CUDA error; 2 bad usage.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <time.h>

#include <cuda_runtime.h>

#include "gemm_hopper.h"
#include "gemm_tf32_sm90a.h"
#include "gemm_tf32_sm90a_cluster.h"
#include "gemm_tf32_sm90a_tmastore.h"
#include "gemv_f32.h"

namespace {

using GemmFn = cudaError_t (*)(cudaStream_t, int64_t, int64_t, int64_t, const float *,
                               const float *, float *);
struct NamedGemm {
  const char *name;
  GemmFn fn;
};
const NamedGemm kGemms[] = {
    {"gemm_tf32_sm90a", gemm_tf32_sm90a},
    {"gemm_tf32_sm90a_cluster", gemm_tf32_sm90a_cluster},
    {"gemm_tf32_sm90a_tmastore", gemm_tf32_sm90a_tmastore},
    {"gemm_tf32_128x256", gemm_tf32_128x256},
    {"gemm_tf32_256x128", gemm_tf32_256x128},
    {"gemm_tf32_128x128", gemm_tf32_128x128},
    {"gemm_tf32_128x256_2x1", gemm_tf32_128x256_2x1},
    {"gemm_tf32_256x128_2x1", gemm_tf32_256x128_2x1},
    {"gemm_tf32_128x128_2x1", gemm_tf32_128x128_2x1},
};

[[noreturn]] void usage(const char *why) {
  std::fprintf(stderr,
               "emu_speed: %s\nusage: emu_speed KERNEL M N K [--repeat=R] (a TF32 GEMM)\n"
               "       emu_speed gemv_f32 M K [--repeat=R]\nGEMMs:",
               why);
  for (const NamedGemm &g : kGemms) std::fprintf(stderr, " %s", g.name);
  std::fprintf(stderr, "\n");
  std::exit(2);
}

void check_cuda(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "emu_speed: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

/// Element i of operand `seed`: one of -1, -7/8, ..., 7/8, 1 (exact in TF32 and fp32).
float operand(uint64_t seed, uint64_t i) {
  uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ (seed << 56);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return float(int(h % 17) - 8) / 8.0f;
}

std::vector<float> make_operand(uint64_t seed, uint64_t n) {
  std::vector<float> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = operand(seed, i);
  return v;
}

float *to_device(const std::vector<float> &h) {
  float *d = nullptr;
  check_cuda(cudaMalloc(reinterpret_cast<void **>(&d), h.size() * sizeof(float)), "cudaMalloc");
  check_cuda(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice),
             "cudaMemcpy to the device");
  return d;
}

/// Compares `got` (row-major, `cols` columns) with `want`; prints the first difference.
bool all_equal(const std::vector<float> &got, const std::vector<double> &want, int64_t cols) {
  uint64_t bad = 0, first = 0;
  for (uint64_t i = 0; i < got.size(); ++i)
    if (!(double(got[i]) == want[i]) && bad++ == 0) first = i;
  if (bad)
    std::printf("check: FAIL: %llu of %zu elements differ; first at row %lld, column %lld: "
                "%.9g, expected %.9g\n",
                (unsigned long long)bad, got.size(), (long long)(first / cols),
                (long long)(first % cols), got[first], want[first]);
  else
    std::printf("check: all %zu elements equal the exact result\n", got.size());
  return bad == 0;
}

/// CPU time of this process (the engine runs on the calling thread; nothing else runs
/// during a call), less noisy than wall time on a loaded machine.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Runs `call` `repeat` times, printing the wall time of each (call + synchronize).
template <class Call> void timed(const char *name, const std::string &shape, int repeat,
                                 Call call) {
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    check_cuda(call(), name);
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const std::chrono::duration<double> s = std::chrono::steady_clock::now() - t0;
    std::printf("call %d: %s %s: %.3f s wall, %.3f s CPU\n", r + 1, name, shape.c_str(),
                s.count(), cpu_seconds() - c0);
    std::fflush(stdout);
  }
}

int64_t parse_size(const char *s) {
  char *end = nullptr;
  const long long v = std::strtoll(s, &end, 10);
  if (!*s || *end || v < 1) usage((std::string("not a size: '") + s + "'").c_str());
  return v;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> pos;
  int repeat = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--repeat=", 9) == 0) {
      repeat = int(parse_size(argv[i] + 9));
    } else {
      pos.push_back(argv[i]);
    }
  }
  if (pos.empty()) usage("no kernel named");
  const std::string name = pos[0];

  if (name == "gemv_f32") {
    if (pos.size() != 3) usage("gemv_f32 takes M K");
    const int64_t M = parse_size(pos[1].c_str()), K = parse_size(pos[2].c_str());
    const std::vector<float> a = make_operand(1, uint64_t(M * K)), x = make_operand(2, uint64_t(K));
    float *da = to_device(a), *dx = to_device(x), *dy = nullptr;
    check_cuda(cudaMalloc(reinterpret_cast<void **>(&dy), M * sizeof(float)), "cudaMalloc");
    timed(name.c_str(), std::to_string(M) + "x" + std::to_string(K), repeat,
          [&] { return gemv_f32(nullptr, M, K, da, dx, dy); });
    std::vector<float> y(M);
    check_cuda(cudaMemcpy(y.data(), dy, M * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::vector<double> want(M, 0.0);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) want[m] += double(a[m * K + k]) * x[k];
    return all_equal(y, want, 1) ? 0 : 1;
  }

  GemmFn fn = nullptr;
  for (const NamedGemm &g : kGemms)
    if (name == g.name) fn = g.fn;
  if (!fn) usage(("unknown kernel '" + name + "'").c_str());
  if (pos.size() != 4) usage("a GEMM takes M N K");
  const int64_t M = parse_size(pos[1].c_str()), N = parse_size(pos[2].c_str()),
                K = parse_size(pos[3].c_str());
  const std::vector<float> a = make_operand(1, uint64_t(M * K)), b = make_operand(2, uint64_t(N * K));
  float *da = to_device(a), *db = to_device(b), *dc = nullptr;
  check_cuda(cudaMalloc(reinterpret_cast<void **>(&dc), M * N * sizeof(float)), "cudaMalloc");
  timed(name.c_str(),
        std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K), repeat,
        [&] { return fn(nullptr, M, N, K, da, db, dc); });
  std::vector<float> c(M * N);
  check_cuda(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost),
             "cudaMemcpy");
  std::vector<double> want(M * N, 0.0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += double(a[m * K + k]) * b[n * K + k];
      want[m * N + n] = s;
    }
  return all_equal(c, want, N) ? 0 : 1;
}
