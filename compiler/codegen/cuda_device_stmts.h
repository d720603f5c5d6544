// cuda_device_stmts.h - the statements of a kernel body ---------------------//
// Owns: what a statement means inside a `with CudaDeviceFunction`:
// `cuda_threads` loops as the guarded thread-index arithmetic the GPU stage
// derived (compiler/gpu/facts.h), `CudaRmem` allocations (per-thread arrays,
// without the leading dimensions the GPU stage found distributed),
// `CudaSmemLinear` allocations (static `__shared__` arrays of the CTA),
// `Sm90_SmemSwizzled` ones (in the kernel's dynamic shared memory, 1024-byte
// aligned), `Sm90_RmemMatrixD` accumulators (one `AccumF32<N>` fragment per
// warpgroup thread) and `Sm90_RmemMatrixA` operands (one `FragA16`), `Fence(cuda_in_order, cuda_in_order)` as the barrier of
// the scope the GPU stage found, barriers and other sync statements
// (cuda_sync.h), instruction calls (cuda_instr.h) and `CudaWarps` blocks as
// warp-range tests within the warp role being emitted. Used by cuda_kernel.cpp.
#pragma once
#include <map>
#include <string>

#include "compiler/analysis/memories.h"
#include "compiler/codegen/cuda_sync.h"
#include "compiler/codegen/stmt_emitter.h"
#include "compiler/gpu/facts.h"

namespace exgc::codegen {

class DeviceStmtEmitter : public StmtEmitter {
public:
  /// Emits a kernel's task body from the GPU stage's facts about it.
  /// `role` is the index of the warp role whose copy of the task body this
  /// is (-1 without roles); `smem` names the dynamic shared memory.
  DeviceStmtEmitter(ExprEmitter &ex, Writer &w, NameScope &names, AbiEffects &fx,
                    const ProcNode &proc, const gpu::KernelFacts &facts, std::string tid,
                    SyncEmitter &sync, std::string smem_name, int role)
      : StmtEmitter(ex, w, names, fx, proc), facts_(facts), tid_(std::move(tid)), sync_(sync),
        smem_name_(std::move(smem_name)), role_(role) {
    warps_hi_ = facts.config.env.block_dim / 32;
    if (role >= 0) {
      warps_lo_ = facts.roles[static_cast<size_t>(role)].lo;
      warps_hi_ = facts.roles[static_cast<size_t>(role)].hi;
    }
  }

protected:
  void emit_alloc(const Alloc *a) override;
  void emit_window(const WindowStmt *w) override;
  void emit_for(const For *f) override;
  void emit_call(const CallStmt *c) override;
  void emit_with(const With *w) override;
  void emit_sync(const Stmt &s) override;
  std::string status_check(const std::string &call) override { return call + ";"; }

private:
  void threads_loop(const For *f);
  /// The cluster rank of this CTA, as C.
  std::string rank() const;
  /// `lo <= guarded < hi` as C, leaving out the bounds every thread meets
  /// ("" when none is left).
  std::string guard_condition(const gpu::CollIndex &guarded, std::optional<int64_t> lo,
                              std::optional<int64_t> hi) const;
  /// `__shared__ T name[n];` for a CudaSmemLinear allocation, or its place
  /// in the dynamic pool.
  void shared_alloc(const Alloc *a, CxxBinding &b);
  /// The C array length of an array one owner stores, and the offset of a
  /// dynamic shared-memory one (gpu/shared_layout.h).
  int64_t elements(const Alloc *a) const;
  int64_t offset(const Alloc *a) const;
  /// Sm90_SmemSwizzled, Sm90_RmemMatrixD and Sm90_RmemMatrixA allocations.
  void hopper_alloc(const Alloc *a, CxxBinding &b, analysis::MemId mem);

  const gpu::KernelFacts &facts_;
  std::string tid_; // the C name of threadIdx.x
  SyncEmitter &sync_;
  std::string smem_name_;
  int role_;
  // The CTA's warps that may run the statement being emitted: the role's, or
  // a task-scope CudaWarps block's. A warpgroup barrier picks its named
  // barrier among these warps' warpgroups with constant ids.
  int64_t warps_lo_ = 0, warps_hi_ = 0;
};

} // namespace exgc::codegen
