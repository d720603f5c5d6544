// cuda_kernel.cpp - one `with CudaDeviceFunction` as a persistent kernel ---//
#include "compiler/codegen/cuda_kernel.h"

#include <map>
#include <memory>

#include "compiler/analysis/gpu_names.h"
#include "compiler/codegen/cuda_device_stmts.h"
#include "compiler/codegen/cuda_sync.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/support/check.h"

namespace exgc::codegen {

const char *const kCudaBackend = "CUDA";

const analysis::MemoryInfo *memory_of(const CxxBinding &b) {
  return analysis::resolve_memory(b.mem).info;
}

namespace {

/// Does `body` call an instruction on the wgmma_async timeline?
bool issues_wgmma(const Block &body, KernelContext &ctx) {
  struct Finder : IRVisitor {
    KernelContext &ctx;
    bool found = false;
    explicit Finder(KernelContext &c) : ctx(c) {}
    void visit_node(const CallStmt *c) override {
      Proc callee = ctx.fx.callee(&ctx.proc, c->callee);
      const InstrAttr *tl = callee ? callee->attr("timeline") : nullptr;
      found |= tl && !tl->values.empty() && analysis::instr_timeline(print_expr(tl->values[0])) ==
                                                    analysis::InstrTimeline::WgmmaAsync;
    }
  } f(ctx);
  for (const Stmt &s : body)
    f.visit(s);
  return f.found;
}

/// One `with CudaDeviceFunction` as a persistent kernel and its launch, from
/// the GPU stage's facts: the host's task ranges, the kernel's parameters
/// (task ranges, then what the body captures from the host), the task loop
/// (one copy per warp role), and the launch (persistent grid, cluster).
class DeviceFunctionEmitter {
public:
  DeviceFunctionEmitter(const With *w, KernelContext &ctx)
      : w_(w), ctx_(ctx), facts_(*ctx.facts), cfg_(facts_.config), tasks_(facts_.tasks.loops),
        hx_(ctx.host_ex), kx_(kenv_, ctx.host_ex.diag(), kCudaBackend) {
    kx_.narrow_index = true;
    kenv_.outer = [this](const Sym &s) { return capture(s); };
    kx_.on_access = [this](const CxxBinding &b, SrcLoc loc, bool write) {
      return check_access(b, loc, write);
    };
  }

  bool emit() {
    ctx_.host.open("");
    ctx_.host.line("// " + print_expr(w_->ctx) + ": kernel " + ctx_.kernel_name);
    if (!host_task_ranges())
      return false;
    task_params();
    if (!kernel_body())
      return false;
    // Laid out, and checked against the limits, by the GPU stage.
    if (facts_.shared.dynamic_bytes || sync_->uses_sm90())
      *ctx_.uses_sm90 = true;
    write_kernel();
    write_launch();
    ctx_.host.close();
    return true;
  }

private:
  /// Host: each task loop's first value and trip count, and their product.
  bool host_task_ranges() {
    Writer &h = ctx_.host;
    ntasks_h_ = ctx_.host_names.take_internal("exg_ntasks");
    std::string prod;
    for (size_t k = 0; k < tasks_.size(); ++k) {
      host_lo_.push_back(ctx_.host_names.take_internal("exg_lo"));
      host_n_.push_back(ctx_.host_names.take_internal("exg_n"));
      h.line("const int64_t " + host_lo_[k] + " = " + hx_.ctrl(tasks_[k]->lo) + ";");
      h.line("const int64_t " + host_n_[k] + " = exg_max<int64_t>(" + hx_.ctrl(tasks_[k]->hi) +
             " - " + host_lo_[k] + ", 0);");
      prod = prod.empty() ? host_n_[k] : prod + " * " + host_n_[k];
    }
    h.line("const int64_t " + ntasks_h_ + " = " + prod + ";");
    return !hx_.failed();
  }

