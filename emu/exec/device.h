// emu/exec/device.h - the emulated H200 as the runtime libraries see it ------//
// Owns: the one interface between the stand-in libcudart/libcuda
// (emu/cudart/) and the engine: modules, kernels, device memory, launches.
// Global memory is this process's memory: device pointers are host pointers
// the Device allocated and tracks, so cudaMemcpy is memcpy and every access a
// kernel makes is checked against the live allocations.
#pragma once

#include "emu/ptx/ast.h"
#include "emu/support/report.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace emu {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

/// One kernel launch, as cudaLaunchKernel / cudaLaunchKernelEx give it.
struct LaunchConfig {
  Dim3 grid, block;
  Dim3 cluster;               ///< 1x1x1 unless a cluster dimension attribute (or the
                              ///< kernel's .reqnctapercluster) says otherwise
  bool cluster_given = false; ///< the launch named a cluster dimension
  size_t dynamic_smem = 0;
};

/// What a launch returned; values are cudaError_t's (0: cudaSuccess).
using LaunchError = int;

/// The H200's properties that device-attribute queries report.
struct DeviceProps {
  int sm_count = 132;
  int max_threads_per_block = 1024;
  size_t max_smem_per_block_optin = 232448; ///< 227 KiB
  size_t smem_per_block = 49152;
  size_t smem_per_sm = 233472;
  int regs_per_block = 65536;
  int warp_size = 32;
  int max_cluster_size = 8;     ///< portable; 16 with the non-portable attribute
  size_t global_mem = size_t(141) << 30;
  int cc_major = 9, cc_minor = 0;
  int clock_khz = 1980000;
  int l2_bytes = 50 << 20;
};

class Device {
public:
  /// The process's one device (created on first use, with Options::from_environment()).
  static Device &get();

  virtual ~Device() = default;

  /// Parses a PTX module (from a fatbinary) and keeps it; its entries become
  /// launchable by name and its module-scope variables get host storage.
  /// A parse error is reported (Hazard::BadProgram) at its PTX line.
  virtual void add_module(const std::string &ptx_text, const std::string &origin) = 0;

  /// The kernel named `name` in any module, or null.
  virtual const ptx::Function *find_kernel(const std::string &name) const = 0;

  /// The host storage of a module-scope variable (for __cudaRegisterVar and
  /// cudaMemcpyToSymbol), or null; `bytes` gets its size.
  virtual void *variable(const std::string &name, size_t *bytes) = 0;

  /// Device memory. alloc returns null when out of memory; free of an
  /// unknown pointer returns false (cudaErrorInvalidValue).
  virtual void *alloc(size_t bytes) = 0;
  virtual bool free(void *p) = 0;
  /// True when [p, p + bytes) lies inside one live allocation or variable.
  virtual bool is_device_range(const void *p, size_t bytes) const = 0;

  /// Runs the kernel to completion (launches are synchronous and in order).
  /// `args[i]` points at the value of parameter i, sized as the PTX declares.
  /// Returns a cudaError_t value for a bad configuration (grid, block, cluster,
  /// shared memory); a hazard inside the kernel reports and exits instead.
  virtual LaunchError launch(const std::string &kernel, const LaunchConfig &config,
                             void **args) = 0;

  /// cudaFuncSetAttribute(MaxDynamicSharedMemorySize): the launch checks
  /// dynamic_smem against it (default 48 KiB, as on the GPU).
  virtual void set_max_dynamic_smem(const std::string &kernel, size_t bytes) = 0;

  /// cudaOccupancyMaxActiveBlocksPerMultiprocessor: how many CTAs of `threads`
  /// threads with `dynamic_smem` bytes fit on one SM at once (0: none), or -1
  /// for an unknown kernel. Registers are ptxas's and not in the PTX: the
  /// launch's model (.maxnreg, else the launch bounds' budget) stands in.
  virtual int max_active_blocks(const std::string &kernel, uint32_t threads, size_t dynamic_smem) = 0;

  virtual const DeviceProps &props() const = 0;
  virtual const Options &options() const = 0;
};

} // namespace emu
