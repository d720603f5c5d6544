// emu/support/report.cpp - located hazard reports and the run's options -----//
#include "emu/support/report.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace emu {

const char *hazard_name(Hazard kind) {
  switch (kind) {
  case Hazard::OutOfBounds: return "out-of-bounds access";
  case Hazard::Deadlock: return "deadlock";
  case Hazard::BarrierMisuse: return "barrier misuse";
  case Hazard::AsyncHazard: return "async hazard";
  case Hazard::RegisterPool: return "register pool";
  case Hazard::Unsupported: return "unsupported";
  case Hazard::BadProgram: return "bad program";
  case Hazard::Internal: return "internal error";
  }
  return "hazard";
}

static bool known(const int v[3]) { return v[0] >= 0; }

const char *detector_name(Detector d) {
  switch (d) {
  case Detector::AsyncProxy: return "async-proxy";
  case Detector::WgmmaFence: return "wgmma-fence";
  case Detector::WgmmaRegisters: return "wgmma-registers";
  case Detector::AliasedPhase: return "aliased-phase";
  case Detector::ShflMask: return "shfl-mask";
  case Detector::MbarrierInitRelease: return "mbarrier-init-release";
  case Detector::ExitedCta: return "exited-cta";
  }
  return "?";
}

std::string detector_names() {
  std::string s;
  for (int i = 0; i < kDetectorCount; ++i)
    s += std::string(i ? ", " : "") + detector_name(Detector(i));
  return s;
}

bool parse_detectors(const std::string &list, uint32_t &bits, std::string &bad) {
  size_t start = 0;
  for (;;) {
    size_t end = list.find(',', start);
    std::string word = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    int found = -1;
    for (int i = 0; i < kDetectorCount; ++i)
      if (word == detector_name(Detector(i)))
        found = i;
    if (found < 0) {
      bad = word;
      return false;
    }
    bits |= 1u << found;
    if (end == std::string::npos)
      return true;
    start = end + 1;
  }
}

namespace {

// Allowed detections of this process: the first one's text and the count.
struct Allowed {
  std::string first[kDetectorCount];
  uint64_t count[kDetectorCount] = {};
  bool registered = false;
};
Allowed &allowed() {
  static Allowed a;
  return a;
}

void print_allowed() {
  Allowed &a = allowed();
  for (int i = 0; i < kDetectorCount; ++i) {
    if (!a.count[i])
      continue;
    std::string line = "exg-emu: allowed " + std::string(detector_name(Detector(i))) + ": " + a.first[i] +
                       " (first of " + std::to_string(a.count[i]) + ")\n";
    std::fputs(line.c_str(), stderr);
    a.count[i] = 0;
  }
  std::fflush(stderr);
}

// The report's location on one line: "kernel K, CTA (..), thread (..), PTX line N: I, source S".
std::string one_line(const Where &where) {
  std::string s;
  auto add = [&s](const std::string &part) { s += (s.empty() ? "" : ", ") + part; };
  if (!where.kernel.empty())
    add("kernel " + where.kernel);
  char b[160];
  if (known(where.cta)) {
    std::snprintf(b, sizeof b, "CTA (%d, %d, %d)", where.cta[0], where.cta[1], where.cta[2]);
    add(b);
  }
  if (known(where.thread)) {
    std::snprintf(b, sizeof b, "thread (%d, %d, %d)", where.thread[0], where.thread[1], where.thread[2]);
    add(b);
  }
  if (where.ptx_line)
    add("PTX line " + std::to_string(where.ptx_line) + (where.instr.empty() ? "" : ": " + where.instr));
  if (!where.source.empty())
    add("source " + where.source);
  return s;
}

} // namespace

void report_detected(const Options &opt, Detector d, Hazard kind, const Where &where, const std::string &what) {
  if (!opt.allows(d))
    report(kind, where, what);
  Allowed &a = allowed();
  int i = int(d);
  if (a.count[i]++ == 0) {
    std::string loc = one_line(where);
    a.first[i] = what + (loc.empty() ? "" : " [" + loc + "]");
  }
  if (!a.registered) {
    a.registered = true;
    std::atexit(print_allowed);
  }
}

void report(Hazard kind, const Where &where, const std::string &what) {
  std::fflush(stdout);
  print_allowed();
  std::string msg = "exg-emu: " + std::string(hazard_name(kind)) + ": " + what + "\n";
  if (!where.kernel.empty())
    msg += "  kernel " + where.kernel + "\n";
  if (known(where.cta)) {
    char b[160];
    std::snprintf(b, sizeof b, "  CTA (%d, %d, %d)", where.cta[0], where.cta[1], where.cta[2]);
    msg += b;
    if (known(where.thread)) {
      std::snprintf(b, sizeof b, ", thread (%d, %d, %d)", where.thread[0], where.thread[1],
                    where.thread[2]);
      msg += b;
    }
    msg += "\n";
  }
  if (where.ptx_line)
    msg += "  PTX line " + std::to_string(where.ptx_line) +
           (where.instr.empty() ? "" : ": " + where.instr) + "\n";
  if (!where.source.empty())
    msg += "  source " + where.source + "\n";
  std::fputs(msg.c_str(), stderr);
  std::fflush(stderr);
  _exit(static_cast<int>(kind));
}

static const char *env(const char *name) {
  const char *v = std::getenv(name);
  return v && *v ? v : nullptr;
}

Options Options::from_environment() {
  Options o;
  if (const char *v = env("EXG_EMU_SEED"))
    o.seed = std::strtoull(v, nullptr, 0);
  if (const char *v = env("EXG_EMU_ADVERSARIAL"))
    o.adversarial = std::strcmp(v, "0") != 0;
  if (const char *v = env("EXG_EMU_MISALIGN_DSMEM"))
    o.misalign_dynamic_smem = std::strcmp(v, "0") != 0;
  if (const char *v = env("EXG_EMU_QUANTUM"))
    o.quantum = static_cast<uint32_t>(std::strtoul(v, nullptr, 0));
  if (const char *v = env("EXG_EMU_MAX_INSTRUCTIONS"))
    o.max_instructions = std::strtoull(v, nullptr, 0);
  if (const char *v = env("EXG_EMU_SMS")) {
    long n = std::strtol(v, nullptr, 0);
    if (n < 1 || n > 132)
      report(Hazard::BadProgram, Where{},
             std::string("EXG_EMU_SMS is '") + v + "'; an H200 has 1 to 132 SMs to report");
    o.sm_count = static_cast<int>(n);
  }
  if (const char *v = env("EXG_EMU_TRACE"))
    o.trace = std::strcmp(v, "0") != 0;
  if (const char *v = env("EXG_EMU_PROFILE"))
    o.profile = v;
  if (const char *v = env("EXG_EMU_ALLOW")) {
    std::string bad;
    if (!parse_detectors(v, o.allow, bad))
      report(Hazard::BadProgram, Where{},
             "EXG_EMU_ALLOW names '" + bad + "', which is not a detector (known: " + detector_names() + ")");
  }
  return o;
}

} // namespace emu
