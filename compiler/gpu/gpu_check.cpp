// gpu_check.cpp - the GPU semantics stage ----------------------------------//
#include "compiler/gpu/gpu_check.h"

#include "compiler/analysis/effects.h"
#include "compiler/analysis/gpu_names.h"
#include "compiler/analysis/memories.h"
#include "compiler/gpu/cluster_barriers.h"
#include "compiler/gpu/host_code.h"
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

std::string scope_words(const Tiling &t) {
  int64_t n = 1;
  for (int64_t b : t.boxes())
    n *= b;
  return std::to_string(n) + " thread(s) (" + t.str() + ")";
}

class KernelChecker {
public:
  KernelChecker(DiagEngine &diag, const CalleeLookup &callee, KernelFacts &facts,
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

  bool ok() const { return ok_; }

  void block(const Block &b) {
    for (const Stmt &s : b)
      stmt(s);
  }

private:
  /// Every use of an allocation inside an expression.
  class Uses : public IRVisitor {
  public:
    explicit Uses(KernelChecker &k) : k_(k) {}

  protected:
    void visit_node(const Read *op) override {
      std::vector<const Expr *> idx;
      for (const Expr &e : op->idx)
        idx.push_back(&e);
      k_.use(op->buf, idx, op->loc);
      IRVisitor::visit_node(op);
    }
    void visit_node(const WindowExpr *op) override {
      std::vector<const Expr *> idx;
      for (const WindowIdx &w : op->idx)
        idx.push_back(w.is_slice ? nullptr : &w.lo);
      k_.use(op->buf, idx, op->loc);
      IRVisitor::visit_node(op);
    }
    void visit_node(const Var *op) override {
      if (is_data(op->type))
        k_.use(op->name, {}, op->loc); // a whole buffer passed on
    }

  private:
    KernelChecker &k_;
  };

  void use(const Sym &buf, const std::vector<const Expr *> &idx, SrcLoc loc) {
    if (!shards_.use(buf, idx, tiling_, iters_, loc))
      ok_ = false;
  }
  void exprs(const Expr &e) {
    if (!e)
      return;
    Uses u(*this);
    u.visit(e);
  }
  void exprs(const std::vector<Expr> &es) {
    for (const Expr &e : es)
      exprs(e);
  }
  bool fail() { return ok_ = false; }

  /// A unit of the table, aligned for scope checks under this device.
  std::optional<CollType> scope_type(UnitKind unit) const {
    std::string err;
    std::optional<CollUnit> u = named_unit(unit, facts_.config.env);
    return u ? unpack_aligned(*u, facts_.config.env, err) : std::nullopt;
  }

  /// A statement inlined from a call in device code: what is found inside
  /// it is also noted at the call.
  void stmt(const Stmt &s) {
    auto call = inlined_.find(s->id);
    if (call == inlined_.end())
      return stmt_here(s);
    size_t errors = diag_.num_errors();
    stmt_here(s);
    if (diag_.num_errors() > errors)
      diag_.report(call->second.loc, DiagKind::DeviceCallSite, call->second.callee);
  }

  void stmt_here(const Stmt &s) {
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

  /// The mechanism of each barrier allocated in the kernel.
  void note_barrier(const Alloc *a) {
    const analysis::MemoryInfo *m = analysis::find_memory(analysis::memory_name(a->type.mem));
    if (m && m->kind == analysis::MemKind::BarrierMechanism)
      barriers_[a->name.id] = m;
  }

  const analysis::MemoryInfo *mechanism(const Expr &bar) const {
    const Sym *s = named_buffer(bar);
    auto it = s ? barriers_.find(s->id) : barriers_.end();
    return it == barriers_.end() ? nullptr : it->second;
  }

  /// A commit group or a cluster barrier is the barrier of one unit (a
  /// warpgroup's wgmma groups, the cluster's barrier.cluster): its Arrive and
  /// Await are executed by exactly that unit. Part of it would commit or wait
  /// for other threads' work, or never complete. An mbarrier takes any
  /// collective of its CTA (the arrive count is the collective's size).
  void barrier_scope(const Stmt &s, const Expr &bar, const char *what) {
    const analysis::MemoryInfo *m = mechanism(bar);
    if (!m || m->id == analysis::MemId::CudaMbarrier)
      return;
    std::string err;
    // Every barrier mechanism names its unit (memories.cpp).
    std::optional<CollType> unit = scope_type(*m->native_unit);
    if (unit && at_scope(tiling_, *unit, err))
      return;
    diag_.report(s->loc, DiagKind::BarrierScope, what, print_expr(bar), m->name,
                 analysis::unit_name(*m->native_unit), scope_words(tiling_));
    fail();
  }

  /// A barrier expression of an Arrive or a trailing barrier names one
  /// element. The one slice allowed is dimension 0 of a cluster's mbarrier
  /// (`raw[:, k]`, checked further by ClusterBarriers): it adds that element
  /// of every CTA. Any other slice would arrive on several phases of one
  /// barrier or on elements that no Await pairs with it.
  bool barrier_slices(const Expr &bar, const char *what) {
    const auto *w = bar.as<WindowExpr>();
    if (!w)
      return true;
    bool cta = false, other = false;
    for (size_t d = 0; d < w->idx.size(); ++d)
      if (w->idx[d].is_slice)
        (d == 0 ? cta : other) = true;
    if (!other && (!cta || cluster_barriers_.is_sharded(bar)))
      return true;
    diag_.report(bar->loc, DiagKind::BarrierArriveSlice, print_expr(bar), what, w->buf.name);
    return fail();
  }

  /// An mbarrier or cluster barrier Await waits for the current phase: its
  /// count, which skips phases of commit groups only, must be 0.
  void await(const Stmt &s, const Await &a) {
    barrier_scope(s, a.bar, "Await");
    const analysis::MemoryInfo *m = mechanism(a.bar);
    if (!m || (m->name != std::string("CudaMbarrier") && m->name != std::string("CudaClusterSync")))
      return;
    int64_t n = -1;
    if (int_literal(a.n, n) && n == 0)
      return;
    diag_.report(a.n->loc, DiagKind::BarrierAwaitCount, print_expr(a.bar), m->name,
                 print_expr(a.n));
    fail();
  }

  /// Threads in each collective of the current tiling.
  int64_t tiling_threads() const {
    int64_t n = 1;
    for (int64_t b : tiling_.boxes())
      n *= b;
    return n;
  }

  /// `with CudaWarps(...)`: the tiling narrowed to its warps. At task scope
  /// they are warps of the CTA or of a role, which the whole CTA chooses
  /// among: a role's block below a thread loop is an error (CATALOG.md D3).
  /// Inside another CudaWarps, or below a thread loop of a blockDim kernel,
  /// the block is nested (docs/gpu.md): (lo, hi) are warps of the current
  /// collective, so they stack.
  void warps_block(const With *w, const Call &c) {
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

  void nested_warps_block(const With *w, const Call &c) {
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

  /// The tiling of warps [lo, hi) of the current collective run together.
  std::optional<Derived> derive_warps(int64_t lo, int64_t hi, std::string &err) {
    std::optional<CollUnit> warp = named_unit(UnitKind::CudaWarp, facts_.config.env);
    std::optional<CollType> raw = warp ? unpack_raw(*warp, facts_.config.env, err) : std::nullopt;
    return raw ? derive(tiling_, 0, "CudaWarps", *raw, lo, hi, false, err) : std::nullopt;
  }

  void warps_body(const With *w, WarpsBlockFacts wf, const Derived &d) {
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

  void store(const Stmt &s, const Sym &buf, const std::vector<Expr> &idx, const Expr &rhs) {
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

  void threads_loop(const For *f) {
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

  /// An instruction runs at exactly its collective (an instr without
  /// `collective:` is one thread's). Instruction-internal distribution and trailing
  /// barriers are not checked yet, so such calls are refused, not passed.
  void call(const CallStmt *c) {
    Proc callee = callee_ ? callee_(c->callee) : nullptr;
    if (!callee)
      return exprs(c->args); // typecheck resolved every call; codegen names what it cannot emit
    if (!callee->is_instr) {
      // Callers inline device calls first (device_calls.h); a proc given
      // here with its calls kept is not analysed.
      diag_.report(c->loc, DiagKind::GpuCheckNotSupported,
                   "a call of the proc '" + callee->name + "' in device code");
      return void(fail());
    }
    // A trailing barrier is the sync checker's; one multicast over units is
    // checked for clusters of several CTAs, whose barriers are sharded.
    const InstrAttr *bar = callee->attr("barrier");
    if (bar && (bar->values.size() != 1 ||
                (!bar->values[0].as<Var>() && facts_.config.env.cluster_dim <= 1))) {
      diag_.report(c->loc, DiagKind::GpuCheckNotSupported,
                   "a call of '" + callee->name + "', an instruction with 'barrier:' over units");
      return void(fail());
    }
    for (const Expr &b : c->barriers)
      barrier_slices(b, callee->name.c_str());
    if (!cluster_barriers_.call(c, *callee, tiling_, iters_))
      return void(fail()); // the collective checks below would only repeat it
    std::vector<Expr> bound = args_by_param(*callee, *c);
    for (size_t i = 0; i < bound.size(); ++i) {
      const Read *dist = distributed_entry(*callee, callee->args[i].name.name);
      if (dist && bound[i])
        distributed_use(*callee, *c, callee->args[i], bound[i], dist->idx);
      else
        exprs(bound[i]);
    }
    std::string err;
    const InstrAttr *coll = callee->attr("collective");
    std::optional<CollUnit> unit;
    if (coll && coll->values.size() == 1)
      unit = eval_unit(bind_params(*callee, *c, coll->values[0]), facts_.config.env, err);
    else if (!coll)
      unit = named_unit(UnitKind::StandaloneThread, facts_.config.env);
    else
      err = "'collective:' names one unit";
    std::optional<CollType> want = unit ? unpack_aligned(*unit, facts_.config.env, err) : std::nullopt;
    if (!want) {
      diag_.report(c->loc, DiagKind::InstrCollectiveUnit, callee->name, err);
      return void(fail());
    }
    if (!at_scope(tiling_, *want, err)) {
      std::string unit_text = coll ? print_expr(coll->values[0]) : "one thread";
      diag_.report(c->loc, DiagKind::InstrCollective, callee->name, unit_text,
                   scope_words(tiling_), err);
      fail();
    }
  }

  /// This call's argument for each parameter of `instr` (null if missing).
  static std::vector<Expr> args_by_param(const ProcNode &instr, const CallStmt &c) {
    std::vector<Expr> out(instr.args.size());
    std::map<uint32_t, Expr> values = param_values(instr, c);
    for (size_t i = 0; i < instr.args.size(); ++i)
      if (auto it = values.find(instr.args[i].name.id); it != values.end())
        out[i] = it->second;
    return out;
  }

  /// The `distributed: x[U, ...]` entry of parameter `name`, if any.
  static const Read *distributed_entry(const ProcNode &instr, const std::string &name) {
    if (const InstrAttr *d = instr.attr("distributed"))
      for (const Expr &e : d->values)
        if (const auto *r = e.as<Read>(); r && r->buf.name == name)
          return r;
    return nullptr;
  }

  /// An argument whose leading dimensions the instruction splits over its
  /// own threads (`distributed: x[U, ...]`): the window's first sliced
  /// dimensions are checked as if `cuda_threads` loops of those units ran
  /// over them inside the call's collective, so each thread of the call must
  /// own exactly its element of the buffer's distributed dimensions.
  void distributed_use(const ProcNode &instr, const CallStmt &c, const Arg &param,
                       const Expr &arg, const std::vector<Expr> &units) {
    const auto *w = arg.as<WindowExpr>();
    if (!w) {
      diag_.report(arg->loc, DiagKind::DistributedArgument, param.name.name, instr.name,
                   "the argument must be a window whose leading slices are split");
      return void(fail());
    }
    Tiling t = tiling_;
    ThreadIters iters = iters_;
    std::vector<Expr> fake;
    fake.reserve(units.size());
    std::vector<const Expr *> idx;
    size_t u = 0;
    for (const WindowIdx &wi : w->idx) {
      if (!wi.is_slice) {
        exprs(wi.lo);
        idx.push_back(&wi.lo);
        continue;
      }
      if (u >= units.size()) {
        idx.push_back(nullptr);
        continue;
      }
      std::string err;
      int64_t n = 0;
      Expr extent = u < param.type.shape.size() ? bind_params(instr, c, param.type.shape[u]) : Expr();
      std::optional<CollUnit> unit = eval_unit(units[u], facts_.config.env, err);
      std::optional<CollType> raw = unit ? unpack_raw(*unit, facts_.config.env, err) : std::nullopt;
      Sym it = Sym::fresh(param.name.name + "." + std::to_string(u));
      std::optional<Derived> d =
          raw && extent && int_literal(extent, n)
              ? derive(t, it.id, it.name, *raw, 0, n, true, err)
              : std::nullopt;
      if (!d) {
        diag_.report(arg->loc, DiagKind::DistributedArgument, param.name.name, instr.name,
                     "its dimension " + std::to_string(u) + " over " + print_expr(units[u]) +
                         " does not fit the call's collective" + (err.empty() ? "" : ": " + err));
        return void(fail());
      }
      t = d->child;
      iters[it.id] = ThreadIter{it.name, d->pitch, d->tile_count};
      fake.push_back(Var::make(it, ValueType::Index));
      idx.push_back(&fake.back());
      ++u;
    }
    if (!shards_.use(w->buf, idx, t, iters, arg->loc))
      fail();
  }

  /// `e` (an expression over `instr`'s parameters) with this call's values
  /// in place of the parameters: keyword arguments for template parameters,
  /// positional ones for the rest.
  static Expr bind_params(const ProcNode &instr, const CallStmt &c, const Expr &e) {
    return analysis::substitute(e, param_values(instr, c));
  }

  /// Each parameter's value at this call, by the parameter's Sym id.
  static std::map<uint32_t, Expr> param_values(const ProcNode &instr, const CallStmt &c) {
    std::map<uint32_t, Expr> values;
    std::vector<Expr> bound = bind_instr_args(c, instr);
    for (size_t i = 0; i < instr.args.size(); ++i)
      if (bound[i])
        values[instr.args[i].name.id] = bound[i];
    return values;
  }

  void fence(const Fence *f) {
    std::string err;
    using analysis::SyncTimeline;
    const SyncTimeline first = analysis::sync_timeline(f->first);
    const SyncTimeline second = analysis::sync_timeline(f->second);
    if (first == SyncTimeline::WgmmaFence1 || second == SyncTimeline::WgmmaFence2) {
      if (!warpgroup_ || !at_scope(tiling_, *warpgroup_, err)) {
        diag_.report(f->loc, DiagKind::WgmmaFenceScope, scope_words(tiling_));
        fail();
      } else if (first == SyncTimeline::WgmmaFence1 && second == SyncTimeline::WgmmaFence2) {
        facts_.fences[f] = FenceFacts{FenceForm::WgmmaFence, FenceScope::Warpgroup, false};
      }
      return; // any other form: codegen says it cannot emit it
    }
    const bool barrier = first == SyncTimeline::CudaInOrder &&
                         (second == SyncTimeline::CudaInOrder ||
                          second == SyncTimeline::CudaGenericAndAsyncProxy);
    for (const auto &[type, scope] : fence_scopes_)
      if (at_scope(tiling_, type, err)) {
        // The typecheck admits known timelines only.
        if (barrier)
          facts_.fences[f] = FenceFacts{FenceForm::Barrier, scope,
                                        sync::needs_proxy_fence(*sync::lookup_sync_tl(f->first),
                                                                *sync::lookup_sync_tl(f->second))};
        return;
      }
    diag_.report(f->loc, DiagKind::FenceScope, scope_words(tiling_));
    fail();
  }

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
