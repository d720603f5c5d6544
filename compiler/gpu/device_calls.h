// device_calls.h - calls of procs in device code, inlined ------------------//
// Owns: the meaning of a call of a proc (not an instruction) inside a
// `with CudaDeviceFunction`: the callee's body runs in the caller's
// collective, so it is analysed, lowered to the sync checker and emitted as
// that body, inlined at the call with its parameters bound to the arguments
// (test/lit/synccheck/CATALOG.md, B12). Each inlined copy is fresh
// (statement ids, declared names), so every fact of the GPU stage belongs to
// one call; its statements keep the callee's source locations.
// Supported parameters: control values (size, index, bool), tensors and
// windows, barriers, and data scalars passed a literal. A data scalar passed
// anything else (a value read before the body runs, or written by it) is a
// DeviceCallParam error. A call cycle is RecursiveCall.
// Used by the CUDA backend and the sync checks before the GPU stage; the
// C++ backend keeps the calls (the sequential meaning they agree with).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "compiler/gpu/facts.h"
#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

/// The proc or instruction that `name` means in `caller`'s module.
using ScopedLookup = std::function<Proc(const ProcNode *caller, const std::string &name)>;

struct InlinedDeviceCalls {
  Proc proc; // `p` itself when it calls no proc in device code
  // The top statements of each inlined body, by id: the call they came from.
  std::map<NodeId, CallSite> call_site;
};

/// `p` with every call of a proc in its device functions replaced by the
/// callee's body (callees' calls in turn). Null after reporting.
std::optional<InlinedDeviceCalls> inline_device_calls(const Proc &p, const ScopedLookup &lookup,
                                                      DiagEngine &diag);

} // namespace exgc::gpu