  /// Kernel: the task count and ranges come first among its parameters.
  void task_params() {
    ntasks_k_ = knames_.take_internal("exg_ntasks");
    kparams_.push_back("int64_t " + ntasks_k_);
    kargs_.push_back(ntasks_h_);
    for (size_t k = 0; k < tasks_.size(); ++k) {
      klo_.push_back(knames_.take_internal("exg_lo" + std::to_string(k)));
      kn_.push_back(knames_.take_internal("exg_n" + std::to_string(k)));
      kparams_.push_back("int64_t " + klo_[k]);
      kparams_.push_back("int64_t " + kn_[k]);
      kargs_.push_back(host_lo_[k]);
      kargs_.push_back(host_n_[k]);
    }
  }

  /// A host name the body uses, made a kernel parameter on first use.
  const CxxBinding *capture(const Sym &s) {
    std::string key = s.name + "#" + std::to_string(s.id);
    auto it = captured_.find(key);
    if (it != captured_.end())
      return &it->second;
    const CxxBinding *hb = hx_.env().lookup(s);
    if (!hb)
      return nullptr;
    CxxBinding kb = *hb;
    kb.in_device = false;
    kb.in_lo.clear(); // host expressions: not known in the kernel
    kb.in_hi.clear();
    kb.in_cond.clear();
    if (hb->kind == CxxBinding::Kind::Scalar) {
      kb.expr = knames_.take(s.name);
      kb.writable = is_data(hb->type); // so that a write is reported as a host access
      // A control argument the entry checked within 32 bits (a size against
      // kMaxKernelSize, or an argument an assert bounds) travels as 32 bits.
      bool narrow = is_control(hb->type) && hb->type != ValueType::Bool && hb->range &&
                    analysis::fits_int32(*hb->range);
      kb.ctype = narrow ? "int32_t" : hb->ctype;
      kparams_.push_back(kb.ctype + " " + kb.expr);
      kargs_.push_back(narrow ? "static_cast<int32_t>(" + hb->expr + ")" : hb->expr);
    } else if (hb->kind == CxxBinding::Kind::View && hb->tensor_map) {
      // Read by TMA from parameter space; a copy elsewhere would not do.
      kb.expr = knames_.take(s.name);
      kparams_.push_back("const __grid_constant__ CUtensorMap " + kb.expr);
      tensor_maps_.push_back(kb.expr);
      kargs_.push_back(hb->expr);
    } else if (hb->kind == CxxBinding::Kind::View) {
      kb.expr = knames_.take(s.name);
      kparams_.push_back((hb->is_const ? "const " : "") + hb->ctype + " *" + kb.expr);
      kargs_.push_back(hb->expr);
      for (size_t d = 0; d < hb->strides.size(); ++d) {
        const std::string &st = hb->strides[d];
        if (is_digits(st))
          continue; // a constant stride stays a literal
        kb.strides[d] = knames_.take_internal(kb.expr + "_s" + std::to_string(d));
        kparams_.push_back("int64_t " + kb.strides[d]);
        kargs_.push_back(st);
      }
    }
    return &(captured_[key] = kb);
  }

  /// Device code reaches host bindings only in global memory and by value.
  bool check_access(const CxxBinding &b, SrcLoc loc, bool write) {
    if (b.kind == CxxBinding::Kind::Scalar && !is_data(b.type))
      return true;
    const analysis::MemoryInfo *m = memory_of(b);
    std::string mname = m ? m->name : analysis::memory_name(b.mem);
    if (b.in_device)
      return true;
    if (b.kind == CxxBinding::Kind::Scalar && !write)
      return true; // a host scalar is passed by value
    if (m && m->space == analysis::MemSpace::Host) // the GPU stage refused those it sees
      return kx_.unsupported(loc, "'" + b.sym.name + "' in host memory '" + mname +
                                      "' in device code");
    if (b.kind == CxxBinding::Kind::Scalar)
      return kx_.unsupported(loc, "writing the host scalar '" + b.sym.name + "'");
    if (m && m->space == analysis::MemSpace::DeviceGlobal)
      return true;
    return kx_.unsupported(loc, "'" + mname + "' in device code");
  }

