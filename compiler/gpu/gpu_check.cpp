// gpu_check.cpp - the GPU semantics stage ----------------------------------//
// Owns: the stage's entry (each device function's launch configuration,
// warp roles and task nest, then KernelChecker over its task body) and
// KernelChecker's walk over statements: the uses of distributed memory,
// stores, `cuda_threads` loops and CudaWarps blocks, each narrowing the
// tiling. Barriers and Fences are in gpu_check_barriers.cpp, instruction
// calls in gpu_check_calls.cpp; the class is declared in kernel_checker.h.
#include "compiler/gpu/gpu_check.h"

#include "compiler/analysis/effects.h"
#include "compiler/analysis/gpu_names.h"
#include "compiler/analysis/memories.h"
#include "compiler/gpu/cluster_barriers.h"
#include "compiler/gpu/host_code.h"
#include "compiler/gpu/kernel_checker.h"
#include "compiler/gpu/sharding.h"
#include "compiler/gpu/units.h"
#include "compiler/gpu/warp_roles.h"
#include "compiler/ir/instr_args.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/support/check.h"
#include "compiler/sync/quals.h"

namespace exgc::gpu {

namespace {

/// The launch configuration of a `CudaDeviceFunction(...)` (launch_config.h)
/// and its warp roles, with blockDim derived from the roles when they are
/// given. False after reporting what is wrong.
bool device_env(const With *w, DiagEngine &diag, KernelFacts &facts) {
  LaunchConfig &cfg = facts.config;
  if (!read_launch_config(w, diag, cfg))
    return false;
  if (cfg.warps) {
    if (cfg.env.block_dim)
      return diag.report(w->ctx->loc, DiagKind::BadWarpRole,
                         "'blockDim' and 'warps' are both given; blockDim is 32 x the roles' warps");
    if (!read_warp_roles(*cfg.warps, cfg.blocks_per_sm, diag, facts.roles, cfg.env.block_dim))
      return false;
  }
  return true;
}

/// How `d` narrows `parent`, for the sync lowering.
GridNarrowing narrowing(const Tiling &parent, const Derived &d) {
  const TileOp &op = d.child.dims[d.dim].ops.back();
  return GridNarrowing{parent.domain(), d.child.domain(), d.dim, op.box, op.offset};
}

} // namespace

namespace check_detail {

std::string scope_words(const Tiling &t) {
  int64_t n = 1;
  for (int64_t b : t.boxes())
    n *= b;
  return std::to_string(n) + " thread(s) (" + t.str() + ")";
}

void KernelChecker::Uses::visit_node(const Read *op) {
  std::vector<const Expr *> idx;
  for (const Expr &e : op->idx)
    idx.push_back(&e);
  k_.use(op->buf, idx, op->loc);
  IRVisitor::visit_node(op);
}

void KernelChecker::Uses::visit_node(const WindowExpr *op) {
  std::vector<const Expr *> idx;
  for (const WindowIdx &w : op->idx)
    idx.push_back(w.is_slice ? nullptr : &w.lo);
  k_.use(op->buf, idx, op->loc);
  IRVisitor::visit_node(op);
}

void KernelChecker::Uses::visit_node(const Var *op) {
  if (is_data(op->type))
    k_.use(op->name, {}, op->loc); // a whole buffer passed on
}

KernelChecker::KernelChecker(DiagEngine &diag, const CalleeLookup &callee, KernelFacts &facts,
                             const std::map<NodeId, CallSite> &inlined)
    : diag_(diag), callee_(callee), facts_(facts), inlined_(inlined),
      shards_(diag, facts.config.env, facts.shards), cluster_barriers_(diag, facts),
      tiling_(Tiling::device(facts.config.env)),
      one_thread_(scope_type(UnitKind::StandaloneThread)),
      warpgroup_(scope_type(UnitKind::CudaWarpgroup)) {
  for (const auto &[unit, scope] : {std::pair{UnitKind::StandaloneThread, FenceScope::Thread},
                                    std::pair{UnitKind::CudaWarp, FenceScope::Warp},
                                    std::pair{UnitKind::CudaWarpgroup, FenceScope::Warpgroup},
                                    std::pair{UnitKind::CudaCtaInCluster, FenceScope::Cta},
                                    std::pair{UnitKind::CudaCluster, FenceScope::Cluster}})
    if (std::optional<CollType> c = scope_type(unit))
      fence_scopes_.push_back({*c, scope});
}

void KernelChecker::block(const Block &b) {
  for (const Stmt &s : b)
    stmt(s);
}

void KernelChecker::use(const Sym &buf, const std::vector<const Expr *> &idx, SrcLoc loc) {
  if (!shards_.use(buf, idx, tiling_, iters_, loc))
    ok_ = false;
}

void KernelChecker::exprs(const Expr &e) {
  if (!e)
    return;
  Uses u(*this);
  u.visit(e);
}

void KernelChecker::exprs(const std::vector<Expr> &es) {
  for (const Expr &e : es)
    exprs(e);
}

std::optional<CollType> KernelChecker::scope_type(UnitKind unit) const {
  std::string err;
  std::optional<CollUnit> u = named_unit(unit, facts_.config.env);
  return u ? unpack_aligned(*u, facts_.config.env, err) : std::nullopt;
}

void KernelChecker::stmt(const Stmt &s) {
  auto call = inlined_.find(s->id);
  if (call == inlined_.end())
    return stmt_here(s);
  size_t errors = diag_.num_errors();
  stmt_here(s);
  if (diag_.num_errors() > errors)
    diag_.report(call->second.loc, DiagKind::DeviceCallSite, call->second.callee);
}

void KernelChecker::stmt_here(const Stmt &s) {
  if (const auto *a = s.as<Assign>())
    return store(s, a->buf, a->idx, a->rhs);
  if (const auto *r = s.as<Reduce>())
    return store(s, r->buf, r->idx, r->rhs);
  if (const auto *a = s.as<Alloc>()) {
    note_barrier(a);
    if (!shards_.alloc(a, tiling_) || !cluster_barriers_.alloc(a))
      fail();
    return;
  }
  if (const auto *w = s.as<WindowStmt>())
    return exprs(w->rhs);
  if (const auto *f = s.as<For>()) {
    exprs(f->lo);
    exprs(f->hi);
    if (f->mode.kind() == LoopKind::CudaThreads)
      return threads_loop(f);
    if (is_task_loop(s)) {
      diag_.report(f->loc, DiagKind::TaskNestShape,
                   "'cuda_tasks' loop '" + f->iter.name + "' inside a task");
      return void(fail());
    }
    return block(f->body);
  }
  if (const auto *i = s.as<If>()) {
    exprs(i->cond);
    block(i->then_body);
    return block(i->else_body);
  }
  if (const auto *c = s.as<CallStmt>())
    return call(c);
  if (const auto *w = s.as<With>()) {
    switch (w->context()) {
    case ContextKind::CudaWarps: return warps_block(w, *w->ctx.as<Call>());
    case ContextKind::CudaDeviceFunction:
      diag_.report(w->loc, DiagKind::DeviceFunctionNested);
      return void(fail());
    }
  }
  if (const auto *f = s.as<Fence>())
    return fence(f);
  if (const auto *a = s.as<Arrive>()) {
    for (const Expr &bar : a->barriers)
      if (barrier_slices(bar, "Arrive"))
        barrier_scope(s, bar, "Arrive");
    facts_.arrives[a] = ArriveFacts{tiling_threads(), tiling_.whole_warps()};
    if (!cluster_barriers_.arrive(a, iters_))
      fail();
  }
  if (const auto *a = s.as<Await>()) {
    await(s, *a);
    if (!cluster_barriers_.await(a, iters_))
      fail();
  }
}

int64_t KernelChecker::tiling_threads() const {
  int64_t n = 1;
  for (int64_t b : tiling_.boxes())
    n *= b;
  return n;
}

void KernelChecker::warps_block(const With *w, const Call &c) {
  if (enclosing_warps_ || (facts_.roles.empty() && tiling_.depth != 0))
    return nested_warps_block(w, c);
  WarpsBlockFacts wf;
  if (!read_warps_block(c, facts_.roles, facts_.config.env.block_dim / 32, diag_, wf))
    return void(fail());
  if (tiling_.depth != 0) {
    diag_.report(w->loc, DiagKind::WarpsNotAtTaskScope, scope_words(tiling_));
    return void(fail());
  }
  std::string err;
  std::optional<Derived> d = derive_warps(wf.lo, wf.hi, err);
  EXGC_CHECK(d) << "warps inside the CTA always narrow its tiling: " << err;
  warps_body(w, wf, *d);
}

void KernelChecker::nested_warps_block(const With *w, const Call &c) {
  const WarpsBlockFacts *outer = enclosing_warps_;
  WarpsBlockFacts wf;
  wf.nested = true;
  wf.role = outer ? outer->role : -1;
  std::string within = scope_words(tiling_);
  for (const KwArg &k : c.kwargs) {
    const auto *s = k.value ? k.value.as<StrImm>() : nullptr;
    std::string inherited = wf.role >= 0 ? facts_.roles[static_cast<size_t>(wf.role)].name : "";
    if (k.key != "name" || !s || s->value != inherited) {
      // The role is chosen once, at task scope (CATALOG.md D5).
      diag_.report(k.value ? k.value->loc : w->loc, DiagKind::NestedWarps, within,
                   k.key != "name" || !s ? "it takes warps (lo, hi) and the name of its role"
                   : inherited.empty()
                       ? "it is not inside a block of a warp role, so it cannot name '" +
                             s->value + "'"
                       : "it cannot change the warp role from '" + inherited + "' to '" +
                             s->value + "'");
      return void(fail());
    }
  }
  if (c.args.size() != 2 || !int_literal(c.args[0], wf.lo) || !int_literal(c.args[1], wf.hi) ||
      wf.lo < 0 || wf.hi <= wf.lo) {
    // Without lo and hi there is no default: a role's warps are not
    // relative to anything (CATALOG.md D6).
    diag_.report(w->loc, DiagKind::NestedWarps, within,
                 "it must give its warps as integer constants (lo, hi) with 0 <= lo < hi");
    return void(fail());
  }
  std::string err;
  std::optional<Derived> d = derive_warps(wf.lo, wf.hi, err);
  if (!d) {
    diag_.report(w->loc, DiagKind::NestedWarps, within,
                 "warps " + std::to_string(wf.lo) + " to " + std::to_string(wf.hi) +
                     " do not fit: " + err);
    return void(fail());
  }
  wf.trivial = d->trivial;
  wf.guarded = d->before;
  wf.guard_lo = d->guard_lo;
  wf.guard_hi = d->guard_hi;
  warps_body(w, wf, *d);
}

std::optional<Derived> KernelChecker::derive_warps(int64_t lo, int64_t hi, std::string &err) {
  std::optional<CollUnit> warp = named_unit(UnitKind::CudaWarp, facts_.config.env);
  std::optional<CollType> raw = warp ? unpack_raw(*warp, facts_.config.env, err) : std::nullopt;
  return raw ? derive(tiling_, 0, "CudaWarps", *raw, lo, hi, false, err) : std::nullopt;
}

void KernelChecker::warps_body(const With *w, WarpsBlockFacts wf, const Derived &d) {
  if (!d.trivial)
    wf.grid = narrowing(tiling_, d);
  const WarpsBlockFacts &stored = facts_.warps[w] = wf;
  Tiling saved = tiling_;
  const WarpsBlockFacts *outer = enclosing_warps_;
  tiling_ = d.child;
  enclosing_warps_ = &stored;
  block(w->body);
  enclosing_warps_ = outer;
  tiling_ = saved;
}

void KernelChecker::store(const Stmt &s, const Sym &buf, const std::vector<Expr> &idx,
                          const Expr &rhs) {
  exprs(rhs);
  exprs(idx);
  std::vector<const Expr *> ix;
  for (const Expr &e : idx)
    ix.push_back(&e);
  use(buf, ix, s->loc);
  std::string err;
  if (one_thread_ && !at_scope(tiling_, *one_thread_, err)) {
    diag_.report(s->loc, DiagKind::CollectiveWrite, buf.name, scope_words(tiling_));
    fail();
  }
}

void KernelChecker::threads_loop(const For *f) {
  int64_t lo, hi;
  if (!int_literal(f->lo, lo) || !int_literal(f->hi, hi)) {
    diag_.report(f->loc, DiagKind::ThreadsLoopNotConstant, f->iter.name);
    return void(fail());
  }
  if (lo != 0 || hi < 1) {
    diag_.report(f->loc, DiagKind::ThreadsLoopBounds, f->iter.name, lo, hi);
    return void(fail());
  }
  std::string err;
  std::optional<CollUnit> unit;
  if (const Expr *u = f->mode.kwarg("unit"); u && *u)
    unit = eval_unit(*u, facts_.config.env, err);
  else
    unit = named_unit(UnitKind::CudaThread, facts_.config.env);
  std::optional<CollType> raw = unit ? unpack_raw(*unit, facts_.config.env, err) : std::nullopt;
  if (!raw) {
    const Expr *u = f->mode.kwarg("unit");
    diag_.report(u && *u ? (*u)->loc : f->loc, DiagKind::BadCollectiveUnit, err);
    return void(fail());
  }
  std::optional<Derived> d = derive(tiling_, f->iter.id, f->iter.name, *raw, 0, hi,
                                    true, err);
  if (!d) {
    diag_.report(f->loc, DiagKind::ThreadsExceedCollective, f->iter.name, err);
    return void(fail());
  }
  ThreadLoopFacts lf;
  lf.trivial = d->trivial;
  lf.iter = d->iter;
  lf.guarded = d->before;
  lf.guard_lo = d->guard_lo;
  lf.guard_hi = d->guard_hi;
  lf.pitch = d->pitch;
  lf.tile_count = d->tile_count;
  if (!d->trivial)
    lf.grid = narrowing(tiling_, *d);
  facts_.loops[f] = lf;
  Tiling saved = tiling_;
  tiling_ = d->child;
  iters_[f->iter.id] = ThreadIter{f->iter.name, d->pitch, d->tile_count};
  block(f->body);
  iters_.erase(f->iter.id);
  tiling_ = saved;
}

} // namespace check_detail

using check_detail::KernelChecker;

namespace {

/// Checks one device function and records its facts in `out`.
bool check_device_function(const With *w, const CalleeLookup &callee, DiagEngine &diag,
                           GpuFacts &out) {
  KernelFacts facts;
  if (!device_env(w, diag, facts) || !read_task_nest(w, diag, facts.tasks))
    return false;
  if (facts.config.task_group > 1 && facts.tasks.loops.size() < 2)
    return diag.report(w->loc, DiagKind::BadDeviceFunctionParam, "task_group",
                       "given with two or more nested 'cuda_tasks' loops (it groups the rows "
                       "of the two innermost)");
  KernelFacts &kf = out.kernels[w] = facts;
  KernelChecker k(diag, callee, kf, out.inlined_from);
  k.block(*kf.tasks.body);
  return k.ok() && plan_barriers(*kf.tasks.body, kf, diag) && lay_out_arrays(w, kf, diag);
}

} // namespace

bool check_gpu_semantics(const ProcNode &proc, const CalleeLookup &callee, DiagEngine &diag,
                         GpuFacts &out) {
  DiagEngine::InProc in(diag, proc.name);
  return check_host_code(proc, diag, [&](const With *w) {
    return check_device_function(w, callee, diag, out);
  });
}

} // namespace exgc::gpu
