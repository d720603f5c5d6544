// difftest.h - differential tests of schedule steps (`exgc --emit=difftest`) //
//
// Owns: emit_difftest, which writes one self-contained C++17 program that
// checks rewrites on random data. Each case is a pair of procs with the same
// arguments, `before` and `after` (a schedule's input and result, or one
// primitive's input and output). The program embeds the CPU reference of
// every proc involved (cpp_backend.h), then for each case:
//  - searches sizes: control arguments are drawn from a fixed pool (all equal
//    first, then at random) until a few tuples satisfy every `assert` of
//    `before`, evaluated in C++ (and keep each buffer under 2^20 elements);
//  - fills every tensor and scalar with random data (floats are multiples of
//    1/4 in [-2, 2], so sums of products are exact and any reordering of a
//    float sum gives the same bits until magnitudes pass 2^20; a relative
//    tolerance of 1e-5 covers the rest), runs both procs on copies, and
//    compares the return codes and every tensor and written scalar (integers
//    exactly);
//  - prints the first mismatch with the case's .exg location and sizes.
// It ends by printing `N passed, M failed` and exits 1 when any case failed.
// Runs after the schedules (their steps are the cases) and instead of the
// other backends.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "compiler/frontend/program.h"
#include "compiler/support/diagnostics.h"

namespace exgc {

struct DiffCase {
  std::string label; // "step 'divide_loop' of schedule 'g'"
  SrcLoc loc;        // the step (or schedule) in the .exg file
  Proc before, after;
};

/// Writes the test program for `cases` to `out`. Returns false after
/// reporting what the CPU reference cannot translate.
bool emit_difftest(const Program &program, const std::vector<DiffCase> &cases, std::ostream &out,
                   DiagEngine &diag);

} // namespace exgc
