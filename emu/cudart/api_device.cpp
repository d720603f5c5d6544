// emu/cudart/api_device.cpp - the device, errors, versions, driver entries --//
// Owns: cudaGetDevice/SetDevice/GetDeviceCount/GetDeviceProperties,
// cudaDeviceGetAttribute, cudaDeviceReset, cudaSetDeviceFlags, the last-error
// calls and error names, the version queries, cudaGetDriverEntryPoint*.
// Errors: a failing call becomes the last error, which cudaGetLastError
// returns and clears and cudaPeekAtLastError returns. CUDA's sticky errors
// (a kernel fault that poisons the context) never arise: a fault in an
// emulated kernel is a hazard report that ends the process.
#include "emu/cudart/device_attributes.h"
#include "emu/cudart/driver_api.h"
#include "emu/cudart/error_names.h"
#include "emu/cudart/runtime_state.h"

#include <cstdio>

using namespace emu::cudart;

namespace {

constexpr int kVersion = CUDART_VERSION;

cudaError_t check_device(int device) {
  return device == 0 ? cudaSuccess : RuntimeState::get().fail(cudaErrorInvalidDevice);
}

cudaError_t entry_point(const char *symbol, void **fn, int version,
                        cudaDriverEntryPointQueryResult *status) {
  RuntimeState &rt = RuntimeState::get();
  if (!symbol || !fn)
    return rt.fail(cudaErrorInvalidValue);
  int since = 0;
  void *f = driver_entry_point(symbol, &since);
  cudaDriverEntryPointQueryResult s = cudaDriverEntryPointSuccess;
  if (!f)
    s = cudaDriverEntryPointSymbolNotFound;
  else if (version < since)
    s = cudaDriverEntryPointVersionNotSufficent;
  *fn = s == cudaDriverEntryPointSuccess ? f : nullptr;
  if (status)
    *status = s;
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t cudaGetLastError(void) {
  auto guard = runtime_lock();
  return RuntimeState::get().take_last_error();
}

cudaError_t cudaPeekAtLastError(void) {
  auto guard = runtime_lock();
  return RuntimeState::get().peek_last_error();
}

const char *cudaGetErrorName(cudaError_t error) {
  const char *s = runtime_error_name(error);
  return s ? s : "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error) {
  const char *s = runtime_error_string(error);
  return s ? s : "unrecognized error code";
}

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return RuntimeState::get().fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return RuntimeState::get().fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  auto guard = runtime_lock();
  return check_device(device);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  auto guard = runtime_lock();
  unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax;
  return flags & ~known ? RuntimeState::get().fail(cudaErrorInvalidValue) : cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  auto guard = runtime_lock();
  if (!prop)
    return RuntimeState::get().fail(cudaErrorInvalidValue);
  if (cudaError_t e = check_device(device))
    return e;
  *prop = device_properties(RuntimeState::get().device().props());
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  auto guard = runtime_lock();
  RuntimeState &rt = RuntimeState::get();
  if (!value)
    return rt.fail(cudaErrorInvalidValue);
  if (cudaError_t e = check_device(device))
    return e;
  if (device_attribute(attr, rt.device().props(), value))
    return cudaSuccess;
  std::fprintf(stderr, "exg-emu: cudaDeviceGetAttribute: attribute %d is not emulated\n",
               int(attr));
  return rt.fail(cudaErrorInvalidValue);
}

cudaError_t cudaDeviceReset(void) {
  auto guard = runtime_lock();
  RuntimeState::get().reset();
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version) {
  if (!version)
    return RuntimeState::get().fail(cudaErrorInvalidValue);
  *version = kVersion;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version) {
  if (!version)
    return RuntimeState::get().fail(cudaErrorInvalidValue);
  *version = kVersion;
  return cudaSuccess;
}

// Flags pick legacy or per-thread stream variants; the emulator's driver
// functions have one variant each.
cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags,
                                    cudaDriverEntryPointQueryResult *status) {
  auto guard = runtime_lock();
  return entry_point(symbol, fn, kVersion, status);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn,
                                             unsigned int version, unsigned long long flags,
                                             cudaDriverEntryPointQueryResult *status) {
  auto guard = runtime_lock();
  return entry_point(symbol, fn, int(version), status);
}

} // extern "C"
