// checks.h - the synchronization checks of one exgc run ---------------------//
// Owns: which checks a run makes (every `check` declaration of the main
// module; `--check-size NAME:...` replaces NAME's declarations), the GPU
// semantics facts they need (computed once per proc), and running them
// (compiler/synclower/). A kernel is written only when they all pass.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/program.h"
#include "compiler/gpu/facts.h"
#include "compiler/synclower/check.h"
#include "tools/exgc/driver.h"

namespace exgc {

class SyncChecks {
public:
  SyncChecks(const Program &prog, const DriverOptions &opts, DiagEngine &diag);

  /// The GPU semantics stage on `p` with its device calls inlined
  /// (gpu/device_calls.h), once; null after either reported errors.
  const gpu::GpuFacts *facts(const Proc &p);
  /// Runs every check, each at its declared sizes and then at the sizes
  /// derived from them (synclower/derived_sizes.h); false when one failed or
  /// could not run. With `sync_text`, each lowered program's text is appended.
  bool run_all(std::string *sync_text);
  /// Called after structure_ok's backend run reported errors about `proc`
  /// (from diagnostic `first` on): the driver adds the schedule notes.
  std::function<void(size_t first, const std::string &proc)> on_backend_errors;
  /// Whether some check names the proc `name`.
  bool has_check(const std::string &name) const;
  /// Each check that passed, as `proc(M=1, N=2)` (with its time under
  /// --print-stats), in the order run.
  const std::vector<std::string> &passed() const { return passed_; }

private:
  /// Whether the CUDA backend can read every device function of `p`. One the
  /// GPU stage left without facts (a body that is not a nest of `cuda_tasks`
  /// loops, a bad blockDim) would only be "not supported by the sync
  /// checker's lowering" there; the backend's checks say what is wrong with
  /// it, so they run first and the check is skipped after their errors.
  bool structure_ok(const Proc &p, const gpu::GpuFacts &f);
  /// One check of `p`; false after reporting.
  bool run_one(const Proc &p, const synclower::CheckRequest &r, const gpu::GpuFacts &f,
               std::string *sync_text);

  const Program &prog_;
  const DriverOptions &opts_;
  DiagEngine &diag_;
  std::vector<synclower::CheckRequest> requests_;
  std::vector<std::string> passed_;
  /// Per proc checked so far: its facts, or null when the stage reported errors.
  std::map<const ProcNode *, std::unique_ptr<gpu::GpuFacts>> facts_;
  /// Per proc checked so far: the proc with its device calls inlined.
  std::map<const ProcNode *, Proc> inlined_;
  /// Per proc checked so far: structure_ok's answer.
  std::map<const ProcNode *, bool> structure_;
};

} // namespace exgc
