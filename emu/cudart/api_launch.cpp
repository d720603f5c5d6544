// emu/cudart/api_launch.cpp - launches and kernel attributes ----------------//
// Owns: cudaLaunchKernel, cudaLaunchKernelExC (cudaLaunchKernelEx is an inline
// template over it in cuda_runtime.h), cudaFuncSetAttribute,
// cudaFuncGetAttributes, cudaFuncSetCacheConfig, the occupancy query
// cudaOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags), and launch_kernel
// (launch.h).
// Launches run to completion in the calling thread, in program order, so every
// stream is the default stream as far as results go.
#include "emu/cudart/launch.h"

#include <algorithm>
#include <cstdio>

namespace emu::cudart {

namespace {

Dim3 to_dim3(dim3 d) { return Dim3{d.x, d.y, d.z}; }

// Portable clusters hold 8 CTAs; 16 with NonPortableClusterSizeAllowed (sm_90).
constexpr uint64_t kPortableCluster = 8, kNonPortableCluster = 16;

} // namespace

cudaError_t launch_kernel(KernelEntry *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                          cudaStream_t stream, const dim3 *cluster) {
  RuntimeState &rt = RuntimeState::get();
  if (!kernel)
    return rt.fail(cudaErrorInvalidDeviceFunction);
  if (!rt.valid_stream(stream))
    return rt.fail(cudaErrorInvalidResourceHandle);
  Device &device = rt.device();
  if (!device.find_kernel(kernel->name))
    return rt.fail(cudaErrorInvalidDeviceFunction);
  LaunchConfig config;
  config.grid = to_dim3(grid);
  config.block = to_dim3(block);
  config.dynamic_smem = smem;
  if (cluster) {
    uint64_t ctas = uint64_t(cluster->x) * cluster->y * cluster->z;
    uint64_t limit = kernel->non_portable_cluster ? kNonPortableCluster : kPortableCluster;
    if (ctas > limit)
      return rt.fail(cudaErrorInvalidClusterSize);
    config.cluster = to_dim3(*cluster);
    config.cluster_given = true;
  }
  return rt.fail(static_cast<cudaError_t>(device.launch(kernel->name, config, args)));
}

} // namespace emu::cudart

using namespace emu::cudart;
using emu::Device;
namespace ptx = emu::ptx;

extern "C" {

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                             cudaStream_t stream) {
  auto guard = runtime_lock();
  return launch_kernel(RuntimeState::get().kernel_of_stub(func), grid, block, args, smem, stream,
                       nullptr);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!config || (config->numAttrs && !config->attrs))
    return rt.fail(cudaErrorInvalidValue);
  const dim3 *cluster = nullptr;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute &a = config->attrs[i];
    switch (a.id) {
    case cudaLaunchAttributeClusterDimension:
      cluster = reinterpret_cast<const dim3 *>(&a.val.clusterDim);
      break;
    // Hints whose every outcome the emulator's in-order run already is one of.
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributeProgrammaticStreamSerialization:
    case cudaLaunchAttributePriority:
      break;
    default:
      std::fprintf(stderr, "exg-emu: cudaLaunchKernelExC: launch attribute %d is not emulated\n",
                   int(a.id));
      return rt.fail(cudaErrorNotSupported);
    }
  }
  return launch_kernel(rt.kernel_of_stub(func), config->gridDim, config->blockDim, args,
                       config->dynamicSmemBytes, config->stream, cluster);
}

cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  KernelEntry *k = rt.kernel_of_stub(func);
  if (!k)
    return rt.fail(cudaErrorInvalidDeviceFunction);
  Device &device = rt.device();
  switch (attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize:
    if (value < 0 || size_t(value) > device.props().max_smem_per_block_optin)
      return rt.fail(cudaErrorInvalidValue);
    k->max_dynamic_smem = size_t(value);
    device.set_max_dynamic_smem(k->name, k->max_dynamic_smem);
    return cudaSuccess;
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (value < -1 || value > 100)
      return rt.fail(cudaErrorInvalidValue);
    k->preferred_carveout = value;
    return cudaSuccess;
  case cudaFuncAttributeNonPortableClusterSizeAllowed:
    if (value != 0 && value != 1)
      return rt.fail(cudaErrorInvalidValue);
    k->non_portable_cluster = value == 1;
    return cudaSuccess;
  case cudaFuncAttributeClusterSchedulingPolicyPreference:
    k->cluster_scheduling_policy = value;
    return cudaSuccess;
  default:
    // The rest (required cluster sizes, ...) are read-only or not on sm_90.
    return rt.fail(cudaErrorInvalidValue);
  }
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  KernelEntry *k = rt.kernel_of_stub(func);
  if (!attr)
    return rt.fail(cudaErrorInvalidValue);
  if (!k)
    return rt.fail(cudaErrorInvalidDeviceFunction);
  const ptx::Function *f = rt.device().find_kernel(k->name);
  if (!f)
    return rt.fail(cudaErrorInvalidDeviceFunction);
  *attr = cudaFuncAttributes{};
  // Sizes that come from ptxas (registers, local and static shared memory)
  // are not known from PTX alone and stay 0 (docs/emulator.md).
  int threads = 1024;
  if (f->maxntid[0])
    threads = int(f->maxntid[0] * std::max(1u, f->maxntid[1]) * std::max(1u, f->maxntid[2]));
  if (f->reqntid[0])
    threads = int(f->reqntid[0] * std::max(1u, f->reqntid[1]) * std::max(1u, f->reqntid[2]));
  attr->maxThreadsPerBlock = threads;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->maxDynamicSharedSizeBytes = int(k->max_dynamic_smem);
  attr->preferredShmemCarveout = k->preferred_carveout;
  attr->clusterDimMustBeSet = f->explicitcluster;
  attr->requiredClusterWidth = int(f->reqnctapercluster[0]);
  attr->requiredClusterHeight = int(f->reqnctapercluster[1]);
  attr->requiredClusterDepth = int(f->reqnctapercluster[2]);
  attr->clusterSchedulingPolicyPreference = k->cluster_scheduling_policy;
  attr->nonPortableClusterSizeAllowed = k->non_portable_cluster;
  return cudaSuccess;
}

// The CTAs per SM of the device's occupancy model (Device::max_active_blocks).
// Flags: cudaOccupancyDefault, or cudaOccupancyDisableCachingOverride (about
// the L1 split, which the emulator does not model).
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num_blocks, const void *func,
                                                                   int block_size,
                                                                   size_t dynamic_smem,
                                                                   unsigned int flags) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!num_blocks || block_size <= 0 || (flags & ~1u))
    return rt.fail(cudaErrorInvalidValue);
  KernelEntry *k = rt.kernel_of_stub(func);
  if (!k)
    return rt.fail(cudaErrorInvalidDeviceFunction);
  int n = rt.device().max_active_blocks(k->name, uint32_t(block_size), dynamic_smem);
  if (n < 0)
    return rt.fail(cudaErrorInvalidDeviceFunction);
  *num_blocks = n;
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num_blocks, const void *func,
                                                          int block_size, size_t dynamic_smem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num_blocks, func, block_size,
                                                                dynamic_smem, 0);
}

// A preference the hardware may ignore; the emulator has no L1 to split.
cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!rt.kernel_of_stub(func))
    return rt.fail(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}

} // extern "C"
