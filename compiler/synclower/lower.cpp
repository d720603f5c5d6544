// lower.cpp - a proc at concrete sizes as a sync program -------------------//
// One walk over the proc. Host statements keep only their control flow (host
// memory is not tracked); a device function becomes a `device` block, its
// `cuda_tasks` loops `tasks`, its `cuda_threads` loops `threads` (inside the
// `reshape`s their unit needs), every access of tracked memory an access
// statement on its root buffer, and sync statements themselves.
#include "compiler/synclower/lower.h"

#include <set>

#include "compiler/analysis/effects.h"
#include "compiler/analysis/memories.h"
#include "compiler/ir/instr_args.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/support/check.h"
#include "compiler/synclower/control.h"
#include "compiler/synclower/quals.h"

namespace exgc::synclower {

namespace {

using analysis::MemSpace;

/// A root buffer: a proc argument or an allocation.
struct Buffer {
  std::string name; // in the sync program
  const analysis::MemoryInfo *mem = nullptr;
  std::vector<Expr> shape;
  bool tracked = false; // has a history in the sync program
};

/// A window name over a root buffer: root dimension d is the view's next
/// dimension shifted by start[d] (a slice), or the fixed index start[d].
struct View {
  Sym root;
  std::vector<bool> is_slice;
  std::vector<Expr> start;
};

/// One coordinate as an access gives it: a point, or a slice [lo, hi) where a
/// null bound is the dimension's start or end.
struct Coord {
  bool slice = false;
  Expr lo, hi;
};

Expr plus(const Expr &a, const Expr &b) {
  if (const auto *i = a.as<IntImm>(); i && i->value == 0)
    return b;
  return BinOp::make(BinOpKind::Add, a, b);
}

class Lowerer {
public:
  Lowerer(const ProcNode &proc, const gpu::GpuFacts &facts, const gpu::CalleeLookup &callee,
          const SourceManager &sources, DiagEngine &diag, Lowered &out)
      : proc_(proc), facts_(facts), callee_(callee), sources_(sources), diag_(diag), out_(out) {}

  bool run(const std::map<std::string, int64_t> &sizes) {
    find_written(proc_.body);
    views_.clear(); // rebuilt in order by the walk
    block_ = &out_.program.body;
    for (const Arg &a : proc_.args) {
      if (a.type.kind == Type::Kind::Control) {
        auto it = sizes.find(a.name.name);
        auto let = make(sync::StmtKind::Let, a.loc);
        let->name = names_.bind(a.name);
        let->value = sync::ExprNode::make_int(it == sizes.end() ? 0 : it->second);
        emit(std::move(let));
      } else if (a.type.kind == Type::Kind::Data) {
        declare_data(a.name, a.type, a.loc);
      }
    }
    lower_block(proc_.body);
    return ok_;
  }

private:
  // --- Output -------------------------------------------------------------

  sync::StmtP make(sync::StmtKind k, SrcLoc loc) {
    sync::StmtP s = sync::make_stmt(k);
    if (loc.valid())
      s->loc = sync::SrcLoc{sources_.name(loc.file), static_cast<int>(loc.line),
                            static_cast<int>(loc.col)};
    out_.origins[s.get()] = Origin{loc, kernel_, call_site_};
    return s;
  }
  sync::Stmt *emit(sync::StmtP s) {
    block_->push_back(std::move(s));
    return block_->back().get();
  }
  /// Lowers `body` into the block of `s`, then emits `s`.
  void emit_with_body(sync::StmtP s, const Block &body) {
    sync::Block *saved = block_;
    block_ = &s->body;
    lower_block(body);
    block_ = saved;
    emit(std::move(s));
  }

  bool unsupported(SrcLoc loc, const std::string &what) {
    diag_.report(loc, DiagKind::SyncLoweringUnsupported, proc_.name, what);
    return ok_ = false;
  }
  sync::Expr control(const Expr &e) {
    Expr bad;
    sync::Expr s = to_sync(e, names_, &bad);
    if (!s && ok_)
      unsupported(bad ? bad->loc : proc_.loc,
                  "the control expression '" + (bad ? print_expr(bad) : std::string("?")) + "'");
    return s;
  }

