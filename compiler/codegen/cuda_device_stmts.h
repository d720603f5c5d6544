// cuda_device_stmts.h - the statements of a kernel body ---------------------//
// Owns: what a statement means inside a `with CudaDeviceFunction`:
// `cuda_threads` loops as guarded thread-index arithmetic over contiguous
// thread ranges (the current collective), stores executed by one thread,
// `CudaRmem` allocations (per-thread arrays, without the leading dimensions
// the threads own, see distributed_dims), `CudaSmemLinear` allocations
// (static `__shared__` arrays of the CTA) and `Fence(cuda_in_order,
// cuda_in_order)` as the barrier of its collective. Used by cuda_kernel.cpp.
#pragma once
#include <map>
#include <string>

#include "compiler/codegen/stmt_emitter.h"

namespace exgc::codegen {

/// Threads in a collective unit: `cuda_thread`, `cuda_warp`, `cuda_warpgroup`,
/// and `k * U` of them; false for any other unit.
bool unit_threads(const Expr &u, int64_t &out);

/// For each `CudaRmem` allocation of `body` (a kernel's task body, run by a
/// CTA of `block_dim` threads), how many of its leading dimensions are owned
/// by threads: dimension d is when every access indexes it with the iterator
/// of the d-th `cuda_threads` loop entered after the allocation, and those
/// loops have the same bounds and unit at every access (so each thread
/// always owns the same index). A thread then keeps only its own part.
/// Keyed by the allocation's Sym id; absent or 0: none.
std::map<uint32_t, size_t> distributed_dims(const Block &body);

class DeviceStmtEmitter : public StmtEmitter {
public:
  /// `cta` threads run the body; `tid` is the C name of a thread's index.
  DeviceStmtEmitter(ExprEmitter &ex, Writer &w, NameScope &names, Effects &fx,
                    const ProcNode &proc, int64_t cta, std::string tid,
                    std::map<uint32_t, size_t> distributed)
      : StmtEmitter(ex, w, names, fx, proc), cta_(cta), coll_(cta), tid_(std::move(tid)),
        distributed_(std::move(distributed)) {}

  /// Bytes of `__shared__` arrays declared so far.
  int64_t shared_bytes() const { return shared_bytes_; }

protected:
  void emit_store(const Stmt &s, const Sym &buf, const std::vector<Expr> &idx, const Expr &rhs,
                  bool reduce) override;
  void emit_alloc(const Alloc *a) override;
  void emit_window(const WindowStmt *w) override;
  void emit_for(const For *f) override;
  void emit_call(const CallStmt *c) override;
  void emit_with(const With *w) override;
  void emit_sync(const Stmt &s) override;
  std::string status_check(const std::string &call) override { return call + ";"; }

private:
  void threads_loop(const For *f);
  /// `__shared__ T name[n];` for a CudaSmemLinear allocation; false when refused.
  bool shared_alloc(const Alloc *a, Binding &b);
  /// The C array length of an allocation's shape from dimension `first` on;
  /// reports `kind` at a dimension that is not a positive constant.
  bool constant_count(const Alloc *a, size_t first, DiagKind kind, int64_t &count);

  int64_t cta_;          // threads of the CTA
  int64_t coll_;         // threads of the current collective
  bool warp_aligned_ = true; // the collective starts at a multiple of 32 threads
  std::string tid_;      // a thread's index in the current collective
  std::map<uint32_t, size_t> distributed_;
  int64_t shared_bytes_ = 0;
};

} // namespace exgc::codegen
