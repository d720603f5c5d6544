// emu/cudart/api_register.cpp - the entry points nvcc's host stubs call -----//
// Owns: __cudaRegisterFatBinary and the other registration calls that
// crt/host_runtime.h's macros expand to, and the <<<>>> path
// (__cudaPushCallConfiguration, __cudaPopCallConfiguration, __cudaGetKernel,
// __cudaLaunchKernel). Declared here: NVIDIA's headers show them only to nvcc.
#include "emu/cudart/launch.h"

using emu::cudart::RuntimeState;
using emu::cudart::runtime_lock;

extern "C" {

void **__cudaRegisterFatBinary(void *fat_cubin) {
  auto guard = runtime_lock();
  return RuntimeState::get().register_fatbin(fat_cubin);
}

void __cudaRegisterFatBinaryEnd(void **handle) {}

void __cudaUnregisterFatBinary(void **handle) {
  auto guard = runtime_lock();
  RuntimeState::get().unregister_fatbin(handle);
}

void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
                            const char *device_name, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *block_dim, dim3 *grid_dim, int *warp_size) {
  auto guard = runtime_lock();
  RuntimeState::get().register_function(handle, host_fun, device_fun);
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
                       const char *device_name, int ext, size_t size, int constant,
                       int global) {
  auto guard = runtime_lock();
  RuntimeState::get().register_var(handle, host_var, device_address, size);
}

// Used by nvcc's stubs for managed-memory setup; modules load lazily here, so
// there is nothing to do yet. The real runtime returns whether it loaded.
char __cudaInitModule(void **handle) { return 1; }

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, cudaStream_t stream) {
  auto guard = runtime_lock();
  RuntimeState::get().call_configs.push_back({grid, block, smem, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *smem, void *stream) {
  auto guard = runtime_lock();
  auto &configs = RuntimeState::get().call_configs;
  if (configs.empty())
    return RuntimeState::get().fail(cudaErrorMissingConfiguration);
  emu::cudart::CallConfig c = configs.back();
  configs.pop_back();
  *grid = c.grid;
  *block = c.block;
  *smem = c.smem;
  *static_cast<cudaStream_t *>(stream) = c.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun) {
  auto guard = runtime_lock();
  emu::cudart::KernelEntry *k = RuntimeState::get().kernel_of_stub(host_fun);
  if (!kernel || !k)
    return RuntimeState::get().fail(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(k);
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                               size_t smem, cudaStream_t stream) {
  auto guard = runtime_lock();
  return emu::cudart::launch_kernel(RuntimeState::get().kernel_of_handle(kernel), grid, block,
                                    args, smem, stream, nullptr);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                    size_t smem, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, smem, stream);
}

} // extern "C"