  // --- Buffers ------------------------------------------------------------

  /// Root buffers that some statement writes (directly, through a window or
  /// as an instruction's argument): only they need histories.
  void find_written(const Block &b) {
    for (const Stmt &s : b) {
      if (const auto *a = s.as<Assign>())
        written_.insert(root_of(a->buf).id);
      else if (const auto *r = s.as<Reduce>())
        written_.insert(root_of(r->buf).id);
      else if (const auto *w = s.as<WindowStmt>())
        window(w);
      else if (const auto *f = s.as<For>())
        find_written(f->body);
      else if (const auto *i = s.as<If>())
        find_written(i->then_body), find_written(i->else_body);
      else if (const auto *w = s.as<With>())
        find_written(w->body);
      else if (const auto *c = s.as<CallStmt>())
        for (const auto &[param, arg] : instr_data_args(*c))
          if (param.written || param.reduced)
            written_.insert(root_of(arg_buffer(arg)).id);
    }
  }

  Sym root_of(const Sym &buf) const {
    auto v = views_.find(buf.id);
    return v == views_.end() ? buf : v->second.root;
  }
  static Sym arg_buffer(const Expr &arg) {
    if (const auto *w = arg.as<WindowExpr>())
      return w->buf;
    if (const auto *r = arg.as<Read>())
      return r->buf;
    if (const auto *v = arg.as<Var>())
      return v->name;
    return Sym{};
  }

  /// What an instruction's behaviour does with one data parameter.
  struct ParamUse {
    const Arg *param = nullptr;
    bool read = false, written = false, reduced = false; // written: by `=`
  };
  /// What `instr`'s behaviour does with each parameter (by Sym id), worked
  /// out once per instruction: both walks of the proc ask for every call.
  const std::map<uint32_t, ParamUse> &param_uses(const ProcNode &instr) {
    auto [it, fresh] = param_uses_.try_emplace(&instr);
    if (!fresh)
      return it->second;
    analysis::EffectCollector ec(instr, [this](const std::string &n) -> const ProcNode * {
      Proc p = callee_ ? callee_(n) : nullptr;
      return p.get();
    });
    for (const analysis::Access &a : ec.of(instr.body).accesses) {
      ParamUse &u = it->second[a.buf.id];
      u.read |= a.kind == analysis::AccessKind::Read;
      u.written |= a.kind == analysis::AccessKind::Write;
      u.reduced |= a.kind == analysis::AccessKind::Reduce;
    }
    return it->second;
  }

  /// The data arguments of an instruction call with what the behaviour
  /// does with each; empty when the callee is not an instruction.
  std::vector<std::pair<ParamUse, Expr>> instr_data_args(const CallStmt &c) {
    std::vector<std::pair<ParamUse, Expr>> out;
    Proc callee = callee_ ? callee_(c.callee) : nullptr;
    if (!callee || !callee->is_instr)
      return out;
    const std::map<uint32_t, ParamUse> &uses = param_uses(*callee);
    std::vector<Expr> bound = bind_instr_args(c, *callee);
    for (size_t i = 0; i < callee->args.size(); ++i) {
      const Arg &p = callee->args[i];
      if (p.type.kind != Type::Kind::Data || !bound[i])
        continue;
      auto found = uses.find(p.name.id);
      ParamUse u = found == uses.end() ? ParamUse{} : found->second;
      u.param = &p;
      if (u.read || u.written || u.reduced)
        out.push_back({u, bound[i]});
    }
    return out;
  }

  void declare_data(const Sym &name, const Type &type, SrcLoc loc) {
    Buffer b;
    b.mem = analysis::resolve_memory(type.mem).info;
    b.shape = type.shape;
    b.tracked = b.mem && tracked_memory(*b.mem) && written_.count(name.id);
    if (b.tracked) {
      b.name = names_.bind(name);
      auto d = make(sync::StmtKind::Data, loc);
      d->name = b.name;
      for (const Expr &e : type.shape)
        d->dims.push_back(control(e));
      emit(std::move(d));
    }
    bufs_[name.id] = b;
  }

