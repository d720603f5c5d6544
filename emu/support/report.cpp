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

void report(Hazard kind, const Where &where, const std::string &what) {
  std::fflush(stdout);
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
  if (const char *v = env("EXG_EMU_TRACE"))
    o.trace = std::strcmp(v, "0") != 0;
  return o;
}

} // namespace emu
