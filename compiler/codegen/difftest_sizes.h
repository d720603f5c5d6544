// difftest_sizes.h - the difftest program's choice of sizes ---------------//
// Owns: exgdt::SizeSearch, the part of the difftest runtime
// (difftest_runtime.h) that picks the tuples of control arguments a case
// runs at: the smallest admissible ones, values around the procs' constants,
// index ranges, medium values, pairs of different values and random ones,
// within the asserts and a work budget (docs/scheduling.md says exactly what).
#pragma once

namespace exgc::codegen {

/// C++ source inside `namespace exgdt`, after the options and exgdt::Case.
const char *difftest_size_search();

} // namespace exgc::codegen
