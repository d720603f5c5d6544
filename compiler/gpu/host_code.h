// host_code.h - what host code of a GPU proc may do -------------------------//
// Owns: the GPU stage's checks of the statements outside device functions:
// no `cuda_tasks` or `cuda_threads` loop and no `CudaWarps` block (they split
// a device function's threads), and no element of device memory read or
// written on the host; and, in each device function the stage accepted, no
// element of host memory touched (a pointer into the other side's memory is
// not dereferenceable; a host scalar is passed by value and may be read).
// Everything else about host code is the backend's (what it can emit).
#pragma once
#include <functional>

#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

/// Checks the host statements of `proc`; calls `device_function` for each
/// `with CudaDeviceFunction` instead of entering it. False after reporting.
bool check_host_code(const ProcNode &proc, DiagEngine &diag,
                     const std::function<bool(const With *)> &device_function);

} // namespace exgc::gpu
