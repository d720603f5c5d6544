// cuda_backend.h - the CUDA backend (default output: k.cu and k.h) -------//
// Owns: emit_cuda, which writes a header of extern "C" (or namespaced) host
// functions (one per requested proc; the ABI of abi.h with a leading cudaStream_t) and a .cu
// defining them, their callees (internal linkage) and their kernels. A host
// function enqueues its work on the stream and returns cudaSuccess,
// cudaErrorInvalidValue when a precondition fails (nothing is launched), or
// the first CUDA error of a grid query or launch. docs/abi.md has the
// details. What runs inside kernels is listed in cuda_kernel.h; the rest is
// reported as CodegenNotSupported at the statement.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "compiler/codegen/c_names.h"
#include "compiler/frontend/program.h"
#include "compiler/gpu/gpu_stage.h"
#include "compiler/support/diagnostics.h"

namespace exgc {

/// Writes k.cu to `cu` (it includes `header_name` and exg/runtime.h) and k.h
/// to `h`, the host functions named and declared as `entries` says. Kernels
/// are emitted from the GPU stage's results: `stage`'s (the compilation's,
/// shared with the sync checks) or, when null, the backend's own.
/// Returns false after reporting; the streams are then unspecified.
bool emit_cuda(const Program &program, const std::vector<Proc> &procs,
               const std::string &header_name, std::ostream &cu, std::ostream &h,
               DiagEngine &diag, const codegen::EntryNaming &entries = {},
               gpu::GpuStage *stage = nullptr);

} // namespace exgc
