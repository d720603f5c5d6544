// report.h - the benchmark's table (printed as rows complete) and its JSON file ------//
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "check.cuh"
#include "timing.cuh"

namespace bench {

/// One contender at one shape.
struct Row {
  std::string op;         // "gemm", "gemv", "attn" or "copy"
  std::string elem;       // element type
  std::string shape;      // "M x N x K", "M x K", "BH x Sq x Sk x D" or bytes
  std::string set;        // which size set: "square", "thin", "gemv", "attention", "small"
  int64_t M = 0, N = 0, K = 0;  // attention: Sq, Sk and the head dim
  int64_t batch = 0;      // attention: BH, the (batch, head) pairs
  bool causal = false;    // attention
  std::string contender;  // exgc kernel name, "cuBLAS ..." or a copy
  bool is_exgc = false;
  bool checked = false;   // the copy rows have no check
  CheckResult check;
  bool timed = false;
  Timing time;
  double rate = 0;        // TFLOP/s (gemm, attn) or GB/s (gemv, copy), from the median
  double vs_ref = 0;      // gemm: cuBLAS time / this time; gemv: rate / copy rate;
                          // attn: rate / 989 TFLOP/s (the dense 16-bit peak)
  std::string target;     // empty, or e.g. ">= 1.00x cuBLAS"
  bool target_met = false;
};

inline std::string check_word(const Row &r) {
  if (!r.checked) return "-";
  return r.check.passed() ? "pass" : "FAIL";
}

/// `time_label`: "median ms" on a GPU; under exg-emu the column holds host times.
inline void print_header(const char *time_label = "median ms") {
  std::printf("%-4s %-5s %-27s %-30s %-5s %9s %9s %10s %9s %8s  %s\n", "op", "type", "shape",
              "contender", "check", "err/bnd", "rel.err", time_label, "rate", "vs ref",
              "target");
}

inline void print_row(const Row &r) {
  char rate[32] = "-", vs[32] = "-", ms[32] = "-", ratio[32] = "-", rel[32] = "-";
  if (r.timed) {
    std::snprintf(ms, sizeof ms, "%.4f", r.time.median_ms);
    const bool flops = r.op == "gemm" || r.op == "attn";
    if (r.rate > 0)  // none under the emulator
      std::snprintf(rate, sizeof rate, flops ? "%.1fTF" : "%.0fGB/s", r.rate);
    if (r.vs_ref > 0)
      std::snprintf(vs, sizeof vs, r.op == "gemm" ? "%.3fx" : "%.1f%%",
                    r.op == "gemm" ? r.vs_ref : 100 * r.vs_ref);
  }
  if (r.checked) {
    std::snprintf(ratio, sizeof ratio, "%.3g", r.check.max_ratio);
    std::snprintf(rel, sizeof rel, "%.2e", r.check.rel_err);
  }
  std::string target = r.target.empty() ? "" : r.target + (r.target_met ? " MET" : " MISSED");
  std::printf("%-4s %-5s %-27s %-30s %-5s %9s %9s %10s %9s %8s  %s\n", r.op.c_str(),
              r.elem.c_str(), r.shape.c_str(), r.contender.c_str(), check_word(r).c_str(), ratio,
              rel, ms, rate, vs, target.c_str());
  if (r.checked && !r.check.passed())
    std::printf("     ^ %s\n", r.check.summary().c_str());
  std::fflush(stdout);
}

inline std::string json_string(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (ch == '\n') { out += "\\n"; continue; }
    out += ch;
  }
  return out + "\"";
}

/// A number as JSON: non-finite values (an infinite err/bound) become null.
inline std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// Writes {"meta": {...}, "rows": [...]}; `meta` is a list of (key, JSON value) pairs.
inline bool write_json(const std::string &path,
                       const std::vector<std::pair<std::string, std::string>> &meta,
                       const std::vector<Row> &rows) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(f, "{\n  \"meta\": {");
  for (size_t i = 0; i < meta.size(); ++i)
    std::fprintf(f, "%s\n    %s: %s", i ? "," : "", json_string(meta[i].first).c_str(),
                 meta[i].second.c_str());
  std::fprintf(f, "\n  },\n  \"rows\": [");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    std::fprintf(f, "%s\n    {\"op\": %s, \"elem\": %s, \"set\": %s, \"M\": %lld, \"N\": %lld, "
                 "\"K\": %lld, \"contender\": %s, \"exgc\": %s",
                 i ? "," : "", json_string(r.op).c_str(), json_string(r.elem).c_str(),
                 json_string(r.set).c_str(), (long long)r.M, (long long)r.N, (long long)r.K,
                 json_string(r.contender).c_str(), r.is_exgc ? "true" : "false");
    if (r.op == "attn")
      std::fprintf(f, ", \"BH\": %lld, \"causal\": %s", (long long)r.batch,
                   r.causal ? "true" : "false");
    if (r.checked)
      std::fprintf(f, ", \"check\": {\"passed\": %s, \"elements\": %llu, \"over_bound\": %llu, "
                   "\"max_err_over_bound\": %s, \"rel_err\": %s, \"rel_limit\": %s, "
                   "\"host_samples\": %llu, \"host_over_bound\": %llu}",
                   r.check.passed() ? "true" : "false", (unsigned long long)r.check.elements,
                   (unsigned long long)r.check.bad, json_number(r.check.max_ratio).c_str(),
                   json_number(r.check.rel_err).c_str(), json_number(r.check.rel_limit).c_str(),
                   (unsigned long long)r.check.host_samples,
                   (unsigned long long)r.check.host_bad);
    if (r.timed)
      std::fprintf(f, ", \"time_ms\": {\"samples\": %d, \"median\": %s, \"middle_half_mean\": %s, "
                   "\"min\": %s, \"max\": %s}, \"rate\": %s, \"rate_unit\": %s, \"vs_ref\": %s",
                   r.time.samples, json_number(r.time.median_ms).c_str(),
                   json_number(r.time.mid_mean_ms).c_str(), json_number(r.time.min_ms).c_str(),
                   json_number(r.time.max_ms).c_str(),
                   json_number(r.rate > 0 ? r.rate : NAN).c_str(),  // null when emulated
                   r.op == "gemm" || r.op == "attn" ? "\"TFLOP/s\"" : "\"GB/s\"",
                   json_number(r.vs_ref > 0 ? r.vs_ref : NAN).c_str());
    if (!r.target.empty())
      std::fprintf(f, ", \"target\": %s, \"target_met\": %s", json_string(r.target).c_str(),
                   r.target_met ? "true" : "false");
    std::fprintf(f, "}");
  }
  std::fprintf(f, "\n  ]\n}\n");
  return std::fclose(f) == 0;
}

}  // namespace bench
