// emu/support/report.h - how the emulator stops on a hazard, and its options ---//
// Owns: the hazard kinds and their exit codes (one each, documented in
// docs/emulator.md), the located report, and the options that `exg-emu` passes
// to the emulated runtime through the environment.
#pragma once

#include <cstdint>
#include <string>

namespace emu {

/// What went wrong in an emulated kernel. Each kind has its own exit code, so a
/// CI job (or a test) can tell a race from a fault from a missing instruction.
enum class Hazard : int {
  OutOfBounds = 101,     ///< an access outside every allocation, or misaligned, in any space
  Deadlock = 102,        ///< nothing runnable and nothing pending: every blocked thread listed
  BarrierMisuse = 103,   ///< mbarrier over-arrival, tx-count underflow, aliased-phase wait,
                         ///< named-barrier thread-count mismatch, uninitialized mbarrier
  AsyncHazard = 104,     ///< async-proxy read of generic writes without fence.proxy.async,
                         ///< an async source changed before its wait, accumulator registers
                         ///< touched while a wgmma is in flight
  RegisterPool = 105,    ///< setmaxnreg past the CTA's register pool
  Unsupported = 106,     ///< an instruction or form the emulator does not implement
  BadProgram = 107,      ///< malformed PTX, a bad launch, a tensor map not from the encoder
  Internal = 108,        ///< an emulator bug (an assertion)
};

/// Where in a kernel something happened; fields left empty are not printed.
struct Where {
  std::string kernel;
  int cta[3] = {-1, -1, -1};
  int thread[3] = {-1, -1, -1};
  uint32_t ptx_line = 0;
  std::string instr;      ///< the PTX instruction text
  std::string source;     ///< "file.cu:12:3" (from .loc, when built with -lineinfo)
};

/// Prints "exg-emu: <kind>: <what>" and the location to stderr, then exits the
/// process with the hazard's code (flushing stdout first).
[[noreturn]] void report(Hazard kind, const Where &where, const std::string &what);

/// The name of a hazard kind as reports print it ("out-of-bounds", "deadlock", ...).
const char *hazard_name(Hazard kind);

/// Detectors that `exg-emu --allow=KIND[,KIND...]` (EXG_EMU_ALLOW) turns from
/// a stop into a warning, for third-party kernels with known issues (like a
/// sanitizer's suppressions). Each has a name for the command line.
enum class Detector : uint8_t {
  AsyncProxy,          ///< "async-proxy": the async proxy reads generic writes without fence.proxy.async
  WgmmaFence,          ///< "wgmma-fence": a wgmma.mma_async without the wgmma.fence it needs
  WgmmaRegisters,      ///< "wgmma-registers": D/A registers of an in-flight wgmma touched
  AliasedPhase,        ///< "aliased-phase": a parity wait lapped by two or more phases
  ShflMask,            ///< "shfl-mask": member-mask misuse of shfl/vote/match/redux/elect/bar.warp.sync
  MbarrierInitRelease, ///< "mbarrier-init-release": another CTA uses an mbarrier.init never released
  ExitedCta,           ///< "exited-cta": shared memory of a cluster CTA that has exited (an
                       ///< out-of-bounds access; allowed, it reaches the memory as it was)
};
constexpr int kDetectorCount = 7;
const char *detector_name(Detector d);
/// "async-proxy, wgmma-fence, ..." (for help texts and errors).
std::string detector_names();
/// Parses "KIND[,KIND...]" into `bits` (bit i: Detector i). False, with `bad`
/// set to the offending word, for an unknown or empty name.
bool parse_detectors(const std::string &list, uint32_t &bits, std::string &bad);

/// Options of one emulated run. `exg-emu` sets EXG_EMU_* variables; the runtime
/// reads them once (Options::from_environment).
struct Options {
  uint64_t seed = 1;               ///< EXG_EMU_SEED: the scheduler's and the adversary's seed
  bool adversarial = true;         ///< EXG_EMU_ADVERSARIAL=0 turns off late landing, parts, poison
  bool misalign_dynamic_smem = false; ///< EXG_EMU_MISALIGN_DSMEM=1: dynamic smem off 1024 B
  uint32_t quantum = 0;            ///< EXG_EMU_QUANTUM: max instructions a warp runs before the
                                   ///< scheduler may switch (0: seeded random 1..64)
  uint64_t max_instructions = 0;   ///< EXG_EMU_MAX_INSTRUCTIONS: per launch, 0 = unlimited
  bool trace = false;              ///< EXG_EMU_TRACE=1: print each launch
  std::string profile;             ///< EXG_EMU_PROFILE=FILE: append each launch's profile
  int sm_count = 132;              ///< EXG_EMU_SMS: the SM count the device reports (1..132),
                                   ///< so that persistent kernels loop over several tasks
  uint32_t allow = 0;              ///< EXG_EMU_ALLOW=KIND[,KIND...]: detectors that only warn
  bool allows(Detector d) const { return allow >> unsigned(d) & 1; }
  /// Reads EXG_EMU_*; an unknown EXG_EMU_ALLOW name stops the run (Hazard::BadProgram).
  static Options from_environment();
};

/// A hazard found by detector `d`: report() unless `opt` allows `d`. When it
/// does, the hazard is counted and the run goes on; at process exit (or before
/// a later report) one line per allowed detector goes to stderr:
/// "exg-emu: allowed async-proxy: <the first one's report, on one line> (first of N)".
void report_detected(const Options &opt, Detector d, Hazard kind, const Where &where, const std::string &what);

} // namespace emu
