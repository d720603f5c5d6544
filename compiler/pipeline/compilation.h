// compilation.h - one input through the stages, each run once ---------------//
// Owns: the order of the stages that every use of the compiler shares (load,
// typecheck, the schedules with the re-check of their results) and the one
// GPU stage of the input (gpu/gpu_stage.h), whose results the sync checks and
// the CUDA backend read. The driver (exgc and exgc-lsp), the fuzz targets and
// the schedule unit tests compile through it, so none of them assembles the
// stages by hand or skips one. What to emit, and which procs, is the
// driver's (tools/exgc/driver.h).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "compiler/frontend/load.h"
#include "compiler/frontend/program.h"
#include "compiler/gpu/gpu_stage.h"
#include "compiler/schedule/budget.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/support/diagnostics.h"

namespace exgc {

class Compilation {
public:
  Compilation(SourceManager &sources, DiagEngine &diag) : sources_(sources), diag_(diag) {}

  /// Called as each stage ends, with its name ("load", "typecheck",
  /// "schedules", "re-check of results"), whether or not it succeeded:
  /// --print-stats times the stages, and a cancelled exgc-lsp run throws here.
  std::function<void(const char *stage)> on_stage_end;
  /// Called with the program once typecheck() ran, before its stage ends
  /// (exgc-lsp indexes the names an editor asks about, even when a later
  /// cancel drops the rest of the run).
  std::function<void(const Program &, const SourceManager &)> on_typechecked;

  /// Parses `path` and the modules it imports. False after errors.
  bool load(const std::string &path, const LoadOptions &opts);
  /// Typechecks every proc of every module, bounds included. False after errors.
  bool typecheck();

  struct ScheduleOptions {
    schedule::ScriptBudget budget;
    /// -D NAME=TEXT (schedule/interpreter.h); the driver checks the names.
    std::map<std::string, std::string> value_overrides;
    /// A remark per schedule whose steps round otherwise (--verify, difftest).
    bool list_rounding = false;
  };
  /// Runs the main module's schedules (a warning per schedule that used an
  /// unsafe step), re-checks each result whole (types, bounds, callee
  /// preconditions) so no step hands a later stage a proc the typecheck would
  /// refuse, and adds each result to the main module as a proc of the
  /// schedule's name. False after errors.
  bool run_schedules(const ScheduleOptions &opts);

  /// The program, once load() returned it (null before or after a failed load).
  Program *program() { return program_.get(); }
  /// The program, for a caller that keeps it past the compilation (exgc-lsp).
  std::unique_ptr<Program> release_program();
  /// The schedules' interpreter, made by run_schedules (null before).
  schedule::Interpreter *interpreter() { return interp_.get(); }
  const schedule::Interpreter *interpreter() const { return interp_.get(); }
  /// The input's GPU stage, made on first use; each proc runs through it once.
  gpu::GpuStage &gpu_stage();
  /// How many procs the GPU stage ran on; none when it was never asked.
  std::optional<size_t> gpu_stage_runs() const;

  SourceManager &sources() { return sources_; }
  DiagEngine &diag() { return diag_; }

private:
  void stage_end(const char *name) {
    if (on_stage_end)
      on_stage_end(name);
  }
  bool recheck_results();

  SourceManager &sources_;
  DiagEngine &diag_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<schedule::Interpreter> interp_;
  std::unique_ptr<gpu::GpuStage> gpu_stage_;
};

} // namespace exgc
