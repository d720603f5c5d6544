// emu/cudart/device_attributes.cpp - the emulated H200's attribute values --//
#include "emu/cudart/device_attributes.h"

#include <cstring>

namespace emu::cudart {
namespace {

// Fixed facts of Hopper (sm_90) that DeviceProps does not carry.
constexpr int kMaxBlockDim[3] = {1024, 1024, 64};
constexpr int kMaxGridDim[3] = {2147483647, 65535, 65535};
constexpr int kConstBytes = 64 << 10;
constexpr int kThreadsPerSm = 2048;
constexpr int kBlocksPerSm = 32;
constexpr int kReservedSmemPerBlock = 1024;
constexpr int kMemoryBusBits = 5120;
constexpr int kMemoryClockKhz = 3201000;

} // namespace

bool device_attribute(int attr, const DeviceProps &p, int *value) {
  int v = 0;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: v = p.max_threads_per_block; break;
  case cudaDevAttrMaxBlockDimX: v = kMaxBlockDim[0]; break;
  case cudaDevAttrMaxBlockDimY: v = kMaxBlockDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: v = kMaxBlockDim[2]; break;
  case cudaDevAttrMaxGridDimX: v = kMaxGridDim[0]; break;
  case cudaDevAttrMaxGridDimY: v = kMaxGridDim[1]; break;
  case cudaDevAttrMaxGridDimZ: v = kMaxGridDim[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: v = int(p.smem_per_block); break;
  case cudaDevAttrTotalConstantMemory: v = kConstBytes; break;
  case cudaDevAttrWarpSize: v = p.warp_size; break;
  case cudaDevAttrMaxRegistersPerBlock: v = p.regs_per_block; break;
  case cudaDevAttrClockRate: v = p.clock_khz; break;
  case cudaDevAttrMultiProcessorCount: v = p.sm_count; break;
  case cudaDevAttrIntegrated: v = 0; break;
  case cudaDevAttrCanMapHostMemory: v = 1; break;
  case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
  case cudaDevAttrConcurrentKernels: v = 1; break;
  case cudaDevAttrEccEnabled: v = 1; break;
  case cudaDevAttrMemoryClockRate: v = kMemoryClockKhz; break;
  case cudaDevAttrGlobalMemoryBusWidth: v = kMemoryBusBits; break;
  case cudaDevAttrL2CacheSize: v = p.l2_bytes; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: v = kThreadsPerSm; break;
  case cudaDevAttrAsyncEngineCount: v = 3; break;
  case cudaDevAttrUnifiedAddressing: v = 1; break;
  case cudaDevAttrComputeCapabilityMajor: v = p.cc_major; break;
  case cudaDevAttrComputeCapabilityMinor: v = p.cc_minor; break;
  case cudaDevAttrStreamPrioritiesSupported: v = 1; break;
  case cudaDevAttrGlobalL1CacheSupported: v = 1; break;
  case cudaDevAttrLocalL1CacheSupported: v = 1; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = int(p.smem_per_sm); break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regs_per_block; break;
  case cudaDevAttrManagedMemory: v = 1; break;
  case cudaDevAttrCooperativeLaunch: v = 1; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = int(p.max_smem_per_block_optin); break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: v = kBlocksPerSm; break;
  case cudaDevAttrReservedSharedMemoryPerBlock: v = kReservedSmemPerBlock; break;
  case cudaDevAttrClusterLaunch: v = 1; break;
  default:
    return false;
  }
  *value = v;
  return true;
}

cudaDeviceProp device_properties(const DeviceProps &p) {
  cudaDeviceProp d;
  std::memset(&d, 0, sizeof d);
  std::strncpy(d.name, kDeviceName, sizeof d.name - 1);
  d.totalGlobalMem = p.global_mem;
  d.sharedMemPerBlock = p.smem_per_block;
  d.regsPerBlock = p.regs_per_block;
  d.warpSize = p.warp_size;
  d.memPitch = 2147483647;
  d.maxThreadsPerBlock = p.max_threads_per_block;
  for (int i = 0; i < 3; ++i) {
    d.maxThreadsDim[i] = kMaxBlockDim[i];
    d.maxGridSize[i] = kMaxGridDim[i];
  }
  d.totalConstMem = kConstBytes;
  d.major = p.cc_major;
  d.minor = p.cc_minor;
  d.multiProcessorCount = p.sm_count;
  d.canMapHostMemory = 1;
  d.concurrentKernels = 1;
  d.ECCEnabled = 1;
  d.asyncEngineCount = 3;
  d.unifiedAddressing = 1;
  d.memoryBusWidth = kMemoryBusBits;
  d.l2CacheSize = p.l2_bytes;
  d.maxThreadsPerMultiProcessor = kThreadsPerSm;
  d.streamPrioritiesSupported = 1;
  d.globalL1CacheSupported = 1;
  d.localL1CacheSupported = 1;
  d.sharedMemPerMultiprocessor = p.smem_per_sm;
  d.regsPerMultiprocessor = p.regs_per_block;
  d.managedMemory = 1;
  d.cooperativeLaunch = 1;
  d.sharedMemPerBlockOptin = p.max_smem_per_block_optin;
  d.maxBlocksPerMultiProcessor = kBlocksPerSm;
  d.reservedSharedMemPerBlock = kReservedSmemPerBlock;
  d.clusterLaunch = 1;
  d.hostNumaId = -1;
  return d;
}

} // namespace emu::cudart
