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
  static Options from_environment();
};

} // namespace emu
