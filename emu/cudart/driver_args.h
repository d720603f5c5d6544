// emu/cudart/driver_args.h - the command line of `exg-emu` ------------------//
// Owns: what `exg-emu` accepts and the nvcc flags it prints; the tool
// (tools/exg-emu/main.cpp) only execs what this parses.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace emu::cudart {

/// The nvcc flags a program needs to run under the emulator:
///   -cudart shared   loads libcudart.so.13 at run time, so ours stands in;
///   -gencode arch=compute_90a,code=compute_90a   embeds sm_90a PTX (no SASS);
///   -no-compress     keeps that PTX as plain text (nvcc 13 compresses it);
///   -lineinfo        .loc directives, so reports name the .cu line.
const char *nvcc_flags();

/// One parsed command line.
struct DriverArgs {
  enum class Action { Run, PrintNvccFlags, Help, Version, Error };
  Action action = Action::Error;
  std::string error;                   ///< Action::Error: what was wrong
  /// EXG_EMU_* variables to set (name, value), in order.
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> program;    ///< Action::Run: the program and its arguments
};

/// Parses `exg-emu [options] [--] program args...` (argv[0] excluded).
/// Options stop at `--` or at the first word that is not an option.
DriverArgs parse_driver_args(const std::vector<std::string> &args);

/// The text of `exg-emu --help`.
const char *driver_usage();

} // namespace emu::cudart
