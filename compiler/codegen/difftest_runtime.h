// difftest_runtime.h - the fixed part of the difftest program --------------//
// Owns: the C++ text every `--emit=difftest` program embeds after the CPU
// reference: the command line of the program (exgdt::parse_args), the case
// description (exgdt::Case), the data (exgdt::fill), the comparison
// (exgdt::compare) and the per-case driver (exgdt::check); the choice of
// sizes (exgdt::SizeSearch) comes from difftest_sizes.h. difftest.cpp writes,
// per case, its `admissible`, `work`, `shape` and `call` functions and an
// exgdt::Case naming them with its data arguments; exgdt::run_case does the
// rest. docs/scheduling.md says what the program tries.
//
// Two macros let a build of many programs compile the runtime once:
// EXGDT_RUNTIME_ONLY keeps only the runtime (its definitions, in one object),
// EXGDT_RUNTIME_APART leaves its definitions out of a program linked with it.
#pragma once
#include <string>

namespace exgc::codegen {

/// The runtime's C++ source: includes, the interface of `namespace exgdt`,
/// then its definitions (left out under EXGDT_RUNTIME_APART).
std::string difftest_runtime();

} // namespace exgc::codegen
