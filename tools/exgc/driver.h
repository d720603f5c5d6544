// driver.h - one compilation, from options to output files ----------------//
// Owns: the order of the pipeline stages and which procs are compiled. The
// command line (exgc.cpp) fills DriverOptions; run_driver does the rest and
// returns the exit code: 0 success, 1 errors in the input, 3 internal error.
#pragma once
#include <string>
#include <vector>

#include "compiler/frontend/load.h"
#include "compiler/schedule/budget.h"

namespace exgc {

enum class EmitKind { Cuda, Cpp, Exg, Difftest, Runall };
enum class DiagFormat { Text, Json };

struct DriverOptions {
  std::string input;
  std::string output; // empty: derived from the input name; "-": standard output
  EmitKind emit = EmitKind::Cuda;
  std::vector<std::string> include_dirs;
  std::vector<std::string> entry_procs; // -e: compile only these
  std::string stdlib_dir;
  DiagFormat diag_format = DiagFormat::Text;
  bool show_diag_kind = false;
  bool stats = false; // --print-stats: time per stage and solver queries on stderr
  bool verify = false; // --verify: run every check, write nothing
  std::vector<std::string> difftest_pairs; // --difftest-pair=REF:CAND, checked to have a ':'
  schedule::ScriptBudget script_budget; // --script-budget
  unsigned solver_rlimit = 0; // --solver-rlimit; 0: IndexSolver::kDefaultRlimit
  uint64_t max_input_bytes = LoadOptions::kDefaultMaxFileBytes; // --max-input-size; 0: none
};

int run_driver(const DriverOptions &opts);

/// Where the runtime headers are: <root>/runtime/include.
std::string runtime_include_dir();
/// The stdlib folder used when --stdlib-dir is not given.
std::string default_stdlib_dir();

} // namespace exgc
