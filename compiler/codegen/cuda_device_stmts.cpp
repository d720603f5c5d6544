// cuda_device_stmts.cpp - the statements of a kernel body -------------------//
#include "compiler/codegen/cuda_device_stmts.h"

#include "compiler/codegen/cuda_kernel.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"

namespace exgc::codegen {

bool unit_threads(const Expr &u, int64_t &out) {
  if (const auto *v = u.as<Var>()) {
    const std::string &n = v->name.name;
    out = n == "cuda_thread" ? 1 : n == "cuda_warp" ? 32 : n == "cuda_warpgroup" ? 128 : 0;
    return out != 0;
  }
  const auto *m = u.as<BinOp>();
  int64_t k, inner;
  if (!m || m->op != BinOpKind::Mul)
    return false;
  if ((const_int(m->a, k) && unit_threads(m->b, inner)) ||
      (const_int(m->b, k) && unit_threads(m->a, inner))) {
    if (k < 1 || k > 1024)
      return false;
    out = k * inner;
    return true;
  }
  return false;
}

namespace {

bool is_rmem(const Expr &mem) {
  return analysis::resolve_memory(mem).info &&
         analysis::resolve_memory(mem).info->name == std::string("CudaRmem");
}

/// Finds, for each register array, the leading dimensions its threads own.
class DistributedDims : public IRVisitor {
public:
  std::map<uint32_t, size_t> result;

protected:
  struct ThreadLoop {
    uint32_t iter;
    std::string shape; // bounds and unit: equal shapes split threads alike
  };
  struct Buffer {
    size_t depth; // thread loops around the allocation
    size_t dims;  // candidate count, lowered by each access
    std::vector<std::string> shapes; // of the loops owning each dimension
  };

  void visit_node(const For *op) override {
    bool threads = op->mode.name == "cuda_threads";
    if (threads) {
      const Expr *u = op->mode.kwarg("unit");
      loops_.push_back({op->iter.id, print_expr(op->lo) + ":" + print_expr(op->hi) + ":" +
                                         (u && *u ? print_expr(*u) : std::string("1"))});
    }
    IRVisitor::visit_node(op);
    if (threads)
      loops_.pop_back();
  }
  void visit_node(const Alloc *op) override {
    if (op->type.kind == Type::Kind::Data && op->type.is_tensor() && is_rmem(op->type.mem))
      bufs_[op->name.id] = Buffer{loops_.size(), op->type.shape.size(), {}};
    IRVisitor::visit_node(op);
  }
  void visit_node(const Read *op) override {
    access(op->buf, op->idx);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Assign *op) override {
    access(op->buf, op->idx);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    access(op->buf, op->idx);
    IRVisitor::visit_node(op);
  }
  // Whole-buffer uses and windows keep every dimension.
  void visit_node(const Var *op) override { none(op->name); }
  void visit_node(const WindowExpr *op) override {
    none(op->buf);
    IRVisitor::visit_node(op);
  }

private:
  void none(const Sym &s) {
    auto it = bufs_.find(s.id);
    if (it != bufs_.end())
      it->second.dims = 0, result[s.id] = 0;
  }
  void access(const Sym &s, const std::vector<Expr> &idx) {
    auto it = bufs_.find(s.id);
    if (it == bufs_.end())
      return;
    Buffer &b = it->second;
    size_t k = 0;
    while (k < b.dims && k < idx.size() && b.depth + k < loops_.size()) {
      const auto *v = idx[k].as<Var>();
      const ThreadLoop &l = loops_[b.depth + k];
      if (!v || v->name.id != l.iter || (k < b.shapes.size() && b.shapes[k] != l.shape))
        break;
      if (k == b.shapes.size())
        b.shapes.push_back(l.shape);
      ++k;
    }
    b.dims = k;
    result[s.id] = k;
  }