  /// The root buffer of `buf`, with `coords` (in `buf`'s coordinates)
  /// turned into the root's; false for an open slice end of a shifted view,
  /// which the front end does not produce.
  bool to_root(Sym &buf, std::vector<Coord> &coords) const {
    auto v = views_.find(buf.id);
    if (v == views_.end())
      return true;
    std::vector<Coord> rc;
    size_t next = 0;
    for (size_t d = 0; d < v->second.is_slice.size(); ++d) {
      const Expr &st = v->second.start[d];
      if (!v->second.is_slice[d]) {
        rc.push_back(Coord{false, st, Expr()});
        continue;
      }
      Coord c = next < coords.size() ? coords[next] : Coord{true, Expr(), Expr()};
      ++next;
      const auto *zero = st.as<IntImm>();
      if (!c.slice)
        rc.push_back(Coord{false, plus(st, c.lo), Expr()});
      else if (zero && zero->value == 0)
        rc.push_back(c); // an identity slice keeps open ends
      else if (!c.hi)
        return false;
      else
        rc.push_back(Coord{true, plus(st, c.lo ? c.lo : IntImm::make(0)), plus(st, c.hi)});
    }
    coords = std::move(rc);
    buf = v->second.root;
    return true;
  }

  /// The root buffer of `buf` (null when not one this walk declared), with
  /// `coords` turned into its coordinates.
  const Buffer *resolve(const Sym &buf, std::vector<Coord> &coords) {
    Sym root = buf;
    if (!to_root(root, coords))
      return nullptr;
    auto it = bufs_.find(root.id);
    return it == bufs_.end() ? nullptr : &it->second;
  }

  /// Root coordinates as sync index items; `shape` closes open slices (none
  /// for barriers, whose slices the front end writes closed or whole).
  std::vector<sync::IndexItem> index(const std::vector<Coord> &coords,
                                     const std::vector<Expr> &shape = {}) {
    std::vector<sync::IndexItem> idx;
    for (size_t d = 0; d < coords.size(); ++d) {
      const Coord &c = coords[d];
      if (!c.slice)
        idx.push_back(sync::IndexItem::point(control(c.lo)));
      else if ((!c.lo && !c.hi) || (!c.hi && d >= shape.size()))
        idx.push_back(sync::IndexItem::all());
      else
        idx.push_back(sync::IndexItem::window(control(c.lo ? c.lo : IntImm::make(0)),
                                              control(c.hi ? c.hi : shape[d])));
    }
    return idx;
  }

  static std::vector<Coord> points(const std::vector<Expr> &idx) {
    std::vector<Coord> c;
    for (const Expr &e : idx)
      c.push_back(Coord{false, e, Expr()});
    return c;
  }
  static std::vector<Coord> window_coords(const WindowExpr &w) {
    std::vector<Coord> c;
    for (const WindowIdx &i : w.idx)
      c.push_back(Coord{i.is_slice, i.lo, i.hi});
    return c;
  }

  struct AccessFlags {
    sync::AccessKind kind = sync::AccessKind::Read;
    analysis::InstrTimeline timeline = analysis::InstrTimeline::CudaInOrder;
    bool ooo = false, clip = false;
    bool atomic = false; // an `atomic:` reduction: commutes with other atomic ones
    std::optional<bool> convergent; // else the qual's default
    std::vector<sync::BarrierRef> bars;
  };

