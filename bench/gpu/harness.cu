// harness.cu - exgc's kernels against cuBLAS on one GPU: checks, times, a table ----//
//
// Every GEMM of kernels.def runs at the square and thin shapes, every GEMV at its shapes,
// every attention at FlashAttention-3's sweep (attention.cuh); each output is checked
// element by element against FP64 (check.cuh, attention.cuh), cuBLAS included,
// and then the contenders that passed are timed together (timing.cuh). Rows are printed as
// each shape completes; --json writes them all at the end. bench/gpu/run.sh builds and
// runs this; see bench/README.md.
//
// usage: harness [--small] [--samples=N] [--warmup=N] [--json=FILE] [--fault-file=FILE]
//                [--skip=KERNEL]... [--squares=S,...] [--thin-m=M,...] [--thin-k=K,...]
//                [--thin-n=N] [--gemv=MxK,...] [--copy-mib=N] [--watchdog=SECONDS] [--list]
//                [--attention=S,...] [--attention-tokens=N] [--attention-hidden=N]
//                [--attention-shapes=BHxS,...]
//   --small   one small ragged shape per kernel, checked only (for compute-sanitizer)
//   --list    print the kernel table and exit
//   --attention=S,...  sequence lengths of the sweep (Sq = Sk = S; each causal and not),
//             BH = tokens / S x hidden / D; --attention-shapes adds (BH, S) pairs
// Exit codes: 0 every check passed; 1 a check failed, or an error in the harness or
// cuBLAS; 2 bad usage; 3 no CUDA device (nothing ran); 4 an exgc kernel faulted or hung
// (its name is written to --fault-file; the run stops there).
#include <cstring>
#include <ctime>

#include "all_kernels.h"  // written by run.sh: the generated headers of kernels.def's files
#include "gemm.cuh"
#include "gemv.cuh"
#include "attention.cuh"

namespace bench {

std::vector<GemmKernel> gemm_kernels() {
  return {
#define EXG_GEMM(file, fn, elem, mm, nm, km) {file, #fn, EXG_ELEM_##elem, mm, nm, km, erase(fn)},
#define EXG_GEMV(file, fn, elem, mm, km)
#define EXG_ATTENTION(file, fn, elem, d, skm)
#include "kernels.def"
#undef EXG_GEMM
#undef EXG_GEMV
#undef EXG_ATTENTION
  };
}

std::vector<GemvKernel> gemv_kernels() {
  return {
#define EXG_GEMM(file, fn, elem, mm, nm, km)
#define EXG_GEMV(file, fn, elem, mm, km) {file, #fn, EXG_ELEM_##elem, mm, km, erase(fn)},
#define EXG_ATTENTION(file, fn, elem, d, skm)
#include "kernels.def"
#undef EXG_GEMM
#undef EXG_GEMV
#undef EXG_ATTENTION
  };
}

std::vector<AttentionKernel> attention_kernels() {
  return {
#define EXG_GEMM(file, fn, elem, mm, nm, km)
#define EXG_GEMV(file, fn, elem, mm, km)
#define EXG_ATTENTION(file, fn, elem, d, skm) {file, #fn, EXG_ELEM_##elem, d, skm, erase(fn)},
#include "kernels.def"
#undef EXG_GEMM
#undef EXG_GEMV
#undef EXG_ATTENTION
  };
}

namespace {

std::vector<int64_t> parse_list(const std::string &s) {
  std::vector<int64_t> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    out.push_back(std::stoll(s.substr(pos, end - pos)));
    pos = end + 1;
  }
  return out;
}

[[noreturn]] void usage(const std::string &arg) {
  std::fprintf(stderr, "harness: unknown or malformed argument '%s' (see harness.cu)\n",
               arg.c_str());
  std::exit(2);
}

/// "AxB,CxD,...": pairs of integers.
std::vector<std::pair<int64_t, int64_t>> parse_pairs(const std::string &val,
                                                     const std::string &arg) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (size_t pos = 0; pos < val.size();) {
    size_t end = val.find(',', pos), x = val.find('x', pos);
    if (end == std::string::npos) end = val.size();
    if (x == std::string::npos || x > end) usage(arg);
    out.push_back({std::stoll(val.substr(pos, x - pos)), std::stoll(val.substr(x + 1, end - x - 1))});
    pos = end + 1;
  }
  return out;
}

