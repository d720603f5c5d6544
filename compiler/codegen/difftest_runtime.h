// difftest_runtime.h - the fixed part of the difftest program --------------//
// Owns: the C++ text every `--emit=difftest` program embeds after the CPU
// reference: the command line of the program (exgdt::parse_args), the case
// description (exgdt::Case), the data (exgdt::fill), the comparison
// (exgdt::compare) and the per-case driver (exgdt::check); the choice of
// sizes (exgdt::SizeSearch) comes from difftest_sizes.h. difftest.cpp writes,
// per case, an `admissible` and a `run` function and an exgdt::Case naming
// them; docs/scheduling.md says what the program tries.
#pragma once
#include <string>

namespace exgc::codegen {

/// The runtime's C++ source (includes, then `namespace { namespace exgdt`).
std::string difftest_runtime();

} // namespace exgc::codegen