  /// An access of `buf` at `coords`; nothing for untracked memory.
  void access(const Sym &buf, std::vector<Coord> coords, SrcLoc loc, const AccessFlags &f) {
    const Buffer *b = resolve(buf, coords);
    if (!b) {
      unsupported(loc, "an access of '" + buf.name + "' through this window");
      return;
    }
    if (!b->tracked)
      return;
    if (coords.empty()) // a whole buffer passed by name
      coords.assign(b->shape.size(), Coord{true, Expr(), Expr()});
    if (!kernel_) {
      unsupported(loc, "a host access of '" + buf.name + "' @ " + b->mem->name);
      return;
    }
    std::optional<AccessQuals> q = access_quals(*b->mem, f.timeline);
    if (!q) {
      unsupported(loc, std::string("an access of '") + buf.name + "' @ " + b->mem->name +
                           " on the timeline '" + analysis::instr_timeline_name(f.timeline) + "'");
      return;
    }
    auto s = make(sync::StmtKind::Access, loc);
    s->name = b->name;
    s->access = f.kind;
    s->targets.push_back(index(coords, b->shape));
    s->initial = q->initial;
    s->ext = q->ext;
    s->ooo = f.ooo;
    s->clip = f.clip;
    s->atomic = f.atomic ? q->ext : 0;
    s->conv = f.convergent.value_or(q->convergent);
    s->bars = f.bars;
    emit(std::move(s));
  }

  /// The reads of tracked memory in `e`, by one thread in order.
  void reads(const Expr &e, SrcLoc loc) {
    struct Reads : IRVisitor {
      Lowerer &l;
      SrcLoc at;
      Reads(Lowerer &l, SrcLoc at) : l(l), at(at) {}
      void visit_node(const Read *r) override {
        AccessFlags f;
        f.convergent = true;
        l.access(r->buf, points(r->idx), r->loc.valid() ? r->loc : at, f);
        IRVisitor::visit_node(r);
      }
    } v(*this, loc);
    if (e)
      v.visit(e);
  }

  // --- Statements ---------------------------------------------------------

  void lower_block(const Block &b) {
    std::vector<std::pair<Sym, SrcLoc>> allocated;
    for (const Stmt &s : b) {
      lower_stmt(s);
      if (const auto *a = s.as<Alloc>())
        allocated.push_back({a->name, a->loc});
    }
    for (auto it = allocated.rbegin(); it != allocated.rend(); ++it)
      free_buffer(it->first, it->second);
  }

  void free_buffer(const Sym &name, SrcLoc loc) {
    std::string sync_name;
    bool shared = false, mbarrier = false;
    if (auto b = bufs_.find(name.id); b != bufs_.end()) {
      if (!b->second.tracked)
        return;
      sync_name = b->second.name;
      shared = b->second.mem->space == MemSpace::Shared;
    } else if (auto bar = barriers_.find(name.id); bar != barriers_.end()) {
      sync_name = bar->second;
      mbarrier = mbarriers_.count(name.id) != 0;
    } else {
      return;
    }
    auto f = make(sync::StmtKind::Free, loc);
    f->name = sync_name;
    // Freed shared memory may be reused by the CTA's next task: every thread
    // must be ordered after every access (docs/sync.md).
    f->has_check = shared;
    f->check = shared ? sync::bit(sync::Qual::Cuda2) : 0;
    // An mbarrier of a task is the same physical barrier in the CTA's next
    // task (the kernel is persistent, and phases carry over): every thread
    // must be ordered after every Arrive and Await on it, or a producer that
    // runs ahead completes a phase its consumer has not tested yet, which
    // parity waits cannot tell apart. With that order and every element
    // arrived exactly once (one-shot), the next task starts from the state
    // the model gives a fresh barrier.
    if (mbarrier) {
      f->has_check = true;
      f->check = sync::bit(sync::Qual::Mbar);
    }
    emit(std::move(f));
  }

  void lower_stmt(const Stmt &s) {
    // The inlined body of a call in device code: its statements say where
    // the call is, for the notes of a hazard inside it.
    auto inlined = facts_.inlined_from.find(s->id);
    if (inlined == facts_.inlined_from.end())
      return lower_stmt_here(s);
    const gpu::CallSite *saved = call_site_;
    call_site_ = &inlined->second;
    lower_stmt_here(s);
    call_site_ = saved;
  }