Options parse_options(int argc, char **argv, bool &list) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const size_t eq = a.find('=');
    const std::string key = a.substr(0, eq), val = eq == std::string::npos ? "" : a.substr(eq + 1);
    try {
      if (a == "--small") o.small = true;
      else if (a == "--list") list = true;
      else if (key == "--samples") o.samples = std::stoi(val);
      else if (key == "--warmup") o.warmup = std::stoi(val);
      else if (key == "--json") o.json = val;
      else if (key == "--fault-file") fault_file() = val;
      else if (key == "--skip") o.skip.push_back(val);
      else if (key == "--squares") o.squares = parse_list(val);
      else if (key == "--thin-m") o.thin_m = parse_list(val);
      else if (key == "--thin-k") o.thin_k = parse_list(val);
      else if (key == "--thin-n") o.thin_n = std::stoll(val);
      else if (key == "--watchdog") o.watchdog_s = std::stod(val);
      else if (key == "--copy-mib") o.copy_mib = std::stoll(val);
      else if (key == "--gemv") o.gemv = parse_pairs(val, a);
      else if (key == "--attention") o.attention_lengths = parse_list(val);
      else if (key == "--attention-tokens") o.attention_tokens = std::stoll(val);
      else if (key == "--attention-hidden") o.attention_hidden = std::stoll(val);
      else if (key == "--attention-shapes") o.attention_shapes = parse_pairs(val, a);
      else usage(a);
    } catch (const std::exception &) {
      usage(a);
    }
  }
  if (o.samples < 1 || o.warmup < 0 || o.copy_mib < 1) usage("--samples/--warmup/--copy-mib");
  if (o.attention_tokens < 1 || o.attention_hidden < 1) usage("--attention-tokens/hidden");
  if (o.thin_n < 1) usage("--thin-n");
  for (int64_t s : o.attention_lengths)
    if (s < 1) usage("--attention");
  for (const auto &[bh, s] : o.attention_shapes)
    if (bh < 1 || s < 1) usage("--attention-shapes");
  return o;
}

std::string quoted(const std::string &s) { return json_string(s); }
std::string number(double v) { return json_number(v); }

std::vector<std::pair<std::string, std::string>> describe_run(const Session &ss) {
  int dev = 0, driver = 0, runtime = 0, blas = 0;
  cudaDeviceProp p{};
  BENCH_CHECK(cudaGetDevice(&dev));
  BENCH_CHECK(cudaGetDeviceProperties(&p, dev));
  BENCH_CHECK(cudaDriverGetVersion(&driver));
  BENCH_CHECK(cudaRuntimeGetVersion(&runtime));
  BENCH_CHECK(cublasGetVersion(ss.blas, &blas));
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string skipped = "[";
  for (size_t i = 0; i < ss.opt.skip.size(); ++i)
    skipped += (i ? ", " : "") + quoted(ss.opt.skip[i]);
  return {{"date", quoted(date)},
          {"gpu", quoted(p.name)},
          {"compute_capability", quoted(std::to_string(p.major) + "." + std::to_string(p.minor))},
          {"sms", number(p.multiProcessorCount)},
          {"l2_bytes", number(p.l2CacheSize)},
          {"memory_bytes", number(double(p.totalGlobalMem))},
          {"cuda_driver", number(driver)},
          {"cuda_runtime", number(runtime)},
          {"cublas", number(blas)},
          {"emulated", ss.emulated ? "true" : "false"},
          {"cublas_implementation",
           quoted(ss.emulated ? "exg-emu's host stand-in (emu/cublas: loops in FP64 on the host)"
                              : "NVIDIA cuBLAS")},
          {"time_unit", quoted(ss.emulated ? "ms of host wall time under the emulator "
                                             "(not GPU time; rates meaningless)"
                                           : "ms of GPU time (CUDA events)")},
          {"mode", quoted(ss.opt.small ? "small (checks only)" : "full")},
          {"samples", number(ss.opt.samples)},
          {"warmup", number(ss.opt.warmup)},
          {"l2_flush_bytes", number(double(ss.timer->flush_bytes()))},
          {"statistic", quoted("median of the samples (the paper: mean of the middle half, "
                               "also recorded); rate from the median")},
          {"bound", quoted("|c - fp64| <= 2 (eps_in + K 2^-23) sum_k |a||b|, eps_in = 2^-9 "
                           "for tf32, 0 for bf16, f16 and f32 (check.cuh); attention: |o - fp64| <= "
                           "(2^-7 + 4 Sk 2^-23) sum_j p_j |v_j| (attention.cuh)")},
          {"copy_gbs", number(ss.copy_gbs)},
          {"skipped_after_fault", skipped + "]"}};
}

}  // namespace
}  // namespace bench

