// cuda_device_stmts.cpp - the statements of a kernel body -------------------//
#include "compiler/codegen/cuda_device_stmts.h"

#include "compiler/analysis/control_limits.h"
#include "compiler/codegen/cuda_instr.h"
#include "compiler/codegen/cuda_kernel.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/support/check.h"

#include <algorithm>

namespace exgc::codegen {

namespace {

/// Strides of an allocation whose first `owned` dimensions index its owners
/// (threads, warpgroups or CTAs): stride 0, since each owner keeps only its
/// own part; dense over the rest.
std::vector<std::string> owner_strides(const std::vector<Expr> &shape, size_t owned,
                                       ExprEmitter &ex) {
  std::vector<Expr> own(shape.begin() + static_cast<long>(owned), shape.end());
  std::vector<std::string> strides(owned, "0");
  for (const std::string &s : dense_strides(own, ex))
    strides.push_back(s);
  return strides;
}

} // namespace

int64_t DeviceStmtEmitter::elements(const Alloc *a) const {
  auto it = facts_.shared.elements.find(a);
  EXGC_CHECK(it != facts_.shared.elements.end()) << "an array the GPU stage did not size";
  return it->second;
}

int64_t DeviceStmtEmitter::offset(const Alloc *a) const {
  auto it = facts_.shared.offset.find(a);
  EXGC_CHECK(it != facts_.shared.offset.end()) << "shared memory the GPU stage did not place";
  return it->second;
}

void DeviceStmtEmitter::shared_alloc(const Alloc *a, CxxBinding &b) {
  // One array per CTA: the GPU stage checked that the whole CTA allocates it.
  const int64_t count = elements(a);
  std::string name = names_.take(a->name.name);
  b.expr = name;
  if (role_ >= 0) {
    // Each warp role has its own copy of the task body: a `__shared__`
    // declaration in each would give each role its own array. The GPU stage
    // placed the allocation node once in the dynamic pool, so every role
    // sees one.
    std::string at = "reinterpret_cast<" + b.ctype + " *>(" + smem_name_ + " + " +
                     std::to_string(offset(a)) + ")";
    if (!a->type.is_tensor()) {
      w_.line("[[maybe_unused]] " + b.ctype + " &" + name + " = *" + at + "; // " +
              print_type(a->type));
      b.writable = true;
      return;
    }
    w_.line("[[maybe_unused]] " + b.ctype + " *const " + name + " = " + at + "; // " +
            print_type(a->type));
  } else {
    if (!a->type.is_tensor()) {
      w_.line("__shared__ " + b.ctype + " " + name + ";");
      b.writable = true;
      return;
    }
    w_.line("__shared__ __align__(" + std::to_string(analysis::kAllocAlignBytes) + ") " +
            b.ctype + " " + name + "[" + std::to_string(count) + "];");
  }
  b.kind = CxxBinding::Kind::View;
  b.dense = true;
  b.strides = dense_strides(a->type.shape, ex_);
}

void DeviceStmtEmitter::emit_alloc(const Alloc *a) {
  const Type &t = a->type;
  if (t.kind == Type::Kind::Barrier) {
    if (!sync_.alloc(a))
      ok_ = false;
    return;
  }
  CxxBinding b;
  b.sym = a->name;
  b.mem = t.mem;
  b.decl_loc = a->loc;
  b.in_device = true;
  const analysis::MemoryInfo *m = memory_of(b);
  using analysis::MemId;
  const MemId id = m ? m->id : MemId::DRAM;
  bool hopper = id == MemId::Sm90_SmemSwizzled || id == MemId::Sm90_RmemMatrixD ||
                id == MemId::Sm90_RmemMatrixA;
  if (!m || (id != MemId::CudaRmem && id != MemId::CudaSmemLinear && !hopper))
    return void(fail(t.mem ? t.mem->loc : a->loc,
                     "'" + (m ? std::string(m->name) : analysis::memory_name(t.mem)) + "'"));
  b.type = t.scalar;
  b.ctype = c_type(t.scalar);
  if (b.ctype.empty())
    return void(fail(t.loc.valid() ? t.loc : a->loc,
                     std::string("element type '") + value_type_name(t.scalar) + "'"));
  if (hopper)
    return hopper_alloc(a, b, id);
  if (id == MemId::CudaSmemLinear) {
    shared_alloc(a, b);
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
  b.kind = CxxBinding::Kind::View;
  auto it = facts_.shards.find(a->name.id);
  size_t owned = it == facts_.shards.end() ? 0 : it->second.distributed;
  const int64_t count = elements(a);
  b.strides = owner_strides(t.shape, owned, ex_);
  b.dense = owned == 0;
  if (owned)
    w_.line("// '" + a->name.name + "': its first " + std::to_string(owned) +
            " dimension(s) index the threads; each keeps its own part");
  w_.line(b.ctype + " " + name + "[" + std::to_string(count) + "] = {};");
  ex_.env().bind(a->name, b);
}

void DeviceStmtEmitter::hopper_alloc(const Alloc *a, CxxBinding &b, analysis::MemId mem) {
  const Type &t = a->type;
  b.kind = CxxBinding::Kind::View;
  b.strides.assign(t.shape.size(), "0"); // bound even when refused
  std::string name = names_.take(a->name.name);
  b.expr = name;
  // The leading dimensions the GPU stage found distributed are the
  // warpgroups' (registers) or the cluster's CTAs' (shared memory): each
  // owner keeps only its part.
  auto shard = facts_.shards.find(a->name.id);
  size_t owned = shard == facts_.shards.end() ? 0 : shard->second.distributed;
  if (mem == analysis::MemId::Sm90_SmemSwizzled) {
    // TMA and wgmma swizzle by address bits: a buffer starts on a 1024-byte
    // repeat of the 128-byte swizzle (docs/hopper.md); the GPU stage placed it.
    const int64_t off = offset(a);
    b.dense = owned == 0;
    b.strides = owner_strides(t.shape, owned, ex_);
    const auto *sw = t.mem.as<Call>();
    if (!sw || sw->args.size() != 1 || !const_int(sw->args[0], b.swizzle_bytes) ||
        !swizzle_enumerator(b.swizzle_bytes)) {
      b.swizzle_bytes = 0;
      fail(t.mem->loc, "a swizzle other than 0, 32, 64 or 128 bytes");
    }
    b.swizzle_base = name;
    b.swizzle_origin = "0";
    // Each role's copy of the task body places every buffer; a role may not use it.
    w_.line("[[maybe_unused]] " + b.ctype + " *const " + name + " = reinterpret_cast<" +
            b.ctype + " *>(" + smem_name_ + " + " + std::to_string(off) + "); // " +
            print_type(t));
    return ex_.env().bind(a->name, b);
  }
  // Sm90_RmemMatrixD / A: the leading dimensions the GPU stage found
  // distributed are the warpgroups'; the constant dimensions after them
  // count this warpgroup's [64, N] tiles (slabs of 64 rows), one fragment
  // each. An A tile is [64, 16] of a 16-bit type (the .rs operand of k16).
  const bool matrix_a = mem == analysis::MemId::Sm90_RmemMatrixA;
  const size_t tile = t.shape.size() >= owned + 2 ? t.shape.size() - 2 : owned;
  std::string slabs;
  bool ok = t.shape.size() >= owned + 2 &&
            (matrix_a ? t.scalar == ValueType::BF16 || t.scalar == ValueType::F16
                      : t.scalar == ValueType::F32);
  for (size_t d = owned; ok && d < tile; ++d) {
    int64_t extent = 0;
    ok = const_int(t.shape[d], extent) && extent > 0;
    slabs += "[" + std::to_string(extent) + "]";
  }
  int64_t rows = 0, n = 0;
  if (!ok || !const_int(t.shape[tile], rows) || rows != 64 || !const_int(t.shape[tile + 1], n) ||
      (matrix_a ? n != 16 : n % 8 != 0 || n < 8 || n > 256)) {
    fail(a->loc, matrix_a ? "an 'Sm90_RmemMatrixA' allocation other than bf16 or f16[..., 64, 16] "
                            "with the leading dimensions distributed over warpgroups and the "
                            "others constant"
                          : "an 'Sm90_RmemMatrixD' allocation other than f32[..., 64, N] with the "
                            "leading dimensions distributed over warpgroups and the others "
                            "constant");
    return ex_.env().bind(a->name, b);
  }
  b.owned_dims = owned;
  // Unused in the copies of warp roles that never touch it.
  sync_.require_sm90();
  w_.line("[[maybe_unused]] exg::sm90::" +
          (matrix_a ? std::string("FragA16") : "AccumF32<" + std::to_string(n) + ">") + " " +
          name + slabs + "; // " + print_type(t) + ": this warpgroup's tile" +
          (slabs.empty() ? "" : "s"));
  ex_.env().bind(a->name, b);
}

void DeviceStmtEmitter::emit_window(const WindowStmt *w) {
  if (w->mem)
    return void(fail(w->mem->loc, "'" + analysis::memory_name(w->mem) + "' windows"));
  StmtEmitter::emit_window(w);
}

void DeviceStmtEmitter::emit_for(const For *f) {
  switch (f->mode.kind()) {
  case LoopKind::Seq: {
    std::string pragma;
    if (const Expr *u = f->mode.kwarg("unroll")) {
      int64_t k;
      if (!*u || !const_int(*u, k) || k < 0)
        return void(fail(*u ? (*u)->loc : f->loc, "a non-constant 'unroll'"));
      pragma = k == 0 ? "#pragma unroll" : "#pragma unroll " + std::to_string(k);
    }
    return seq_for(f, pragma);
  }
  case LoopKind::CudaThreads: return threads_loop(f);
  case LoopKind::CudaTasks: // the GPU stage allows them only in the task nest, not emitted here
    return void(fail(f->loc, "'cuda_tasks' loops"));
  }
}

std::string DeviceStmtEmitter::rank() const {
  return "static_cast<int>(blockIdx.x % " + std::to_string(facts_.config.env.cluster_dim) + ")";
}

std::string DeviceStmtEmitter::guard_condition(const gpu::CollIndex &guarded,
                                               std::optional<int64_t> lo,
                                               std::optional<int64_t> hi) const {
  std::string g = guarded.c_str(tid_, rank()), cond;
  if (lo && guarded.lo() < *lo)
    cond = g + " >= " + std::to_string(*lo);
  if (hi && guarded.hi() > *hi)
    cond += (cond.empty() ? "" : " && ") + g + " < " + std::to_string(*hi);
  return cond;
}

void DeviceStmtEmitter::threads_loop(const For *f) {
  auto found = facts_.loops.find(f);
  if (found == facts_.loops.end())
    return void(fail(f->loc, "a 'cuda_threads' loop the GPU semantics stage did not analyse"));
  const gpu::ThreadLoopFacts &l = found->second;
  std::string cond = guard_condition(l.guarded, l.guard_lo, l.guard_hi);
  w_.line("// for " + f->iter.name + " in " + print_expr(f->hi) + " parts of its collective" +
          (l.pitch ? ", " + std::to_string(l.pitch) + " thread(s) apart" : ""));
  w_.open(cond.empty() ? "" : "if (" + cond + ")");
  std::string it = names_.take(f->iter.name);
  std::optional<analysis::IndexRange> range;
  std::string ctype = ex_.iterator_ctype(f->lo, f->hi, &range);
  w_.line("[[maybe_unused]] const " + ctype + " " + it + " = " + l.iter.c_str(tid_, rank()) + ";");
  bind_iterator(f, it, true, ctype, range);
  block(f->body);
  ex_.env().pop();
  w_.close();
}

void DeviceStmtEmitter::emit_call(const CallStmt *c) {
  Proc callee = fx_.callee(&proc_, c->callee);
  if (!callee || !callee->is_instr)
    return void(fail(c->loc, "the call of '" + c->callee + "' in device code"));
  auto group = facts_.multicasts.find(c);
  std::string line = instr_call_line(
      c, *callee, ex_, [&](const Expr &bar) { return sync_.slot_address(bar); },
      group == facts_.multicasts.end() ? nullptr : &group->second);
  if (line.empty())
    return void(report_failed());
  if (line.find("exg::sm90::") != std::string::npos)
    sync_.require_sm90();
  w_.line(line);
}

void DeviceStmtEmitter::emit_with(const With *w) {
  auto found = facts_.warps.find(w);
  if (w->context() != ContextKind::CudaWarps || found == facts_.warps.end())
    return void(fail(w->loc, "'" + w->context_name() + "'"));
  if (found->second.nested) {
    // Warps of the enclosing collective, in whichever role's copy it is.
    const gpu::WarpsBlockFacts &n = found->second;
    std::string cond = n.trivial ? "" : guard_condition(n.guarded, n.guard_lo, n.guard_hi);
    w_.line("// " + print_expr(w->ctx) + ": warps " + std::to_string(n.lo) + " to " +
            std::to_string(n.hi) + " of its collective");
    w_.open(cond.empty() ? "" : "if (" + cond + ")");
    block(w->body);
    return w_.close();
  }
  // This copy of the task body runs the warps of one role (or the CTA): a
  // task-scope block is never inside another, so warps_lo_/hi_ are the role's.
  int64_t lo = found->second.lo, hi = found->second.hi;
  const int64_t rlo = warps_lo_, rhi = warps_hi_;
  std::string what = print_expr(w->ctx) + ": warps " + std::to_string(lo) + " to " +
                     std::to_string(hi);
  if (hi <= rlo || lo >= rhi)
    return w_.line("// " + what + ", none of this role");
  std::string cond;
  if (lo > rlo)
    cond = tid_ + " >= " + std::to_string(32 * lo);
  if (hi < rhi)
    cond += (cond.empty() ? "" : " && ") + tid_ + " < " + std::to_string(32 * hi);
  w_.line("// " + what);
  w_.open(cond.empty() ? "" : "if (" + cond + ")");
  warps_lo_ = std::max(lo, rlo);
  warps_hi_ = std::min(hi, rhi);
  block(w->body);
  warps_lo_ = rlo;
  warps_hi_ = rhi;
  w_.close();
}

void DeviceStmtEmitter::emit_sync(const Stmt &s) {
  // The GPU stage decided each Fence's form and which collective runs it.
  const auto *f = s.as<Fence>();
  auto scope = f ? facts_.fences.find(f) : facts_.fences.end();
  if (scope == facts_.fences.end() || scope->second.form != gpu::FenceForm::Barrier) {
    if (!sync_.stmt(s, w_))
      ok_ = false;
    return;
  }
  std::string what = "'Fence(" + f->first + ", " + f->second + ")'";
  std::string text = what.substr(1, what.size() - 2);
  if (scope->second.scope == gpu::FenceScope::Cluster)
    return void(fail(s->loc, what + " over a cluster"));
  // Each thread first orders its own generic-proxy shared-memory accesses
  // before later async-proxy ones; the barrier then carries that to the
  // thread that issues the TMA store.
  if (scope->second.proxy_fence)
    sync_.emit_proxy_fence(w_);
  switch (scope->second.scope) {
  case gpu::FenceScope::Cta:
    // Under a warp role each role's copy of the task body has its own
    // barrier instruction: only the non-.aligned form is defined there.
    if (role_ >= 0)
      return w_.line("exg::cuda::cta_sync_divergent(); // " + text);
    return w_.line("__syncthreads(); // " + text);
  case gpu::FenceScope::Warpgroup: {
    // Constant barrier ids (one per warpgroup that may be here): with an id
    // in a register ptxas reserves all 16 named barriers.
    int64_t first = warps_lo_ / 4, count = (warps_hi_ + 3) / 4 - first;
    return w_.line("exg::cuda::warpgroup_sync<" + std::to_string(first) + ", " +
                   std::to_string(count) + ">(); // " + text);
  }
  case gpu::FenceScope::Warp: return w_.line("__syncwarp(); // " + text);
  case gpu::FenceScope::Thread: return w_.line("// " + text + ": one thread, in order already");
  case gpu::FenceScope::Cluster: break;
  }
  EXGC_UNREACHABLE("a cluster fence was refused above");
}

} // namespace exgc::codegen