  void lower_stmt_here(const Stmt &s) {
    if (const auto *a = s.as<Assign>())
      return store(a->buf, a->idx, a->rhs, sync::AccessKind::Write, s->loc);
    if (const auto *r = s.as<Reduce>())
      return store(r->buf, r->idx, r->rhs, sync::AccessKind::Update, s->loc);
    if (const auto *a = s.as<Alloc>())
      return alloc(a);
    if (const auto *w = s.as<WindowStmt>())
      return window(w);
    if (const auto *f = s.as<For>())
      return loop(f);
    if (const auto *i = s.as<If>())
      return branch(i);
    if (const auto *c = s.as<CallStmt>())
      return call(c);
    if (const auto *w = s.as<With>())
      return with(w);
    if (const auto *f = s.as<Fence>())
      return fence(f);
    if (const auto *a = s.as<Arrive>())
      return arrive(a);
    if (const auto *a = s.as<Await>())
      return await(a);
  }

  void store(const Sym &buf, const std::vector<Expr> &idx, const Expr &rhs, sync::AccessKind k,
             SrcLoc loc) {
    reads(rhs, loc);
    AccessFlags f;
    f.kind = k;
    f.convergent = true; // one thread writes (the GPU semantics stage checked it)
    access(buf, points(idx), loc, f);
  }

  void alloc(const Alloc *a) {
    if (a->type.kind == Type::Kind::Data)
      return declare_data(a->name, a->type, a->loc);
    if (a->type.kind != Type::Kind::Barrier)
      return;
    // The GPU stage read the barrier (gpu/barrier_plan.h), as codegen does.
    const std::map<uint32_t, gpu::BarrierPlan> *plans = kernel_ ? &kernel_->barriers : nullptr;
    auto planned = plans ? plans->find(a->name.id) : decltype(plans->end()){};
    if (!plans || planned == plans->end())
      return void(unsupported(a->loc, "a barrier outside the task body of a device function"));
    const gpu::BarrierPlan &plan = planned->second;
    // In a cluster, the GPU stage checked that dimension 0 of an mbarrier is
    // the CTA holding each element (its shard), so `bar[cta, k]` is CTA
    // cta's element and an Arrive's `>> bar[:, k]` arrives on every CTA's.
    if (kernel_->config.env.cluster_dim > 1 && plan.kind == gpu::BarrierKind::Mbarrier &&
        !kernel_->cluster_barriers.count(a->name.id))
      return void(unsupported(a->loc, "an mbarrier the GPU stage did not shard over the cluster"));
    auto b = make(sync::StmtKind::Barrier, a->loc);
    b->name = names_.bind(a->name);
    for (const Expr &e : a->type.shape)
      b->dims.push_back(control(e));
    switch (plan.kind) {
    case gpu::BarrierKind::Mbarrier:
      b->one_shot_arrive = true;
      b->checked = true;
      b->pre_arrive = static_cast<int>(plan.pre_arrive);
      mbarriers_.insert(a->name.id);
      break;
    case gpu::BarrierKind::ClusterSync:
      b->one_shot_arrive = b->one_shot_await = true;
      break;
    case gpu::BarrierKind::WgmmaCommitGroup:
    case gpu::BarrierKind::TmaCommitGroup:
    case gpu::BarrierKind::CommitGroup:
      break;
    }
    if (plan.ring_dim >= 0) {
      b->ring_dim = plan.ring_dim;
      b->ring_depth = static_cast<int>(plan.ring);
    }
    barriers_[a->name.id] = b->name;
    emit(std::move(b));
  }

  void window(const WindowStmt *w) {
    const auto *rhs = w->rhs.as<WindowExpr>();
    if (!rhs)
      return;
    std::vector<Coord> coords = window_coords(*rhs);
    Sym root = rhs->buf;
    if (!to_root(root, coords)) // a window of a window: one view of the root
      return;
    View v;
    v.root = root;
    for (const Coord &c : coords) {
      v.is_slice.push_back(c.slice);
      v.start.push_back(c.slice ? (c.lo ? c.lo : IntImm::make(0)) : c.lo);
    }
    views_[w->name.id] = v;
  }

