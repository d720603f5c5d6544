// cuda_sync.h - barriers and sync statements of one kernel ------------------//
// Owns: the lowering of barriers: `CudaMbarrier` rings (R mbarriers per CTA,
// at the offset of `exg_smem` the GPU stage laid out, gpu/shared_layout.h;
// logical element j = index + used - pre_arrive lives in slot j mod R and
// completes with parity
// (j / R) mod 2; `used` advances by extent - pre_arrive per task; an Await of
// j < 0 is a pre-arrived element and does not wait), `Sm90_WgmmaCommitGroup`
// (commit / wait_group N), `Sm90_TmaCommitGroup` (bulk commit / wait_group.read N), `CudaClusterSync` (split cluster barrier), and the
// wgmma fence. Arrive counts come from the GPU stage (facts.h). Used by
// cuda_kernel.cpp (setup, task end) and cuda_device_stmts.cpp (statements).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/codegen/stmt_emitter.h"
#include "compiler/gpu/facts.h"

namespace exgc::codegen {

class SyncEmitter {
public:
  SyncEmitter(ExprEmitter &ex, NameScope &names, const gpu::KernelFacts &facts)
      : ex_(ex), names_(names), facts_(facts) {}

  /// Takes the barriers the GPU stage planned in the task body (before any
  /// statement of it is emitted). False after reporting.
  bool plan();
  /// Kernel prologue, run by every thread before the task loop: ring
  /// counters, slot addresses, mbarrier init by thread `tid` 0, CTA barrier.
  void emit_setup(Writer &w, const std::string &tid, const std::string &smem);
  /// End of a task: each ring's `used` advances.
  void emit_task_end(Writer &w);
  /// Binds a barrier allocation; false after reporting.
  bool alloc(const Alloc *a);
  /// Arrive, Await or Fence; false after reporting.
  bool stmt(const Stmt &s, Writer &w);
  /// `{bar}` of an instruction call: the shared address of this CTA's slot of
  /// the barrier element `bar`; empty after reporting.
  std::string slot_address(const Expr &bar);
  /// `fence.proxy.async` (the async-proxy half of a Fence or Arrive whose
  /// facts ask for one).
  void emit_proxy_fence(Writer &w);
  bool uses_sm90() const { return uses_sm90_; }
  /// A statement of the kernel calls into exg/sm90.h (an accumulator tile, a
  /// Hopper instruction), so the file must include it.
  void require_sm90() { uses_sm90_ = true; }

private:
  /// A barrier the GPU stage planned (gpu/barrier_plan.h), as emitted.
  struct Ring {
    Sym sym;
    const gpu::BarrierPlan *plan = nullptr;
    int64_t offset = 0;     // an mbarrier ring's, in the dynamic pool
    std::string base, used; // C names: slot 0's shared address, the counter
    bool is(gpu::BarrierKind k) const { return plan->kind == k; }
  };
  const Ring *ring_of(const Expr &bar, std::string &index);
  /// exg::sm90's `name` (ring_slot or ring_parity) for the ring's elements.
  static std::string ring_fn(const Ring &r, const std::string &name);
  bool fail(SrcLoc loc, const std::string &what) { return ex_.unsupported(loc, what); }

  ExprEmitter &ex_;
  NameScope &names_;
  const gpu::KernelFacts &facts_;
  std::map<uint32_t, Ring> rings_; // by Sym id; also commit groups and cluster syncs
  std::vector<uint32_t> order_;
  bool uses_sm90_ = false;
};

} // namespace exgc::codegen
