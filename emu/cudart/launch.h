// emu/cudart/launch.h - one kernel launch, from any of the runtime's doors --//
// Owns: the checks every launch makes before the Device runs it (stream,
// kernel, cluster size against cudaFuncAttributeNonPortableClusterSizeAllowed)
// and recording the result as the last error. <<<>>>, cudaLaunchKernel,
// __cudaLaunchKernel and cudaLaunchKernelExC all end here.
#pragma once

#include "emu/cudart/runtime_state.h"

namespace emu::cudart {

/// Launches `kernel` (null: not a registered kernel) and returns the
/// cudaError_t a real launch would; `cluster` is null when the launch names none.
cudaError_t launch_kernel(KernelEntry *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                          cudaStream_t stream, const dim3 *cluster);

} // namespace emu::cudart
