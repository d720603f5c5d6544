// emu/cudart/runtime_state.h - what the stand-in libcudart remembers --------//
// Owns: the process-wide state behind the runtime API: registered fatbinaries,
// kernels (host stub -> PTX entry name) and variables (host shadow -> PTX
// variable), per-kernel attributes, the <<<>>> configuration stack, the last
// error, allocations, streams and events. Modules reach the Device lazily, on
// the first call that needs one (as CUDA's lazy loading does), so a program
// that never touches the GPU never builds the engine.
// Every runtime entry point holds `lock()` while it runs.
#pragma once

#include "emu/exec/device.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
};

struct CUevent_st {
  unsigned flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
};

namespace emu::cudart {

/// A kernel as the host program names it (its stub), with its attributes.
struct KernelEntry {
  std::string name;                   ///< the PTX entry (mangled) name
  size_t max_dynamic_smem = 48 << 10; ///< cudaFuncAttributeMaxDynamicSharedMemorySize
  int preferred_carveout = -1;
  bool non_portable_cluster = false;
  int cluster_scheduling_policy = 0;
};

/// A `__device__` / `__constant__` variable as the host program names it.
struct VarEntry {
  std::string name;
  size_t bytes = 0;
};

/// One <<<grid, block, smem, stream>>> pushed by a host stub.
struct CallConfig {
  dim3 grid, block;
  size_t smem = 0;
  cudaStream_t stream = nullptr;
};

class RuntimeState {
public:
  static RuntimeState &get();
  std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock(mutex_); }

  // Registration (nvcc's host stubs, at static initialization).
  void **register_fatbin(const void *wrapper);
  void register_function(void **module, const void *host_fun, const char *name);
  void register_var(void **module, const void *host_var, const char *name, size_t bytes);
  void unregister_fatbin(void **module);

  /// The Device, with every registered module added to it.
  Device &device();

  /// The kernel of a host stub (or of a __cudaGetKernel handle), or null.
  KernelEntry *kernel_of_stub(const void *host_fun);
  KernelEntry *kernel_of_handle(const void *handle);

  /// The device storage of a host shadow variable, or null; `bytes` gets its size.
  void *symbol(const void *host_var, size_t *bytes);

  /// Remembers a failure as the last error; returns `e` (cudaSuccess is not recorded).
  cudaError_t fail(cudaError_t e);
  cudaError_t take_last_error();
  cudaError_t peek_last_error() const { return last_error_; }

  std::vector<CallConfig> call_configs;

  // Memory the runtime handed out, and how (cudaFree vs cudaFreeHost).
  enum class AllocKind { Device, Host, Managed };
  std::map<void *, AllocKind> allocations;

  std::set<CUstream_st *> streams;
  std::set<CUevent_st *> events;
  bool valid_stream(cudaStream_t s) const;
  bool valid_event(cudaEvent_t e) const { return events.count(e) != 0; }

  /// cudaDeviceReset: frees every allocation, stream and event and forgets
  /// attributes and errors; registered modules stay (they reload lazily).
  void reset();

private:
  struct Module {
    std::string ptx, origin;
    bool added = false;
  };
  std::recursive_mutex mutex_;
  std::map<void **, std::unique_ptr<Module>> modules_;
  std::map<const void *, std::unique_ptr<KernelEntry>> kernels_; ///< by host stub
  std::map<const void *, VarEntry> vars_;                        ///< by host shadow
  cudaError_t last_error_ = cudaSuccess;
};

/// One lock for one runtime call: `auto guard = runtime_lock();`.
inline std::unique_lock<std::recursive_mutex> runtime_lock() {
  return RuntimeState::get().lock();
}

} // namespace emu::cudart
