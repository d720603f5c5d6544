// difftest.h - differential tests of schedule steps (`exgc --emit=difftest`) //
//
// Owns: emit_difftest, which writes one self-contained C++17 program that
// checks rewrites. Each case is a pair of procs with the same arguments,
// `before` and `after` (a schedule's input and result, one primitive's input
// and output, or a hand-written proc and the proc it claims to compute). The
// program embeds the CPU reference of every proc involved (cpp_backend.h);
// per case this file writes the asserts and buffer extents as C++
// (`admissible`), one run of both procs on copies of the same data compared
// argument by argument (`run`), and the integer constants of both procs.
// The fixed runtime (difftest_runtime.h) chooses the sizes (the smallest,
// around those constants, medium, pairs, index ranges, random), fills the
// data (distinct values and special ones) and prints `ok` or the smallest
// tuple that shows a difference; docs/scheduling.md says exactly what it
// tries. Runs after the schedules (their steps are the cases) and instead of
// the other backends.
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
  /// Floats compare within this relative tolerance: 1e-5, or more when a step
  /// rounds otherwise (docs/scheduling.md, "Differential testing").
  double tolerance = 1e-5;
};

/// Writes the test program for `cases` to `out`. Returns false after
/// reporting what the CPU reference cannot translate.
bool emit_difftest(const Program &program, const std::vector<DiffCase> &cases, std::ostream &out,
                   DiagEngine &diag);

} // namespace exgc
