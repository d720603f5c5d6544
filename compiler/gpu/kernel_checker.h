// kernel_checker.h - the GPU stage's walk of one kernel (private) ----------//
// Owns: KernelChecker, the walk over one device function's task body that
// checks which collective runs each statement and records the kernel's
// facts (gpu_check.h). This is its declaration; its bodies are split over
// gpu_check.cpp (the walk over statements: stores, `cuda_threads` loops and
// CudaWarps blocks, each narrowing the tiling), gpu_check_barriers.cpp
// (barriers, Arrive slices, Await counts and Fence scopes) and
// gpu_check_calls.cpp (instruction calls: their collective and distributed
// arguments).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/analysis/memories.h"
#include "compiler/gpu/cluster_barriers.h"
#include "compiler/gpu/collective.h"
#include "compiler/gpu/facts.h"
#include "compiler/gpu/gpu_check.h"
#include "compiler/gpu/sharding.h"
#include "compiler/gpu/units.h"
#include "compiler/ir/visitor.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu::check_detail {

/// The threads in each collective of `t` and its shape, for diagnostics.
std::string scope_words(const Tiling &t);

class KernelChecker {
public:
  KernelChecker(DiagEngine &diag, const CalleeLookup &callee, KernelFacts &facts,
                const std::map<NodeId, CallSite> &inlined);

  bool ok() const { return ok_; }

  void block(const Block &b);

private:
  /// Every use of an allocation inside an expression.
  class Uses : public IRVisitor {
  public:
    explicit Uses(KernelChecker &k) : k_(k) {}

  protected:
    void visit_node(const Read *op) override;
    void visit_node(const WindowExpr *op) override;
    void visit_node(const Var *op) override;

  private:
    KernelChecker &k_;
  };

  void use(const Sym &buf, const std::vector<const Expr *> &idx, SrcLoc loc);
  void exprs(const Expr &e);
  void exprs(const std::vector<Expr> &es);
  bool fail() { return ok_ = false; }

  /// A unit of the table, aligned for scope checks under this device.
  std::optional<CollType> scope_type(UnitKind unit) const;

  /// A statement inlined from a call in device code: what is found inside
  /// it is also noted at the call.
  void stmt(const Stmt &s);

  void stmt_here(const Stmt &s);

  /// The mechanism of each barrier allocated in the kernel.
  void note_barrier(const Alloc *a);

  const analysis::MemoryInfo *mechanism(const Expr &bar) const;

  /// A commit group or a cluster barrier is the barrier of one unit (a
  /// warpgroup's wgmma groups, the cluster's barrier.cluster): its Arrive and
  /// Await are executed by exactly that unit. Part of it would commit or wait
  /// for other threads' work, or never complete. An mbarrier takes any
  /// collective of its CTA (the arrive count is the collective's size).
  void barrier_scope(const Stmt &s, const Expr &bar, const char *what);

  /// A barrier expression of an Arrive or a trailing barrier names one
  /// element. The one slice allowed is dimension 0 of a cluster's mbarrier
  /// (`raw[:, k]`, checked further by ClusterBarriers): it adds that element
  /// of every CTA. Any other slice would arrive on several phases of one
  /// barrier or on elements that no Await pairs with it.
  bool barrier_slices(const Expr &bar, const char *what);

  /// An mbarrier or cluster barrier Await waits for the current phase: its
  /// count, which skips phases of commit groups only, must be 0.
  void await(const Stmt &s, const Await &a);

  /// Threads in each collective of the current tiling.
  int64_t tiling_threads() const;

  /// `with CudaWarps(...)`: the tiling narrowed to its warps. At task scope
  /// they are warps of the CTA or of a role, which the whole CTA chooses
  /// among: a role's block below a thread loop is an error (CATALOG.md D3).
  /// Inside another CudaWarps, or below a thread loop of a blockDim kernel,
  /// the block is nested (docs/gpu.md): (lo, hi) are warps of the current
  /// collective, so they stack.
  void warps_block(const With *w, const Call &c);

  void nested_warps_block(const With *w, const Call &c);

  /// The tiling of warps [lo, hi) of the current collective run together.
  std::optional<Derived> derive_warps(int64_t lo, int64_t hi, std::string &err);

  void warps_body(const With *w, WarpsBlockFacts wf, const Derived &d);
  void store(const Stmt &s, const Sym &buf, const std::vector<Expr> &idx, const Expr &rhs);
  void threads_loop(const For *f);

  /// An instruction runs at exactly its collective (an instr without
  /// `collective:` is one thread's). Instruction-internal distribution and trailing
  /// barriers are not checked yet, so such calls are refused, not passed.
  void call(const CallStmt *c);

  /// This call's argument for each parameter of `instr` (null if missing).
  static std::vector<Expr> args_by_param(const ProcNode &instr, const CallStmt &c);

  /// The `distributed: x[U, ...]` entry of parameter `name`, if any.
  static const Read *distributed_entry(const ProcNode &instr, const std::string &name);

  /// An argument whose leading dimensions the instruction splits over its
  /// own threads (`distributed: x[U, ...]`): the window's first sliced
  /// dimensions are checked as if `cuda_threads` loops of those units ran
  /// over them inside the call's collective, so each thread of the call must
  /// own exactly its element of the buffer's distributed dimensions.
  void distributed_use(const ProcNode &instr, const CallStmt &c, const Arg &param,
                       const Expr &arg, const std::vector<Expr> &units);

  /// `e` (an expression over `instr`'s parameters) with this call's values
  /// in place of the parameters: keyword arguments for template parameters,
  /// positional ones for the rest.
  static Expr bind_params(const ProcNode &instr, const CallStmt &c, const Expr &e);

  /// Each parameter's value at this call, by the parameter's Sym id.
  static std::map<uint32_t, Expr> param_values(const ProcNode &instr, const CallStmt &c);

  void fence(const Fence *f);

  DiagEngine &diag_;
  const CalleeLookup &callee_;
  KernelFacts &facts_;
  const std::map<NodeId, CallSite> &inlined_;
  ShardTracker shards_;
  ClusterBarriers cluster_barriers_;
  Tiling tiling_;
  ThreadIters iters_;
  const WarpsBlockFacts *enclosing_warps_ = nullptr; // the innermost CudaWarps block
  // Scope types of this device, unpacked once.
  std::optional<CollType> one_thread_, warpgroup_;
  std::vector<std::pair<CollType, FenceScope>> fence_scopes_;
  std::map<uint32_t, const analysis::MemoryInfo *> barriers_; // by Sym id
  bool ok_ = true;
};

} // namespace exgc::gpu::check_detail
