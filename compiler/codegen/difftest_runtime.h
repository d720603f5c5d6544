// difftest_runtime.h - the fixed part of the difftest program --------------//
// Owns: the C++ text every `--emit=difftest` program embeds after the CPU
// reference: the choice of sizes (exgdt::choose_sizes), the data
// (exgdt::fill), the comparison (exgdt::compare), the per-case driver
// (exgdt::check) and the command line of the program (exgdt::parse_args).
// difftest.cpp writes, per case, an `admissible` and a `run` function and an
// exgdt::Case naming them; docs/scheduling.md says what the program tries.
#pragma once

namespace exgc::codegen {

/// The runtime's C++ source (includes, then `namespace { namespace exgdt`).
const char *difftest_runtime();

} // namespace exgc::codegen
