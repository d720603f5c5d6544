// driver.h - one compilation, from options to output files ----------------//
// Owns: the order of the pipeline stages and which procs are compiled. The
// command line (exgc.cpp) fills DriverOptions; run_driver does the rest and
// returns the exit code: 0 success, 1 errors in the input, 2 a bad
// --function-prefix or --namespace, 3 internal error.
// check_program runs the same pipeline for exgc-lsp and keeps its results.
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/c_names.h"
#include "compiler/frontend/load.h"
#include "compiler/frontend/program.h"
#include "compiler/schedule/budget.h"
#include "compiler/support/diagnostics.h"
#include "compiler/sync/budget.h"

namespace exgc {

enum class EmitKind { Cuda, Cpp, Exg, Difftest, Runall, Sync };
enum class DiagFormat { Text, Json, Sarif };
/// --progress: a line on standard error while a check runs past a second
/// (auto), for every check (always), or none (tools/exgc/progress.h).
enum class ProgressMode { Auto, Always, Never };

struct DriverOptions {
  std::string input;
  std::string output; // empty: derived from the input name; "-": standard output
  EmitKind emit = EmitKind::Cuda;
  std::vector<std::string> include_dirs;
  std::vector<std::string> entry_procs; // -e: compile only these
  std::string stdlib_dir;
  DiagFormat diag_format = DiagFormat::Text;
  bool show_diag_kind = false;
  bool color = false; // --color: text diagnostics in clang's colours
  WarningPolicy warnings; // -Werror, -Wno-KIND
  /// -D NAME=VALUE, in order: replaces the main module's top-level value NAME.
  std::vector<std::pair<std::string, std::string>> value_overrides;
  bool stats = false; // --print-stats: time per stage and solver queries on stderr
  bool verify = false; // --verify: run every check, write nothing
  bool report_checks = false; // print each check that passed, with its sizes (exgc --verify)
  bool require_check = false; // --require-check: a parallel proc with no check is an error
  std::string dep_file; // -MD/-MF: a Make-style list of the files read, after a write; empty: none
  std::vector<std::string> difftest_pairs; // --difftest-pair=REF:CAND, checked to have a ':'
  schedule::ScriptBudget script_budget; // --script-budget
  unsigned solver_rlimit = 0; // --solver-rlimit; 0: IndexSolver::kDefaultRlimit
  uint64_t max_input_bytes = LoadOptions::kDefaultMaxFileBytes; // --max-input-size; 0: none
  std::map<std::string, std::string> unsaved; // canonical path -> text (exgc-lsp's open buffers)
  /// --check-size NAME:M=1,N=2: checks that replace NAME's `check` declarations.
  struct CheckSize {
    std::string proc;
    std::vector<std::pair<std::string, int64_t>> sizes;
  };
  std::vector<CheckSize> check_sizes;
  sync::CheckBudget check_budget; // --max-check-memory, --max-check-time
  ProgressMode progress = ProgressMode::Never; // --progress (exgc's default: auto)
  codegen::EntryNaming entries; // --function-prefix, --namespace (cu and cpp output)
  /// exgc-lsp (check_program only): a flag another thread sets to stop the
  /// run at its next stage or script step (support/cancel.h); null: never.
  const std::atomic<bool> *cancel = nullptr;
  /// exgc-lsp: called with the program once it is typechecked, before its
  /// schedules run (the names an editor asks about are all there).
  std::function<void(const Program &, const SourceManager &)> on_typechecked;
};

/// Runs the pipeline and writes its outputs, all or none (outputs.h).
int run_driver(const DriverOptions &opts);

/// A --verify run kept for an editor (exgc-lsp): every diagnostic, and the
/// program (schedule results added) when it loaded, else null.
struct CheckedProgram {
  SourceManager sources;
  DiagEngine diag{sources};
  std::unique_ptr<Program> program;
  int rc = 0; // as run_driver's
  bool cancelled = false; // stopped by DriverOptions::cancel: incomplete
};

/// Runs the --verify pipeline (opts.verify is set here) and keeps what it
/// found instead of printing it. opts.cancel also stops the schedules.
std::unique_ptr<CheckedProgram> check_program(DriverOptions opts);

} // namespace exgc
