// lower.cpp - a proc at concrete sizes as a sync program -------------------//
// One walk over the proc. Host statements keep only their control flow (host
// memory is not tracked); a device function becomes a `device` block, its
// `cuda_tasks` loops `tasks`, its `cuda_threads` loops `threads` (inside the
// `reshape`s their unit needs), every access of tracked memory an access
// statement on its root buffer, and sync statements themselves.
// This file owns the entry (lower_proc, Lowerer::run), the output helpers and
// the walk over statements; lowerer.h lists where the rest of Lowerer is.
#include "compiler/synclower/lowerer.h"

#include "compiler/ir/printer.h"
#include "compiler/support/check.h"

namespace exgc::synclower {

namespace lower_detail {

bool Lowerer::run(const std::map<std::string, int64_t> &sizes) {
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

sync::StmtP Lowerer::make(sync::StmtKind k, SrcLoc loc) {
  sync::StmtP s = sync::make_stmt(k);
  if (loc.valid())
    s->loc = sync::SrcLoc{sources_.name(loc.file), static_cast<int>(loc.line),
                          static_cast<int>(loc.col)};
  out_.origins[s.get()] = Origin{loc, kernel_, call_site_};
  return s;
}

sync::Stmt *Lowerer::emit(sync::StmtP s) {
  block_->push_back(std::move(s));
  return block_->back().get();
}

void Lowerer::emit_with_body(sync::StmtP s, const Block &body) {
  sync::Block *saved = block_;
  block_ = &s->body;
  lower_block(body);
  block_ = saved;
  emit(std::move(s));
}

bool Lowerer::unsupported(SrcLoc loc, const std::string &what) {
  diag_.report(loc, DiagKind::SyncLoweringUnsupported, proc_.name, what);
  return ok_ = false;
}

sync::Expr Lowerer::control(const Expr &e) {
  Expr bad;
  sync::Expr s = to_sync(e, names_, &bad);
  if (!s && ok_)
    unsupported(bad ? bad->loc : proc_.loc,
                "the control expression '" + (bad ? print_expr(bad) : std::string("?")) + "'");
  return s;
}

void Lowerer::lower_block(const Block &b) {
  std::vector<std::pair<Sym, SrcLoc>> allocated;
  for (const Stmt &s : b) {
    lower_stmt(s);
    if (const auto *a = s.as<Alloc>())
      allocated.push_back({a->name, a->loc});
  }
  for (auto it = allocated.rbegin(); it != allocated.rend(); ++it)
    free_buffer(it->first, it->second);
}

void Lowerer::lower_stmt(const Stmt &s) {
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

void Lowerer::lower_stmt_here(const Stmt &s) {
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

void Lowerer::store(const Sym &buf, const std::vector<Expr> &idx, const Expr &rhs,
                    sync::AccessKind k, SrcLoc loc) {
  reads(rhs, loc);
  AccessFlags f;
  f.kind = k;
  f.convergent = true; // one thread writes (the GPU semantics stage checked it)
  access(buf, points(idx), loc, f);
}

void Lowerer::loop(const For *f) {
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

void Lowerer::threads_loop(const For *f) {
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

void Lowerer::narrow(const gpu::GridNarrowing &grid, const std::string &name, sync::Expr hi,
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

std::vector<std::pair<size_t, std::vector<int64_t>>>
Lowerer::splits(const std::vector<int64_t> &from, const std::vector<int64_t> &to) {
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

void Lowerer::branch(const If *i) {
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

void Lowerer::with(const With *w) {
  switch (w->context()) {
  case ContextKind::CudaWarps: return warps(w);
  case ContextKind::CudaDeviceFunction: return device_function(w);
  }
}

void Lowerer::warps(const With *w) {
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

void Lowerer::device_function(const With *w) {
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

} // namespace lower_detail

using lower_detail::Lowerer;

bool lower_proc(const ProcNode &proc, const std::map<std::string, int64_t> &sizes,
                const gpu::GpuFacts &facts, const gpu::CalleeLookup &callee,
                const SourceManager &sources, DiagEngine &diag, Lowered &out) {
  Lowerer l(proc, facts, callee, sources, diag, out);
  return l.run(sizes);
}

} // namespace exgc::synclower
