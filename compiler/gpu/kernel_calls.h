// kernel_calls.h - calls of checked kernels that break the check's premise ---//
// Owns: the host-side call of a proc that launches a kernel. The sync check
// of that proc gives each tensor parameter its own buffer; a call that passes
// one buffer to two parameters, one of them written, runs a different (aliased)
// program that nothing checked. Such calls are refused at the call.
#pragma once
#include <functional>
#include <string>

#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

/// Reports each call in `caller` (outside device code) of a proc containing a
/// `CudaDeviceFunction`, directly or through its calls, that passes
/// overlapping parts of one buffer to two tensor parameters of which the
/// callee writes one. False when it reported.
bool check_kernel_call_aliasing(const ProcNode &caller,
                                const std::function<Proc(const ProcNode *, const std::string &)> &lookup,
                                DiagEngine &diag);

} // namespace exgc::gpu
