// checks.h - the synchronization checks of one exgc run ---------------------//
// Owns: which checks a run makes (every `check` declaration of the main
// module; `--check-size NAME:...` replaces NAME's declarations) and running
// them (compiler/synclower/) on the GPU stage's results, which the
// compilation's GpuStage computes once per proc and the CUDA backend reuses.
// A kernel is written only when they all pass.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/program.h"
#include "compiler/gpu/gpu_stage.h"
#include "compiler/synclower/check.h"
#include "tools/exgc/driver.h"

namespace exgc {

class SyncChecks {
public:
  SyncChecks(const Program &prog, const DriverOptions &opts, gpu::GpuStage &stage,
             DiagEngine &diag);

  /// Runs every check, each at its declared sizes and then at the sizes
  /// derived from them (synclower/derived_sizes.h); false when one failed or
  /// could not run. With `sync_text`, each lowered program's text is appended.
  bool run_all(std::string *sync_text);
  /// The procs some check names, in order, each once (unknown names left out).
  std::vector<Proc> checked_procs() const;
  /// Whether some check names the proc `name`.
  bool has_check(const std::string &name) const;
  /// Each check that passed, as `proc(M=1, N=2)` (with its time under
  /// --print-stats), in the order run.
  const std::vector<std::string> &passed() const { return passed_; }

private:
  /// One check of `p`; false after reporting.
  bool run_one(const Proc &p, const synclower::CheckRequest &r,
               const gpu::GpuStage::Result &stage, std::string *sync_text);

  const Program &prog_;
  const DriverOptions &opts_;
  gpu::GpuStage &stage_;
  DiagEngine &diag_;
  std::vector<synclower::CheckRequest> requests_;
  std::vector<std::string> passed_;
};

} // namespace exgc