int main(int argc, char **argv) {
  using namespace bench;
  bool list = false;
  Session ss;
  ss.opt = parse_options(argc, argv, list);
  const std::vector<GemmKernel> gemms = gemm_kernels();
  const std::vector<GemvKernel> gemvs = gemv_kernels();
  const std::vector<AttentionKernel> attns = attention_kernels();
  if (list) {
    for (const GemmKernel &k : gemms)
      std::printf("gemm %-5s %-28s %s\n", elem_name(k.elem), k.name, k.file);
    for (const GemvKernel &k : gemvs)
      std::printf("gemv %-5s %-28s %s\n", elem_name(k.elem), k.name, k.file);
    for (const AttentionKernel &k : attns)
      std::printf("attn %-5s %-28s %s\n", elem_name(k.elem), k.name, k.file);
    return 0;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("harness: no CUDA device: nothing was run\n");
    return 3;
  }
  BENCH_CHECK(cudaStreamCreateWithFlags(&ss.stream, cudaStreamNonBlocking));
  BENCH_CHECK(cublasCreate(&ss.blas));
  BENCH_CHECK(cublasSetStream(ss.blas, ss.stream));
  Timer timer(ss.stream, ss.opt.watchdog_s);
  ss.timer = &timer;
  cudaDeviceProp p{};
  BENCH_CHECK(cudaGetDeviceProperties(&p, 0));
  ss.emulated = std::strstr(p.name, "exg-emu") != nullptr;
  if (ss.emulated)
    std::printf("EMULATED: exg-emu runs every kernel on the CPU (the PTX nvcc wrote for "
                "compute_90a).\n"
                "  cuBLAS is exg-emu's HOST STAND-IN (emu/cublas, FP64 loops on the host), "
                "not NVIDIA's cuBLAS.\n"
                "  Times are emulated host wall times: they say nothing about GPU speed; "
                "no target is judged.\n");
  std::printf("GPU: %s, %d SMs, L2 %d MiB; ", p.name, p.multiProcessorCount,
              p.l2CacheSize >> 20);
  if (ss.opt.small)
    std::printf("small shapes, checks only\n");
  else
    std::printf("%d samples after %d warm-up calls, L2 flushed (%zu MiB written) before each\n",
                ss.opt.samples, ss.opt.warmup, timer.flush_bytes() >> 20);
  if (!ss.emulated)
    std::printf("rate: TFLOP/s (gemm, attn) or GB/s (gemv, copy) at the median; vs ref: cuBLAS "
                "time / this time (gemm), share of the copy bandwidth (gemv), share of 989 "
                "TFLOP/s (attn)\n");
  std::printf("\n");
  print_header(ss.emulated ? "host ms" : "median ms");
  run_gemms(ss, gemms);
  run_gemvs(ss, gemvs);
  run_attentions(ss, attns);

  int failed = 0, met = 0, missed = 0;
  for (const Row &r : ss.rows) {
    failed += r.checked && !r.check.passed();
    if (!r.target.empty()) (r.target_met ? met : missed) += 1;
  }
  std::printf("\n%zu rows; %d failed checks; targets: %d met, %d missed%s\n", ss.rows.size(),
              failed, met, missed,
              ss.emulated ? " (emulated: cuBLAS a host stand-in, times host times)" : "");
  if (!ss.opt.json.empty() && !write_json(ss.opt.json, describe_run(ss), ss.rows))
    die("--json", "cannot write " + ss.opt.json);
  cublasDestroy(ss.blas);
  return failed ? 1 : 0;
}
