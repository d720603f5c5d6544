// gpu_stage.h - the GPU stage of one compilation, once per proc -------------//
// Owns: running the stage (device calls inlined, device_calls.h; then the
// checks, gpu_check.h) at most once per proc of a compilation and keeping
// its result, so the sync checks and the CUDA backend read the same inlined
// proc and the same facts (their node pointers are the facts' keys), and its
// errors are reported once. The driver makes one per compilation and hands it
// to both; a backend run on its own makes its own.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "compiler/gpu/device_calls.h"
#include "compiler/gpu/facts.h"

namespace exgc::gpu {

class GpuStage {
public:
  GpuStage(ScopedLookup lookup, DiagEngine &diag) : lookup_(std::move(lookup)), diag_(diag) {}

  struct Result {
    Proc inlined;   // the proc with its device calls inlined (itself when none)
    GpuFacts facts; // keyed by `inlined`'s nodes
  };

  /// The stage's result for `p`, run the first time it is asked for; null
  /// when it reported errors (the first time only).
  const Result *run(const Proc &p);
  /// Called after a run reported errors (from diagnostic `first` on), for
  /// notes of where the code came from.
  std::function<void(size_t first, const std::string &proc)> on_errors;
  /// How many times the stage ran: once per proc asked for.
  size_t runs() const { return results_.size(); }

private:
  ScopedLookup lookup_;
  DiagEngine &diag_;
  std::map<const ProcNode *, std::unique_ptr<Result>> results_; // null: errors
};

} // namespace exgc::gpu
