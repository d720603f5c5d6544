// launch_config.h - what a CudaDeviceFunction asks of the launch ----------//
// Owns: the one reading of `CudaDeviceFunction(blockDim=, blocks_per_sm=,
// clusterDim=, task_group=, warps=)`, with the range of every value. The GPU
// stage reads it once per device function and keeps it in KernelFacts; the
// CUDA backend prints from it and never parses the keywords itself.
#pragma once
#include <cstdint>

#include "compiler/gpu/collective.h"
#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

struct LaunchConfig {
  // blockDim (given; with warp roles, the GPU stage derives it) and clusterDim.
  DeviceEnv env;
  int64_t blocks_per_sm = 1; // __launch_bounds__'s minimum CTAs per SM
  int64_t task_group = 1;    // rows of the task plane visited together (grouped order)
  const Expr *warps = nullptr; // `warps=[warp_role(...), ...]`, read by warp_roles.h
};

/// Reads the keywords of the device function `w`; reports the first value
/// outside its range (BadDeviceFunctionParam), or a missing blockDim with no
/// roles, and returns false. Keywords the typecheck refuses are ignored.
bool read_launch_config(const With *w, DiagEngine &diag, LaunchConfig &cfg);

} // namespace exgc::gpu