  std::vector<ThreadLoop> loops_;
  std::map<uint32_t, Buffer> bufs_;
};

int64_t element_bytes(ValueType t) {
  switch (t) {
  case ValueType::F64: case ValueType::Int: case ValueType::Size: case ValueType::Index: return 8;
  case ValueType::F32: case ValueType::I32: return 4;
  case ValueType::U16: case ValueType::F16: case ValueType::BF16: return 2;
  default: return 1;
  }
}

} // namespace

std::map<uint32_t, size_t> distributed_dims(const Block &body) {
  DistributedDims d;
  d.visit(body);
  return d.result;
}

void DeviceStmtEmitter::emit_store(const Stmt &s, const Sym &buf, const std::vector<Expr> &idx,
                                   const Expr &rhs, bool reduce) {
  if (coll_ > 1) {
    ok_ = false;
    ex_.diag().report(s->loc, DiagKind::CollectiveWrite, buf.name, coll_);
    return;
  }
  StmtEmitter::emit_store(s, buf, idx, rhs, reduce);
}

bool DeviceStmtEmitter::constant_count(const Alloc *a, size_t first, DiagKind kind,
                                       int64_t &count) {
  count = 1;
  for (size_t d = first; d < a->type.shape.size(); ++d) {
    const Expr &e = a->type.shape[d];
    int64_t c;
    if (!const_int(e, c) || c < 1 || count * c > 65536) {
      ok_ = false;
      ex_.diag().report(e->loc.valid() ? e->loc : a->loc, kind, a->name.name);
      return false;
    }
    count *= c;
  }
  return true;
}

bool DeviceStmtEmitter::shared_alloc(const Alloc *a, Binding &b) {
  // One array per CTA: an allocation inside a thread loop would have to be
  // one per part of the collective, which a `__shared__` declaration is not.
  if (coll_ != cta_)
    return fail(a->loc, "a 'CudaSmemLinear' allocation inside a 'cuda_threads' loop");
  int64_t count = 1;
  if (!constant_count(a, 0, DiagKind::SharedShapeNotConstant, count))
    return false;
  std::string name = names_.take(a->name.name);
  b.expr = name;
  shared_bytes_ += count * element_bytes(a->type.scalar);
  if (!a->type.is_tensor()) {
    w_.line("__shared__ " + b.ctype + " " + name + ";");
    b.writable = true;
    return true;
  }
  w_.line("__shared__ __align__(16) " + b.ctype + " " + name + "[" + std::to_string(count) + "];");
  b.kind = Binding::Kind::View;
  b.dense = true;
  b.strides = dense_strides(a->type.shape, ex_);
  return true;
}

void DeviceStmtEmitter::emit_alloc(const Alloc *a) {
  const Type &t = a->type;
  if (t.kind == Type::Kind::Barrier)
    return void(fail(a->loc, "'barrier' allocations"));
  Binding b;
  b.sym = a->name;
  b.mem = t.mem;
  b.decl_loc = a->loc;
  b.in_device = true;
  const analysis::MemoryInfo *m = memory_of(b);
  std::string mname = m ? m->name : analysis::memory_name(t.mem);
  if (m && m->space == analysis::MemSpace::Host) {
    ok_ = false;
    ex_.diag().report(a->loc, DiagKind::DeviceAccessesHostMemory, a->name.name, mname);
    return;
  }
  if (!m || (mname != "CudaRmem" && mname != "CudaSmemLinear"))
    return void(fail(t.mem ? t.mem->loc : a->loc, "'" + mname + "'"));
  b.type = t.scalar;
  b.ctype = c_type(t.scalar);
  if (b.ctype.empty())
    return void(fail(t.loc.valid() ? t.loc : a->loc,
                     std::string("element type '") + value_type_name(t.scalar) + "'"));
  if (mname == "CudaSmemLinear") {
    if (!shared_alloc(a, b))
      b.strides.assign(t.shape.size(), "0"); // bound anyway: later uses report nothing more
    ex_.env().bind(a->name, b);
    return;
  }
  std::string name = names_.take(a->name.name);
  b.expr = name;
  if (!t.is_tensor()) {
    w_.line(b.ctype + " " + name + " = 0;");
    b.writable = true;
    ex_.env().bind(a->name, b);
    return;
  }
  // Bound even when rejected, so later uses of the name report nothing more.
  b.kind = Binding::Kind::View;
  auto it = distributed_.find(a->name.id);
  size_t owned = it == distributed_.end() ? 0 : it->second;
  int64_t count = 1;
  if (!constant_count(a, owned, DiagKind::RegisterShapeNotConstant, count)) {
    b.strides.assign(t.shape.size(), "0");
    ex_.env().bind(a->name, b);
    return;
  }
  // The dimensions the threads own are this thread's index: stride 0.
  std::vector<Expr> own(t.shape.begin() + static_cast<long>(owned), t.shape.end());
  b.strides.assign(owned, "0");
  for (const std::string &s : dense_strides(own, ex_))
    b.strides.push_back(s);
  b.dense = owned == 0;
  if (owned)
    w_.line("// '" + a->name.name + "': its first " + std::to_string(owned) +
            " dimension(s) index the threads; each keeps its own part");
  w_.line(b.ctype + " " + name + "[" + std::to_string(count) + "] = {};");
  ex_.env().bind(a->name, b);
}

void DeviceStmtEmitter::emit_window(const WindowStmt *w) {
  if (w->mem)
    return void(fail(w->mem->loc, "'" + analysis::memory_name(w->mem) + "' windows"));
  StmtEmitter::emit_window(w);
}

void DeviceStmtEmitter::emit_for(const For *f) {
  const std::string &mode = f->mode.name;
  if (mode == "seq") {
    std::string pragma;
    if (const Expr *u = f->mode.kwarg("unroll")) {
      int64_t k;
      if (!*u || !const_int(*u, k) || k < 0)
        return void(fail(*u ? (*u)->loc : f->loc, "a non-constant 'unroll'"));
      pragma = k == 0 ? "#pragma unroll" : "#pragma unroll " + std::to_string(k);
    }
    return seq_for(f, pragma);
  }
  if (mode == "cuda_threads")
    return threads_loop(f);
  if (mode == "cuda_tasks") {
    ok_ = false;
    ex_.diag().report(f->loc, DiagKind::TaskNestShape,
                      "'cuda_tasks' loop '" + f->iter.name + "' inside a task");
    return;
  }
  fail(f->loc, "'" + mode + "' loops");
}

void DeviceStmtEmitter::threads_loop(const For *f) {
  int64_t lo, hi, u = 1;
  if (!const_int(f->lo, lo) || !const_int(f->hi, hi)) {
    ok_ = false;
    ex_.diag().report(f->loc, DiagKind::ThreadsLoopNotConstant, f->iter.name);
    return;
  }
  if (const Expr *unit = f->mode.kwarg("unit"))
    if (!*unit || !unit_threads(*unit, u))
      return void(fail(*unit ? (*unit)->loc : f->loc,
                       "the unit '" + (*unit ? print_expr(*unit) : std::string()) + "'"));
  int64_t n = hi - lo;
  w_.line("// for " + f->iter.name + " in cuda_threads(" + std::to_string(lo) + ", " +
          std::to_string(hi) + ", unit=" + std::to_string(u) + " threads)");
  if (n <= 0)
    return; // no iteration: no thread runs the body
  if (n * u > coll_) {
    ok_ = false;
    ex_.diag().report(f->loc, DiagKind::ThreadsExceedCollective, f->iter.name, n * u, coll_);
    return;
  }
  w_.open(n * u < coll_ ? "if (" + tid_ + " < " + std::to_string(n * u) + ")" : "");
  std::string it = names_.take(f->iter.name);
  w_.line("[[maybe_unused]] const int64_t " + it + " = " + (lo ? std::to_string(lo) + " + " : "") +
          tid_ + (u > 1 ? " / " + std::to_string(u) : "") + ";");
  std::string tid = tid_;
  if (u == 1) {
    tid = "0"; // one thread: the only index in its collective
  } else if (u < coll_) {
    tid = names_.take_internal("exg_t");
    w_.line("[[maybe_unused]] const int " + tid + " = " + tid_ + " % " + std::to_string(u) + ";");
  }
  bind_iterator(f, it, true);
  std::swap(tid, tid_);
  int64_t saved = coll_;
  bool saved_aligned = warp_aligned_;
  coll_ = u;
  warp_aligned_ = warp_aligned_ && u % 32 == 0;
  block(f->body);
  coll_ = saved;
  warp_aligned_ = saved_aligned;
  std::swap(tid, tid_);
  ex_.env().pop();
  w_.close();
}

void DeviceStmtEmitter::emit_call(const CallStmt *c) {
  fail(c->loc, "the call of '" + c->callee + "' in device code");
}

void DeviceStmtEmitter::emit_with(const With *w) {
  const auto *c = w->ctx.as<Call>();
  std::string name = c ? c->func : w->ctx ? print_expr(w->ctx) : "with";
  if (name == "CudaDeviceFunction") {
    ok_ = false;
    ex_.diag().report(w->loc, DiagKind::DeviceFunctionNested);
    return;
  }
  fail(w->loc, "'" + name + "'");
}

void DeviceStmtEmitter::emit_sync(const Stmt &s) {
  const auto *f = s.as<Fence>();
  if (!f)
    return void(fail(s->loc, s.as<Arrive>() ? "'Arrive'" : "'Await'"));
  std::string what = "'Fence(" + f->first + ", " + f->second + ")'";
  if (f->first != "cuda_in_order" || f->second != "cuda_in_order")
    return void(fail(s->loc, what));
  // The collective runs the fence together: a whole CTA (every thread runs
  // the task loop and CTA-level code alike: their bounds and conditions are
  // the same for all threads), an aligned warp, or one thread.
  if (coll_ == cta_)
    w_.line("__syncthreads(); // " + what.substr(1, what.size() - 2));
  else if (coll_ == 32 && warp_aligned_)
    w_.line("__syncwarp(); // " + what.substr(1, what.size() - 2));
  else if (coll_ == 1)
    w_.line("// " + what.substr(1, what.size() - 2) + ": one thread, in order already");
  else
    fail(s->loc, what + " over a collective of " + std::to_string(coll_) + " threads");
}

} // namespace exgc::codegen