  void loop(const For *f) {
    sync::StmtKind kind = sync::StmtKind::Seq;
    switch (f->mode.kind()) {
    case LoopKind::CudaThreads: return threads_loop(f);
    case LoopKind::CudaTasks: kind = sync::StmtKind::Tasks; break;
    case LoopKind::Seq: break;
    }
    sync::Expr lo = control(f->lo), hi = control(f->hi);
    auto s = make(kind, f->loc);
    s->name = names_.bind(f->iter);
    s->value = lo;
    s->hi = hi;
    emit_with_body(std::move(s), f->body);
    names_.release(f->iter);
  }

  void threads_loop(const For *f) {
    auto it = kernel_ ? kernel_->loops.find(f) : decltype(kernel_->loops.end()){};
    if (!kernel_ || it == kernel_->loops.end())
      return void(unsupported(f->loc, "this 'cuda_threads' loop (outside a checked kernel)"));
    const gpu::ThreadLoopFacts &lf = it->second;
    std::string name = names_.bind(f->iter);
    if (lf.trivial) { // the unit does not narrow the collective: one trip
      auto t = make(sync::StmtKind::Seq, f->loc);
      t->name = name;
      t->value = sync::ExprNode::make_int(0);
      t->hi = sync::ExprNode::make_int(1);
      emit_with_body(std::move(t), f->body);
    } else {
      narrow(lf.grid, name, control(f->hi), f->body, f->loc);
    }
    names_.release(f->iter);
  }

  /// `threads name in 0..hi` over `grid`'s dimension, with `body` inside.
  /// The unit may refine the grid (256 threads as 8 warps x 32 lanes): one
  /// `reshape` per split dimension around it, last first so indices stay put.
  void narrow(const gpu::GridNarrowing &grid, const std::string &name, sync::Expr hi,
              const Block &body, SrcLoc loc) {
    auto t = make(sync::StmtKind::Threads, loc);
    t->name = name;
    t->value = sync::ExprNode::make_int(0);
    t->hi = std::move(hi);
    t->dim = static_cast<int>(grid.dim);
    t->width = t->stride = grid.width;
    t->offset = grid.offset;
    sync::Block *saved = block_;
    block_ = &t->body;
    lower_block(body);
    block_ = saved;
    sync::StmtP inner = std::move(t);
    for (const auto &[dim, factors] : splits(grid.parent_domain, grid.domain)) {
      auto r = make(sync::StmtKind::Reshape, loc);
      r->dim = static_cast<int>(dim);
      r->ints = factors;
      r->body.push_back(std::move(inner));
      inner = std::move(r);
    }
    emit(std::move(inner));
  }

  /// Which dimensions of `from` `to` splits, and into what, last first.
  static std::vector<std::pair<size_t, std::vector<int64_t>>>
  splits(const std::vector<int64_t> &from, const std::vector<int64_t> &to) {
    std::vector<std::pair<size_t, std::vector<int64_t>>> out;
    size_t c = 0;
    for (size_t d = 0; d < from.size(); ++d) {
      std::vector<int64_t> group;
      int64_t prod = 1;
      while (c < to.size() && (group.empty() || prod < from[d])) {
        prod *= to[c];
        group.push_back(to[c++]);
      }
      if (group.size() > 1)
        out.insert(out.begin(), {d, group});
    }
    return out;
  }

  void branch(const If *i) {
    auto s = make(sync::StmtKind::If, i->loc);
    s->value = control(i->cond);
    sync::Block *saved = block_;
    block_ = &s->body;
    lower_block(i->then_body);
    block_ = &s->else_body;
    lower_block(i->else_body);
    block_ = saved;
    emit(std::move(s));
  }

  void with(const With *w) {
    switch (w->context()) {
    case ContextKind::CudaWarps: return warps(w);
    case ContextKind::CudaDeviceFunction: return device_function(w);
    }
  }