  /// The kernel's body: setup, then the task loop, one copy per warp role
  /// under its role's warp range and setmaxnreg (reference: deviceMainLoop);
  /// the task body's CudaWarps blocks of other roles drop out of a copy.
  bool kernel_body() {
    kbody_.indent_ = 1;
    tid_ = knames_.take_internal("exg_t");
    smem_ = knames_.take_internal("exg_smem");
    kbody_.line("[[maybe_unused]] const int " + tid_ + " = static_cast<int>(threadIdx.x);");
    sync_ = std::make_unique<SyncEmitter>(kx_, knames_, facts_);
    if (!sync_->plan())
      return false;
    sync_->emit_setup(kbody_, tid_, smem_);
    bool ok = true;
    const bool uses_wgmma = issues_wgmma(*facts_.tasks.body, ctx_);
    if (facts_.roles.empty())
      return task_loop(-1, uses_wgmma) && !kx_.failed();
    std::string warp = knames_.take_internal("exg_warp");
    kbody_.line("const int " + warp + " = " + tid_ + " / 32;");
    for (size_t r = 0; r < facts_.roles.size(); ++r) {
      const gpu::WarpRole &role = facts_.roles[r];
      kbody_.open(std::string(r ? "else " : "") + "if (" + warp + " < " +
                  std::to_string(role.hi) + ")");
      kbody_.line("// warp role '" + role.name + "': warps " + std::to_string(role.lo) + " to " +
                  std::to_string(role.hi));
      if (role.setmaxnreg) {
        *ctx_.uses_sm90 = true; // setmaxnreg lives in exg/sm90.h
        kbody_.line(std::string("exg::sm90::setmaxnreg_") + (role.increase ? "inc" : "dec") +
                    "<" + std::to_string(role.setmaxnreg) + ">();");
      }
      ok = task_loop(static_cast<int>(r), uses_wgmma) && ok;
      kbody_.close();
    }
    return ok && !kx_.failed();
  }

  /// One copy of the task loop, for warp role `role` (-1: no roles).
  bool task_loop(int role, bool uses_wgmma) {
    std::string task = knames_.take_internal("exg_task");
    // One task per cluster: its CTAs share the task (the grid is whole clusters).
    std::string cd = std::to_string(cfg_.env.cluster_dim);
    kbody_.open(cfg_.env.cluster_dim > 1
                    ? "for (int64_t " + task + " = blockIdx.x / " + cd + "; " + task + " < " +
                          ntasks_k_ + "; " + task + " += gridDim.x / " + cd + ")"
                    : "for (int64_t " + task + " = blockIdx.x; " + task + " < " + ntasks_k_ +
                          "; " + task + " += gridDim.x)");
    decode_task(task);
    // The ISA wants wgmma.fence before a warpgroup's first wgmma.mma_async
    // and between its register accesses and a later wgmma on them: the
    // checker orders what a task does, and this fence at each task's start
    // orders the task before (its epilogue's accumulator reads) and the very
    // first wgmma.
    if (uses_wgmma) {
      *ctx_.uses_sm90 = true;
      kbody_.line(
          "exg::sm90::wgmma_fence(); // before this task's first wgmma (PTX ISA, wgmma.fence)");
    }
    DeviceStmtEmitter de(kx_, kbody_, knames_, ctx_.fx, ctx_.proc, facts_, tid_, *sync_, smem_,
                         role);
    de.block(*facts_.tasks.body);
    sync_->emit_task_end(kbody_);
    kbody_.close();
    return de.ok();
  }

