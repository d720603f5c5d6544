// effects.h - which arguments a proc writes, and which procs it calls -----//
// Owns: AbiEffects, the facts the ABI needs before any code is written (not
// analysis::Effects, the access sets of the checks). A data argument
// is "written" when the proc assigns it, reduces into it, writes through a
// window of it, or passes it to a callee (proc or instruction) that writes
// the matching parameter; written scalars are passed by pointer and unwritten
// tensors as pointers to const. Also collects the procs a set of procs calls
// (the static helpers to emit) and rejects call cycles.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/frontend/program.h"
#include "compiler/support/diagnostics.h"

namespace exgc::codegen {

class AbiEffects {
public:
  AbiEffects(const Program &program, DiagEngine &diag, std::string backend)
      : program_(program), diag_(diag), backend_(std::move(backend)) {}

  /// One flag per argument of p: true when p may write it (memoized).
  const std::vector<bool> &written(const ProcNode *p);

  /// The non-instruction procs reachable from `roots` by calls, callees
  /// before callers, roots included (even instructions). Reports a call cycle or an unknown
  /// callee and returns false.
  bool collect_procs(const std::vector<Proc> &roots, std::vector<Proc> &out);

  /// The proc or instruction `name` called from `caller`, or null.
  Proc callee(const ProcNode *caller, const std::string &name) const;

  /// Calls in device functions are inlined (the CUDA backend,
  /// gpu/device_calls.h): collect_procs does not follow them.
  void set_device_calls_inlined() { device_calls_inlined_ = true; }
  /// `copy` (a proc with its device calls inlined) resolves names as
  /// `original` does, in the module that declares it.
  void alias(const ProcNode *copy, const ProcNode *original) { aliases_[copy] = original; }

private:
  bool visit(const Proc &p, std::vector<const ProcNode *> &stack, std::vector<Proc> &out,
             bool root);

  const Program &program_;
  DiagEngine &diag_;
  std::string backend_; // for diagnostics
  std::map<const ProcNode *, std::vector<bool>> written_;
  std::map<const ProcNode *, bool> done_;
  std::map<const ProcNode *, const ProcNode *> aliases_;
  bool device_calls_inlined_ = false;
};

} // namespace exgc::codegen