  void warps(const With *w) {
    if (!kernel_)
      return void(unsupported(w->loc, "'with CudaWarps'"));
    auto it = kernel_->warps.find(w);
    if (it == kernel_->warps.end())
      return void(unsupported(w->loc, "this 'CudaWarps' block"));
    if (it->second.trivial) // all of a one-warp collective
      return lower_block(w->body);
    // The chosen warps run the body together: a one-trip threads loop.
    std::string name = names_.fresh("warps");
    narrow(it->second.grid, name, sync::ExprNode::make_int(1), w->body, w->loc);
    names_.release_name(name);
  }

  void device_function(const With *w) {
    auto k = facts_.kernels.find(w);
    if (kernel_ || k == facts_.kernels.end())
      return void(unsupported(w->loc, "this device function"));
    kernel_ = &k->second;
    auto d = make(sync::StmtKind::Device, w->loc);
    if (kernel_->config.env.cluster_dim > 1)
      d->ints.push_back(kernel_->config.env.cluster_dim);
    d->ints.push_back(kernel_->config.env.block_dim);
    emit_with_body(std::move(d), w->body);
    kernel_ = nullptr;
    // The kernel's end: its threads join; the stream orders what follows.
    emit(make(sync::StmtKind::Join, w->loc));
    auto fence = make(sync::StmtKind::Fence, w->loc);
    fence->l1 = fence->l2 = *sync::lookup_sync_tl("cuda_stream_sync");
    emit(std::move(fence));
  }

  std::optional<sync::SyncTl> timeline(const std::string &name, SrcLoc loc) {
    std::optional<sync::SyncTl> tl = sync::lookup_sync_tl(name);
    if (!tl)
      unsupported(loc, "the sync-timeline '" + name + "'");
    return tl;
  }

  std::optional<sync::BarrierRef> barrier_ref(const Expr &e) {
    sync::BarrierRef ref;
    Sym buf;
    std::vector<Coord> coords;
    if (const auto *r = e.as<Read>()) {
      buf = r->buf;
      coords = points(r->idx);
    } else if (const auto *w = e.as<WindowExpr>()) {
      buf = w->buf;
      coords = window_coords(*w);
    } else if (const auto *v = e.as<Var>()) {
      buf = v->name;
    }
    auto it = barriers_.find(buf.id);
    if (it == barriers_.end()) {
      unsupported(e->loc, "this barrier expression");
      return std::nullopt;
    }
    ref.name = it->second;
    ref.idx = index(coords);
    return ref;
  }

  void fence(const Fence *f) {
    if (!kernel_)
      return void(unsupported(f->loc, "a Fence on the host"));
    auto l1 = timeline(f->first, f->loc), l2 = timeline(f->second, f->loc);
    if (!l1 || !l2)
      return;
    auto s = make(sync::StmtKind::Fence, f->loc);
    s->l1 = *l1;
    s->l2 = *l2;
    emit(std::move(s));
  }

  void arrive(const Arrive *a) {
    auto l1 = timeline(a->timeline, a->loc);
    if (!l1)
      return;
    auto s = make(sync::StmtKind::Arrive, a->loc);
    s->l1 = *l1;
    for (const Expr &b : a->barriers)
      if (auto ref = barrier_ref(b))
        s->bars.push_back(*ref);
    emit(std::move(s));
  }

  void await(const Await *a) {
    auto l2 = timeline(a->timeline, a->loc);
    std::optional<sync::BarrierRef> ref = barrier_ref(a->bar);
    const auto *n = a->n.as<IntImm>();
    if (!n)
      return void(unsupported(a->loc, "an Await count that is not an integer literal"));
    if (!l2 || !ref)
      return;
    auto s = make(sync::StmtKind::Await, a->loc);
    s->l2 = *l2;
    s->bars.push_back(*ref);
    s->n = n->value;
    emit(std::move(s));
  }

