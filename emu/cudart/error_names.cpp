// emu/cudart/error_names.cpp - names and messages of cudaError_t and CUresult //
#include "emu/cudart/error_names.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

namespace emu::cudart {
namespace {

struct Named {
  int code;
  const char *name, *text;
};

#define EMU_ERR(e, text) {e, #e, text}
const Named kRuntime[] = {
    EMU_ERR(cudaSuccess, "no error"),
    EMU_ERR(cudaErrorInvalidValue, "invalid argument"),
    EMU_ERR(cudaErrorMemoryAllocation, "out of memory"),
    EMU_ERR(cudaErrorInitializationError, "initialization error"),
    EMU_ERR(cudaErrorCudartUnloading, "driver shutting down"),
    EMU_ERR(cudaErrorInvalidConfiguration, "invalid configuration argument"),
    EMU_ERR(cudaErrorInvalidPitchValue, "invalid pitch argument"),
    EMU_ERR(cudaErrorInvalidSymbol, "invalid device symbol"),
    EMU_ERR(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
    EMU_ERR(cudaErrorMissingConfiguration, "__global__ function call is not configured"),
    EMU_ERR(cudaErrorNoDevice, "no CUDA-capable device is detected"),
    EMU_ERR(cudaErrorInvalidDeviceFunction, "invalid device function"),
    EMU_ERR(cudaErrorInvalidDevice, "invalid device ordinal"),
    EMU_ERR(cudaErrorInvalidKernelImage, "device kernel image is invalid"),
    EMU_ERR(cudaErrorNoKernelImageForDevice,
            "no kernel image is available for execution on the device"),
    EMU_ERR(cudaErrorInvalidResourceHandle, "invalid resource handle"),
    EMU_ERR(cudaErrorSymbolNotFound, "named symbol not found"),
    EMU_ERR(cudaErrorNotReady, "device not ready"),
    EMU_ERR(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
    EMU_ERR(cudaErrorLaunchOutOfResources, "too many resources requested for launch"),
    EMU_ERR(cudaErrorMisalignedAddress, "misaligned address"),
    EMU_ERR(cudaErrorLaunchFailure, "unspecified launch failure"),
    EMU_ERR(cudaErrorCooperativeLaunchTooLarge,
            "too many blocks in cooperative launch"),
    EMU_ERR(cudaErrorNotSupported, "operation not supported"),
    EMU_ERR(cudaErrorInvalidClusterSize, "invalid cluster size"),
    EMU_ERR(cudaErrorUnknown, "unknown error"),
};
const Named kDriver[] = {
    EMU_ERR(CUDA_SUCCESS, "no error"),
    EMU_ERR(CUDA_ERROR_INVALID_VALUE, "invalid argument"),
    EMU_ERR(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
    EMU_ERR(CUDA_ERROR_NOT_INITIALIZED, "initialization error"),
    EMU_ERR(CUDA_ERROR_DEINITIALIZED, "driver shutting down"),
    EMU_ERR(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"),
    EMU_ERR(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"),
    EMU_ERR(CUDA_ERROR_INVALID_CONTEXT, "invalid device context"),
    EMU_ERR(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"),
    EMU_ERR(CUDA_ERROR_NOT_FOUND, "named symbol not found"),
    EMU_ERR(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"),
    EMU_ERR(CUDA_ERROR_NOT_SUPPORTED, "operation not supported"),
    EMU_ERR(CUDA_ERROR_UNKNOWN, "unknown error"),
};
#undef EMU_ERR

template <size_t N> const Named *find(const Named (&table)[N], int code) {
  for (const Named &n : table)
    if (n.code == code)
      return &n;
  return nullptr;
}

} // namespace

const char *runtime_error_name(int code) {
  const Named *n = find(kRuntime, code);
  return n ? n->name : nullptr;
}
const char *runtime_error_string(int code) {
  const Named *n = find(kRuntime, code);
  return n ? n->text : nullptr;
}
const char *driver_error_name(int code) {
  const Named *n = find(kDriver, code);
  return n ? n->name : nullptr;
}
const char *driver_error_string(int code) {
  const Named *n = find(kDriver, code);
  return n ? n->text : nullptr;
}

} // namespace emu::cudart
