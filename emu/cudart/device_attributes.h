// emu/cudart/device_attributes.h - the emulated H200's attribute values ----//
// Owns: the answers of cudaDeviceGetAttribute / cuDeviceGetAttribute (whose
// enums share their values) and cudaGetDeviceProperties, all from
// Device::props() plus fixed facts of an H200 SXM.
#pragma once

#include "emu/exec/device.h"

#include <cuda_runtime_api.h>

namespace emu::cudart {

/// The value of attribute `attr` (a cudaDeviceAttr); false for an attribute
/// the emulator does not answer (the caller returns an error, never a guess).
bool device_attribute(int attr, const DeviceProps &props, int *value);

/// cudaDeviceProp of the emulated device.
cudaDeviceProp device_properties(const DeviceProps &props);

/// The device's name as programs print it.
constexpr const char *kDeviceName = "NVIDIA H200 (exg-emu)";

} // namespace emu::cudart
