// emu/cudart/driver_api.cpp - the CUDA driver calls of libcuda.so.1 ---------//
// Owns: the driver API that runtime programs reach directly (-lcuda) or
// through cudaGetDriverEntryPoint*: cuTensorMapEncodeTiled (the emulator's
// encoder, emu/sm90/tensor_map.h, with every validation rule of the driver),
// error names, initialization, device queries and the primary context.
// There is one device and one context, current from the start: a runtime
// program has always initialized the driver before it could call these.
#include "emu/cudart/driver_api.h"

#include "emu/cudart/device_attributes.h"
#include "emu/cudart/error_names.h"
#include "emu/sm90/tensor_map.h"

#include <cuda.h>

#include <cstdio>
#include <cstring>

struct CUctx_st {};

namespace {

CUctx_st primary_context;

bool valid_device(CUdevice dev) { return dev == 0; }

} // namespace

extern "C" {

CUresult cuGetErrorString(CUresult error, const char **str) {
  if (!str)
    return CUDA_ERROR_INVALID_VALUE;
  *str = emu::cudart::driver_error_string(error);
  return *str ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **str) {
  if (!str)
    return CUDA_ERROR_INVALID_VALUE;
  *str = emu::cudart::driver_error_name(error);
  return *str ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuInit(unsigned int flags) { return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE; }

CUresult cuDriverGetVersion(int *version) {
  if (!version)
    return CUDA_ERROR_INVALID_VALUE;
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (!device)
    return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(ordinal))
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  if (!count)
    return CUDA_ERROR_INVALID_VALUE;
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  if (!name || len <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev))
    return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(name, size_t(len), "%s", emu::cudart::kDeviceName);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice dev) {
  if (!value)
    return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev))
    return CUDA_ERROR_INVALID_DEVICE;
  if (emu::cudart::device_attribute(attr, emu::Device::get().props(), value))
    return CUDA_SUCCESS;
  std::fprintf(stderr, "exg-emu: cuDeviceGetAttribute: attribute %d is not emulated\n",
               int(attr));
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuCtxGetCurrent(CUcontext *ctx) {
  if (!ctx)
    return CUDA_ERROR_INVALID_VALUE;
  *ctx = &primary_context;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  return ctx == nullptr || ctx == &primary_context ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev) {
  if (!ctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev))
    return CUDA_ERROR_INVALID_DEVICE;
  *ctx = &primary_context;
  return CUDA_SUCCESS;
}

// Work finishes inside the call that starts it (emu/cudart/api_stream.cpp).
CUresult cuCtxSynchronize(void) { return CUDA_SUCCESS; }

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
                                void *global_address, const cuuint64_t *global_dim,
                                const cuuint64_t *global_strides, const cuuint32_t *box_dim,
                                const cuuint32_t *element_strides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2_promotion,
                                CUtensorMapFloatOOBfill oob_fill) {
  emu::sm90::EncodeResult r = emu::sm90::encode_tensor_map_tiled(
      map, uint32_t(type), rank, reinterpret_cast<uint64_t>(global_address), global_dim,
      global_strides, box_dim, element_strides, uint32_t(interleave), uint32_t(swizzle),
      uint32_t(l2_promotion), uint32_t(oob_fill));
  // The driver says nothing; a note of the rule saves the user a search.
  if (r.status != emu::sm90::kCudaSuccess)
    std::fprintf(stderr, "exg-emu: cuTensorMapEncodeTiled: %s\n", r.message.c_str());
  return CUresult(r.status);
}

} // extern "C"

namespace emu::cudart {

void *driver_entry_point(const char *symbol, int *since) {
  struct Entry {
    const char *name;
    void *fn;
    int since;
  };
  static const Entry table[] = {
      {"cuGetErrorString", reinterpret_cast<void *>(&cuGetErrorString), 6000},
      {"cuGetErrorName", reinterpret_cast<void *>(&cuGetErrorName), 6000},
      {"cuInit", reinterpret_cast<void *>(&cuInit), 2000},
      {"cuDriverGetVersion", reinterpret_cast<void *>(&cuDriverGetVersion), 2020},
      {"cuDeviceGet", reinterpret_cast<void *>(&cuDeviceGet), 2000},
      {"cuDeviceGetCount", reinterpret_cast<void *>(&cuDeviceGetCount), 2000},
      {"cuDeviceGetName", reinterpret_cast<void *>(&cuDeviceGetName), 2000},
      {"cuDeviceGetAttribute", reinterpret_cast<void *>(&cuDeviceGetAttribute), 2000},
      {"cuCtxGetCurrent", reinterpret_cast<void *>(&cuCtxGetCurrent), 4000},
      {"cuCtxSetCurrent", reinterpret_cast<void *>(&cuCtxSetCurrent), 4000},
      {"cuCtxSynchronize", reinterpret_cast<void *>(&cuCtxSynchronize), 2000},
      {"cuDevicePrimaryCtxRetain", reinterpret_cast<void *>(&cuDevicePrimaryCtxRetain), 7000},
      {"cuTensorMapEncodeTiled", reinterpret_cast<void *>(&cuTensorMapEncodeTiled), 12000},
  };
  for (const Entry &e : table)
    if (std::strcmp(e.name, symbol) == 0) {
      *since = e.since;
      return e.fn;
    }
  return nullptr;
}

} // namespace emu::cudart