  /// Binds each task iterator from the task index `task`: mixed radix,
  /// innermost task loop fastest; with task_group, the plane of the two
  /// innermost loops in groups of task_group rows, each group's rows fastest
  /// (consecutive tasks share operand panels in L2). Both orders are
  /// bijections of the task index, and the checked model holds for any
  /// assignment of tasks to CTAs (docs/sync.md, persistent tasks).
  void decode_task(const std::string &task) {
    std::string rest = knames_.take_internal("exg_rest");
    kbody_.line("[[maybe_unused]] int64_t " + rest + " = " + task + ";");
    size_t next = tasks_.size();
    if (cfg_.task_group > 1) {
      const size_t r = tasks_.size() - 2, c = tasks_.size() - 1;
      const std::string g = std::to_string(cfg_.task_group);
      std::string at = knames_.take_internal("exg_in_plane");
      std::string first = knames_.take_internal("exg_group_row");
      std::string rows = knames_.take_internal("exg_group_rows");
      kbody_.line("int64_t " + at + " = " + rest + " % (" + kn_[r] + " * " + kn_[c] + ");");
      kbody_.line(rest + " /= " + kn_[r] + " * " + kn_[c] + ";");
      kbody_.line("const int64_t " + first + " = " + at + " / (" + g + " * " + kn_[c] + ") * " +
                  g + ";");
      kbody_.line("const int64_t " + rows + " = exg_min<int64_t>(" + kn_[r] + " - " + first +
                  ", " + g + ");");
      kbody_.line(at + " -= " + first + " * " + kn_[c] + ";");
      bind_task(c, at + " / " + rows);
      bind_task(r, first + " + " + at + " % " + rows);
      next = r;
    }
    for (size_t k = next; k-- > 0;) {
      if (k == 0) {
        bind_task(k, rest);
      } else {
        bind_task(k, rest + " % " + kn_[k]);
        kbody_.line(rest + " /= " + kn_[k] + ";");
      }
    }
  }

  /// Task iterator k is its loop's first value plus `value`.
  void bind_task(size_t k, const std::string &value) {
    CxxBinding b;
    b.sym = tasks_[k]->iter;
    b.type = ValueType::Index;
    // The task loop's bounds are host values; their intervals are the
    // host's. The iterator is computed, not counted: its values must fit.
    hx_.iterator_ctype(tasks_[k]->lo, tasks_[k]->hi, &b.range);
    b.ctype = b.range && analysis::fits_int32(*b.range) ? "int32_t" : "int64_t";
    b.expr = knames_.take(tasks_[k]->iter.name);
    b.in_device = true;
    std::string v = klo_[k] + " + " + value;
    kbody_.line("[[maybe_unused]] const " + b.ctype + " " + b.expr + " = " +
                (b.ctype == "int64_t" ? v : "static_cast<int32_t>(" + v + ")") + ";");
    kenv_.bind(tasks_[k]->iter, b);
  }

  /// The __global__ function: bounds, parameters, dynamic shared memory,
  /// tensor-map prefetch, then the body.
  void write_kernel() {
    const int64_t dynamic_shared = facts_.shared.dynamic_bytes;
    std::string params;
    for (const std::string &p : kparams_)
      params += (params.empty() ? "" : ", ") + p;
    Writer &kw = ctx_.kernels;
    kw.line("// " + ctx_.proc.name + ": " + print_expr(w_->ctx));
    kw.line("__global__ void __launch_bounds__(" + std::to_string(cfg_.env.block_dim) + ", " +
            std::to_string(cfg_.blocks_per_sm) + ")");
    kw.line(ctx_.kernel_name + "(" + params + ") {");
    if (dynamic_shared)
      kw.line("  extern __shared__ __align__(" + std::to_string(facts_.shared.align) +
              ") unsigned char " + smem_ + "[]; // " + std::to_string(dynamic_shared) +
              " bytes");
    if (!tensor_maps_.empty()) {
      // The first TMA of each map would otherwise wait for the map's fetch.
      kw.line("  if (threadIdx.x == 0) {");
      for (const std::string &m : tensor_maps_)
        kw.line("    exg::sm90::prefetch_tensormap(&" + m + ");");
      kw.line("  }");
    }
    kw.line(kbody_.str() + "}");
    kw.line("");
  }

