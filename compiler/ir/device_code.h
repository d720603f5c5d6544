// device_code.h - which code of a body runs on the GPU ----------------------//
// Owns: the questions of where device code is that stages ask of a whole
// body: whether it launches a kernel (`with CudaDeviceFunction`, at any
// depth) and which procs it calls inside one (device helpers, compiled at
// their calls). One walk answers both, so the driver, the schedules and the
// GPU stage agree on them.
#pragma once
#include <set>
#include <string>

#include "compiler/ir/nodes.h"

namespace exgc {

struct DeviceCode {
  bool has_device_function = false; // a `with CudaDeviceFunction` somewhere
  std::set<std::string> device_callees; // names called inside one
  std::set<std::string> callees;        // every name called
};

/// What `body` has of device code.
DeviceCode device_code(const Block &body);
/// Whether `body` launches a kernel itself.
inline bool has_device_function(const Block &body) {
  return device_code(body).has_device_function;
}

} // namespace exgc
