// emu/cudart/driver_args.cpp - the command line of `exg-emu` ----------------//
#include "emu/cudart/driver_args.h"

#include "emu/support/report.h"

#include <cstdlib>

namespace emu::cudart {

const char *nvcc_flags() {
  return "-cudart shared -gencode arch=compute_90a,code=compute_90a -no-compress -lineinfo";
}

const char *driver_usage() {
  static const std::string text = std::string(
         "usage: exg-emu [options] [--] program [args...]\n"
         "       exg-emu --nvcc-flags | --help | --version\n"
         "\n"
         "Runs an nvcc-built program on the CPU with an emulated H200 (sm_90a).\n"
         "Build the program with: nvcc $(exg-emu --nvcc-flags) prog.cu [-lcuda]\n"
         "\n"
         "options:\n"
         "  --seed N                  seed of the scheduler and the adversary (default 1)\n"
         "  --no-adversary            land async results at their waits, no NaN poison\n"
         "  --misalign-dynamic-smem   place dynamic shared memory off 1024-byte alignment\n"
         "  --quantum N               instructions a warp runs before a switch (0: random)\n"
         "  --max-instructions N      stop a launch after N instructions (0: no limit)\n"
         "  --trace                   print each launch\n"
         "  --profile FILE            append each launch's instruction counts by class, per\n"
         "                            warpgroup, to FILE (one JSON line per launch)\n"
         "  --sms N                   report N SMs (1 to 132, default 132): a persistent\n"
         "                            kernel's CTAs then run several tasks each\n"
         "  --allow=KIND[,KIND...]    a known issue of a third-party kernel: count the hazards\n"
         "                            of these detectors and go on; one line per detector at\n"
         "                            exit (\"exg-emu: allowed KIND: <first> (first of N)\"). KIND:\n"
         "                            ") + emu::detector_names() + "\n" +
         "  --nvcc-flags              print the nvcc flags a program needs, then exit\n"
         "  --help, --version\n"
         "\n"
         "exit status: the program's own; 101-108 for a hazard the emulator detected\n"
         "(see docs/emulator.md); 2 for a bad command line or a program that cannot run.\n";
  return text.c_str();
}

namespace {

bool is_count(const std::string &s) {
  if (s.empty())
    return false;
  char *end = nullptr;
  std::strtoull(s.c_str(), &end, 0);
  return *end == '\0' && s[0] != '-';
}

} // namespace

DriverArgs parse_driver_args(const std::vector<std::string> &args) {
  DriverArgs r;
  auto fail = [&r](std::string msg) {
    r.action = DriverArgs::Action::Error;
    r.error = std::move(msg);
    return r;
  };
  std::string allow; // every --allow, joined
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.empty() || a[0] != '-')
      break;
    if (a == "--nvcc-flags" || a == "--help" || a == "-h" || a == "--version") {
      r.action = a == "--nvcc-flags" ? DriverArgs::Action::PrintNvccFlags
                 : a == "--version"  ? DriverArgs::Action::Version
                                     : DriverArgs::Action::Help;
      return r;
    }
    if (a == "--no-adversary") {
      r.env.emplace_back("EXG_EMU_ADVERSARIAL", "0");
    } else if (a == "--misalign-dynamic-smem") {
      r.env.emplace_back("EXG_EMU_MISALIGN_DSMEM", "1");
    } else if (a == "--trace") {
      r.env.emplace_back("EXG_EMU_TRACE", "1");
    } else if (a == "--allow" || a.rfind("--allow=", 0) == 0) {
      if (a == "--allow" && i + 1 == args.size())
        return fail("option '--allow' needs a detector name (" + emu::detector_names() + ")");
      std::string list = a == "--allow" ? args[++i] : a.substr(8);
      uint32_t bits = 0;
      std::string bad;
      if (!emu::parse_detectors(list, bits, bad))
        return fail("option '--allow': '" + bad + "' is not a detector (known: " + emu::detector_names() + ")");
      allow += (allow.empty() ? "" : ",") + list;
    } else if (a == "--profile" || a.rfind("--profile=", 0) == 0) {
      if (a == "--profile" && i + 1 == args.size())
        return fail("option '--profile' needs a file name");
      std::string file = a == "--profile" ? args[++i] : a.substr(10);
      if (file.empty())
        return fail("option '--profile' needs a file name");
      r.env.emplace_back("EXG_EMU_PROFILE", file);
    } else if (a == "--sms") {
      if (i + 1 == args.size())
        return fail("option '--sms' needs a number");
      const std::string &v = args[++i];
      if (!is_count(v) || v.size() > 3 || std::stoi(v) < 1 || std::stoi(v) > 132)
        return fail("option '--sms' needs a number from 1 to 132, not '" + v + "'");
      r.env.emplace_back("EXG_EMU_SMS", v);
    } else if (a == "--seed" || a == "--quantum" || a == "--max-instructions") {
      if (i + 1 == args.size())
        return fail("option '" + a + "' needs a number");
      const std::string &v = args[++i];
      if (!is_count(v))
        return fail("option '" + a + "' needs a non-negative number, not '" + v + "'");
      const char *var = a == "--seed"    ? "EXG_EMU_SEED"
                        : a == "--quantum" ? "EXG_EMU_QUANTUM"
                                           : "EXG_EMU_MAX_INSTRUCTIONS";
      r.env.emplace_back(var, v);
    } else {
      return fail("unknown option '" + a + "'");
    }
  }
  if (i == args.size())
    return fail("no program to run; write: exg-emu [options] -- ./program [args...]");
  if (!allow.empty())
    r.env.emplace_back("EXG_EMU_ALLOW", allow);
  r.program.assign(args.begin() + i, args.end());
  r.action = DriverArgs::Action::Run;
  return r;
}

} // namespace emu::cudart