  /// An instruction call: one access per argument in tracked memory, made on
  /// the instruction's timeline, with its trailing barriers.
  void call(const CallStmt *c) {
    Proc callee = callee_ ? callee_(c->callee) : nullptr;
    if (!callee || !callee->is_instr)
      return void(unsupported(c->loc, "a call of the proc '" + c->callee + "' (inline it)"));
    if (!kernel_)
      return void(unsupported(c->loc, "an instruction call on the host"));
    const InstrAttr *tl = callee->attr("timeline");
    AccessFlags base;
    if (tl && !tl->values.empty()) {
      std::optional<analysis::InstrTimeline> named =
          analysis::instr_timeline(print_expr(tl->values[0]));
      EXGC_CHECK(named) << "instr '" << callee->name << "': a timeline the typecheck refuses";
      base.timeline = *named;
    }
    for (const Expr &b : c->barriers)
      if (auto ref = barrier_ref(b))
        base.bars.push_back(*ref);
    for (const auto &[use, arg] : instr_data_args(*c)) {
      AccessFlags f = base;
      f.kind = use.reduced || (use.read && use.written) ? sync::AccessKind::Update
               : use.written                             ? sync::AccessKind::Write
                                                         : sync::AccessKind::Read;
      f.ooo = instr_attr_names(*callee, "out_of_order", use.param->name.name);
      // `atomic: dst`: the hardware adds element by element atomically (TMA
      // reduce-add stores), so such updates commute with each other. The
      // typecheck made sure the behaviour only adds into it
      // (AtomicNotReduction).
      f.atomic = instr_attr_names(*callee, "atomic", use.param->name.name);
      EXGC_CHECK(!f.atomic || (use.reduced && !use.read && !use.written))
          << "atomic parameter " << use.param->name.name << " of " << callee->name
          << " is not only reduced into";
      // Atomic float adds commute only up to rounding: the check accepts them
      // in any order, so the caller says the result is defined that far.
      const ValueType t = use.param->type.scalar;
      if (f.atomic && t != ValueType::I8 && t != ValueType::U8 && t != ValueType::U16 &&
          t != ValueType::I32)
        if (const Sym *buf = named_buffer(arg))
          out_.reassociated.push_back({c->loc, callee->name, buf->name});
      // A window is clipped to its buffer: what the behaviour
      // touches of it the bounds check proved in bounds (guarded stores,
      // `out_of_bounds:` TMA boxes); the rest is never accessed.
      f.clip = true;
      if (const auto *win = arg.as<WindowExpr>())
        access(win->buf, window_coords(*win), c->loc, f);
      else if (const auto *rd = arg.as<Read>())
        access(rd->buf, points(rd->idx), c->loc, f);
      else if (const auto *v = arg.as<Var>())
        access(v->name, {}, c->loc, f);
    }
  }

  const ProcNode &proc_;
  const gpu::GpuFacts &facts_;
  const gpu::CalleeLookup &callee_;
  const SourceManager &sources_;
  DiagEngine &diag_;
  Lowered &out_;
  ControlNames names_;
  std::map<uint32_t, Buffer> bufs_;
  std::map<uint32_t, View> views_;
  std::map<uint32_t, std::string> barriers_;
  std::set<uint32_t> mbarriers_; // CudaMbarrier allocations, by Sym id
  std::set<uint32_t> written_;
  std::map<const ProcNode *, std::map<uint32_t, ParamUse>> param_uses_;
  sync::Block *block_ = nullptr;
  const gpu::KernelFacts *kernel_ = nullptr; // null on the host
  const gpu::CallSite *call_site_ = nullptr; // of the inlined call being lowered
  bool ok_ = true;
};

} // namespace

bool lower_proc(const ProcNode &proc, const std::map<std::string, int64_t> &sizes,
                const gpu::GpuFacts &facts, const gpu::CalleeLookup &callee,
                const SourceManager &sources, DiagEngine &diag, Lowered &out) {
  Lowerer l(proc, facts, callee, sources, diag, out);
  return l.run(sizes);
}

} // namespace exgc::synclower
