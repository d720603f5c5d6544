// emu/cudart/error_names.h - names and messages of cudaError_t and CUresult -//
// Owns: the tables behind cudaGetErrorName/String and cuGetErrorName/String.
// Only codes whose meaning is certain are listed; the values come from
// NVIDIA's headers (the tables name the enumerators, so a renamed or removed
// code fails to compile).
#pragma once

namespace emu::cudart {

/// "cudaErrorInvalidValue" / "invalid argument", or null for an unknown code.
const char *runtime_error_name(int code);
const char *runtime_error_string(int code);

/// "CUDA_ERROR_INVALID_VALUE" / "invalid argument", or null for an unknown code.
const char *driver_error_name(int code);
const char *driver_error_string(int code);

} // namespace emu::cudart