  /// Host: a persistent grid of as many CTAs as fit at once and have a task
  /// (a task takes a whole cluster), rounded down to whole clusters.
  void write_launch() {
    Writer &h = ctx_.host;
    const std::string &kernel = ctx_.kernel_name, &fail = ctx_.error_return;
    std::string args;
    for (const std::string &a : kargs_)
      args += (args.empty() ? "" : ", ") + a;
    h.open("if (" + ntasks_h_ + " > 0)");
    std::string grid = ctx_.host_names.take_internal("exg_grid");
    const int64_t dynamic_shared = facts_.shared.dynamic_bytes;
    std::string bytes = std::to_string(dynamic_shared);
    if (dynamic_shared > gpu::kMaxStaticShared)
      h.line("if (cudaError_t exg_err = cudaFuncSetAttribute(" + kernel +
             ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + bytes + ")) " + fail);
    h.line("int " + grid + " = 1;");
    const int64_t cluster = cfg_.env.cluster_dim;
    std::string ctas = cluster > 1 ? ntasks_h_ + " * " + std::to_string(cluster) : ntasks_h_;
    // Without a cluster, also as many as the occupancy query finds room for.
    std::string occupancy =
        cluster > 1 ? "" : ", " + kernel + ", " + std::to_string(cfg_.env.block_dim) + ", " + bytes;
    h.line("if (cudaError_t exg_err = exg::persistent_grid(&" + grid + ", " +
           std::to_string(cfg_.blocks_per_sm) + ", " + ctas + occupancy + ")) " + fail);
    if (cluster > 1)
      write_cluster_launch(grid, bytes, args);
    else
      h.line(kernel + "<<<" + grid + ", " + std::to_string(cfg_.env.block_dim) + ", " + bytes +
             ", " + ctx_.stream + ">>>(" + args + ");");
    h.line("if (cudaError_t exg_err = cudaGetLastError()) " + fail);
    h.close();
  }

  void write_cluster_launch(const std::string &grid, const std::string &bytes,
                            const std::string &args) {
    Writer &h = ctx_.host;
    const std::string &kernel = ctx_.kernel_name, &fail = ctx_.error_return;
    std::string cd = std::to_string(cfg_.env.cluster_dim);
    // Clusters above 8 CTAs are not portable: sm_90 launches them only
    // after the kernel opts in (CUDA programming guide, thread block clusters).
    if (cfg_.env.cluster_dim > 8)
      h.line("if (cudaError_t exg_err = cudaFuncSetAttribute(" + kernel +
             ", cudaFuncAttributeNonPortableClusterSizeAllowed, 1)) " + fail);
    h.line(grid + " = " + grid + " < " + cd + " ? " + cd + " : " + grid + " / " + cd + " * " + cd +
           ";");
    h.line("cudaLaunchConfig_t exg_cfg = {};");
    h.line("exg_cfg.gridDim = dim3(" + grid + ");");
    h.line("exg_cfg.blockDim = dim3(" + std::to_string(cfg_.env.block_dim) + ");");
    h.line("exg_cfg.dynamicSmemBytes = " + bytes + ";");
    h.line("exg_cfg.stream = " + ctx_.stream + ";");
    h.line("cudaLaunchAttribute exg_attr[1];");
    h.line("exg_attr[0].id = cudaLaunchAttributeClusterDimension;");
    h.line("exg_attr[0].val.clusterDim.x = " + cd + ";");
    h.line("exg_attr[0].val.clusterDim.y = 1;");
    h.line("exg_attr[0].val.clusterDim.z = 1;");
    h.line("exg_cfg.attrs = exg_attr;");
    h.line("exg_cfg.numAttrs = 1;");
    h.line("if (cudaError_t exg_err = cudaLaunchKernelEx(&exg_cfg, " + kernel + ", " + args +
           ")) " + fail);
  }

  const With *w_;
  KernelContext &ctx_;
  const gpu::KernelFacts &facts_;
  const gpu::LaunchConfig &cfg_;
  const std::vector<const For *> &tasks_;
  ExprEmitter &hx_;
  Env kenv_;
  ExprEmitter kx_;
  NameScope knames_;
  std::string ntasks_h_, ntasks_k_;
  std::vector<std::string> host_lo_, host_n_, klo_, kn_;
  std::vector<std::string> kparams_, kargs_;
  std::map<std::string, CxxBinding> captured_;
  std::vector<std::string> tensor_maps_; // kernel parameters
  Writer kbody_;
  std::string tid_, smem_;
  std::unique_ptr<SyncEmitter> sync_;
};

} // namespace

bool emit_device_function(const With *w, KernelContext &ctx) {
  // The GPU stage read every device function of a proc it accepted: its
  // launch configuration and `cuda_tasks` nest are facts.
  EXGC_CHECK(ctx.facts) << "a device function without GPU facts";
  return DeviceFunctionEmitter(w, ctx).emit();
}

} // namespace exgc::codegen
