// cuda_kernel.h - one `with CudaDeviceFunction` as a persistent kernel -----//
// Owns: the translation of a device function: the kernel (its parameters are
// the host values and device pointers its body uses, captured by value), the
// persistent task loop over the `cuda_tasks` nest, the task body (its
// statements are cuda_device_stmts.h's), and the host code that sizes the
// grid and launches it.
// Called by the CUDA host emitter (cuda_backend.cpp) at the `with` statement.
#pragma once
#include <string>

#include "compiler/analysis/memories.h"
#include "compiler/codegen/stmt_emitter.h"
#include "compiler/gpu/facts.h"

namespace exgc::codegen {

extern const char *const kCudaBackend; // "CUDA", the backend's name in diagnostics

struct KernelContext {
  ExprEmitter &host_ex;    // the host function's names (captured by the kernel)
  Writer &host;            // where the launch code goes
  Writer &kernels;         // where the kernel definition goes
  NameScope &host_names;
  AbiEffects &fx;
  const ProcNode &proc;
  std::string kernel_name; // unique in the generated file
  std::string stream;      // the host function's cudaStream_t parameter
  std::string error_return; // statement returning the cudaError_t named exg_err
  const gpu::KernelFacts *facts; // from the GPU semantics stage; null: it could not read the kernel
  bool *uses_sm90;          // set when the kernel needs exg/sm90.h
};

/// Emits the kernel for `w` (a `with CudaDeviceFunction(...)` at host scope)
/// and its launch. Returns false after reporting.
bool emit_device_function(const With *w, KernelContext &ctx);

/// The memory table entry of a binding's memory (DRAM when it has no `@`),
/// or null when the annotation names no known memory.
const analysis::MemoryInfo *memory_of(const CxxBinding &b);

} // namespace exgc::codegen
