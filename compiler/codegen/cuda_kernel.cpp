// cuda_kernel.cpp - one `with CudaDeviceFunction` as a persistent kernel ---//
#include "compiler/codegen/cuda_kernel.h"

#include <map>

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

} // namespace

bool emit_device_function(const With *w, KernelContext &ctx) {
  DiagEngine &diag = ctx.host_ex.diag();

  // The GPU stage read every device function of a proc it accepted: its
  // launch configuration and `cuda_tasks` nest are facts.
  EXGC_CHECK(ctx.facts) << "a device function without GPU facts";
  const gpu::KernelFacts &facts = *ctx.facts;
  const gpu::LaunchConfig &cfg = facts.config;
  const std::vector<const For *> &tasks = facts.tasks.loops;
  const Block *body = facts.tasks.body;

  // Host: task ranges.
  ExprEmitter &hx = ctx.host_ex;
  Writer &h = ctx.host;
  h.open("");
  h.line("// " + print_expr(w->ctx) + ": kernel " + ctx.kernel_name);
  std::vector<std::string> host_lo, host_n;
  std::string ntasks_h = ctx.host_names.take_internal("exg_ntasks");
  std::string prod;
  for (size_t k = 0; k < tasks.size(); ++k) {
    host_lo.push_back(ctx.host_names.take_internal("exg_lo"));
    host_n.push_back(ctx.host_names.take_internal("exg_n"));
    h.line("const int64_t " + host_lo[k] + " = " + hx.ctrl(tasks[k]->lo) + ";");
    h.line("const int64_t " + host_n[k] + " = exg_max<int64_t>(" + hx.ctrl(tasks[k]->hi) +
           " - " + host_lo[k] + ", 0);");
    prod = prod.empty() ? host_n[k] : prod + " * " + host_n[k];
  }
  h.line("const int64_t " + ntasks_h + " = " + prod + ";");
  if (hx.failed())
    return false;

  // Kernel: task parameters, then the host names the body captures.
  Env kenv;
  ExprEmitter kx(kenv, diag, kCudaBackend);
  kx.narrow_index = true;
  NameScope knames;
  std::vector<std::string> kparams, kargs;
  std::string ntasks_k = knames.take_internal("exg_ntasks");
  kparams.push_back("int64_t " + ntasks_k);
  kargs.push_back(ntasks_h);
  std::vector<std::string> klo, kn;
  for (size_t k = 0; k < tasks.size(); ++k) {
    klo.push_back(knames.take_internal("exg_lo" + std::to_string(k)));
    kn.push_back(knames.take_internal("exg_n" + std::to_string(k)));
    kparams.push_back("int64_t " + klo[k]);
    kparams.push_back("int64_t " + kn[k]);
    kargs.push_back(host_lo[k]);
    kargs.push_back(host_n[k]);
  }
  std::map<std::string, CxxBinding> captured;
  std::vector<std::string> tensor_maps; // kernel parameters
  kenv.outer = [&](const Sym &s) -> const CxxBinding * {
    std::string key = s.name + "#" + std::to_string(s.id);
    auto it = captured.find(key);
    if (it != captured.end())
      return &it->second;
    const CxxBinding *hb = hx.env().lookup(s);
    if (!hb)
      return nullptr;
    CxxBinding kb = *hb;
    kb.in_device = false;
    kb.in_lo.clear(); // host expressions: not known in the kernel
    kb.in_hi.clear();
    kb.in_cond.clear();
    if (hb->kind == CxxBinding::Kind::Scalar) {
      kb.expr = knames.take(s.name);
      kb.writable = is_data(hb->type); // so that a write is reported as a host access
      // A control argument the entry checked within 32 bits (a size against
      // kMaxKernelSize, or an argument an assert bounds) travels as 32 bits.
      bool narrow = is_control(hb->type) && hb->type != ValueType::Bool && hb->range &&
                    analysis::fits_int32(*hb->range);
      kb.ctype = narrow ? "int32_t" : hb->ctype;
      kparams.push_back(kb.ctype + " " + kb.expr);
      kargs.push_back(narrow ? "static_cast<int32_t>(" + hb->expr + ")" : hb->expr);
    } else if (hb->kind == CxxBinding::Kind::View && hb->tensor_map) {
      // Read by TMA from parameter space; a copy elsewhere would not do.
      kb.expr = knames.take(s.name);
      kparams.push_back("const __grid_constant__ CUtensorMap " + kb.expr);
      tensor_maps.push_back(kb.expr);
      kargs.push_back(hb->expr);
    } else if (hb->kind == CxxBinding::Kind::View) {
      kb.expr = knames.take(s.name);
      kparams.push_back((hb->is_const ? "const " : "") + hb->ctype + " *" + kb.expr);
      kargs.push_back(hb->expr);
      for (size_t d = 0; d < hb->strides.size(); ++d) {
        const std::string &st = hb->strides[d];
        if (is_digits(st))
          continue; // a constant stride stays a literal
        kb.strides[d] = knames.take_internal(kb.expr + "_s" + std::to_string(d));
        kparams.push_back("int64_t " + kb.strides[d]);
        kargs.push_back(st);
      }
    }
    return &(captured[key] = kb);
  };
  kx.on_access = [&](const CxxBinding &b, SrcLoc loc, bool write) -> bool {
    if (b.kind == CxxBinding::Kind::Scalar && !is_data(b.type))
      return true;
    const analysis::MemoryInfo *m = memory_of(b);
    std::string mname = m ? m->name : analysis::memory_name(b.mem);
    if (b.in_device)
      return true;
    if (b.kind == CxxBinding::Kind::Scalar && !write)
      return true; // a host scalar is passed by value
    if (m && m->space == analysis::MemSpace::Host) // the GPU stage refused those it sees
      return kx.unsupported(loc, "'" + b.sym.name + "' in host memory '" + mname +
                                     "' in device code");
    if (b.kind == CxxBinding::Kind::Scalar)
      return kx.unsupported(loc, "writing the host scalar '" + b.sym.name + "'");
    if (m && m->space == analysis::MemSpace::DeviceGlobal)
      return true;
    return kx.unsupported(loc, "'" + mname + "' in device code");
  };

  Writer kbody;
  kbody.indent_ = 1;
  std::string tid = knames.take_internal("exg_t");
  std::string smem = knames.take_internal("exg_smem");
  kbody.line("[[maybe_unused]] const int " + tid + " = static_cast<int>(threadIdx.x);");
  SyncEmitter sync(kx, knames, facts);
  if (!sync.plan())
    return false;
  sync.emit_setup(kbody, tid, smem);
  bool ok = true;
  const bool uses_wgmma = issues_wgmma(*body, ctx);
  // One copy of the task loop per warp role, each under its role's warp
  // range and setmaxnreg (reference: deviceMainLoop); the task body's
  // CudaWarps blocks of other roles drop out of a copy.
  auto task_loop = [&](int role) {
    std::string task = knames.take_internal("exg_task");
    // One task per cluster: its CTAs share the task (the grid is whole clusters).
    std::string cd = std::to_string(cfg.env.cluster_dim);
    kbody.open(cfg.env.cluster_dim > 1
                   ? "for (int64_t " + task + " = blockIdx.x / " + cd + "; " + task + " < " +
                         ntasks_k + "; " + task + " += gridDim.x / " + cd + ")"
                   : "for (int64_t " + task + " = blockIdx.x; " + task + " < " + ntasks_k + "; " +
                         task + " += gridDim.x)");
    // Mixed radix, innermost task loop fastest; with task_group, the plane of
    // the two innermost loops in groups of task_group rows, each group's rows
    // fastest (consecutive tasks share operand panels in L2). Both orders are
    // bijections of the task index, and the checked model holds for any
    // assignment of tasks to CTAs (docs/sync.md, persistent tasks).
    std::string rest = knames.take_internal("exg_rest");
    kbody.line("[[maybe_unused]] int64_t " + rest + " = " + task + ";");
    auto bind_task = [&](size_t k, const std::string &value) {
      CxxBinding b;
      b.sym = tasks[k]->iter;
      b.type = ValueType::Index;
      // The task loop's bounds are host values; their intervals are the
      // host's. The iterator is computed, not counted: its values must fit.
      hx.iterator_ctype(tasks[k]->lo, tasks[k]->hi, &b.range);
      b.ctype = b.range && analysis::fits_int32(*b.range) ? "int32_t" : "int64_t";
      b.expr = knames.take(tasks[k]->iter.name);
      b.in_device = true;
      std::string v = klo[k] + " + " + value;
      kbody.line("[[maybe_unused]] const " + b.ctype + " " + b.expr + " = " +
                 (b.ctype == "int64_t" ? v : "static_cast<int32_t>(" + v + ")") + ";");
      kenv.bind(tasks[k]->iter, b);
    };
    size_t next = tasks.size();
    if (cfg.task_group > 1) {
      const size_t r = tasks.size() - 2, c = tasks.size() - 1;
      const std::string g = std::to_string(cfg.task_group);
      std::string at = knames.take_internal("exg_in_plane");
      std::string first = knames.take_internal("exg_group_row");
      std::string rows = knames.take_internal("exg_group_rows");
      kbody.line("int64_t " + at + " = " + rest + " % (" + kn[r] + " * " + kn[c] + ");");
      kbody.line(rest + " /= " + kn[r] + " * " + kn[c] + ";");
      kbody.line("const int64_t " + first + " = " + at + " / (" + g + " * " + kn[c] + ") * " + g +
                 ";");
      kbody.line("const int64_t " + rows + " = exg_min<int64_t>(" + kn[r] + " - " + first + ", " +
                 g + ");");
      kbody.line(at + " -= " + first + " * " + kn[c] + ";");
      bind_task(c, at + " / " + rows);
      bind_task(r, first + " + " + at + " % " + rows);
      next = r;
    }
    for (size_t k = next; k-- > 0;) {
      if (k == 0) {
        bind_task(k, rest);
      } else {
        bind_task(k, rest + " % " + kn[k]);
        kbody.line(rest + " /= " + kn[k] + ";");
      }
    }
    // The ISA wants wgmma.fence before a warpgroup's first wgmma.mma_async
    // and between its register accesses and a later wgmma on them: the
    // checker orders what a task does, and this fence at each task's start
    // orders the task before (its epilogue's accumulator reads) and the very
    // first wgmma.
    if (uses_wgmma) {
      *ctx.uses_sm90 = true;
      kbody.line("exg::sm90::wgmma_fence(); // before this task's first wgmma (PTX ISA, wgmma.fence)");
    }
    DeviceStmtEmitter de(kx, kbody, knames, ctx.fx, ctx.proc, facts, tid, sync, smem, role);
    de.block(*body);
    sync.emit_task_end(kbody);
    kbody.close();
    ok = ok && de.ok();
  };
  if (facts.roles.empty()) {
    task_loop(-1);
  } else {
    std::string warp = knames.take_internal("exg_warp");
    kbody.line("const int " + warp + " = " + tid + " / 32;");
    for (size_t r = 0; r < facts.roles.size(); ++r) {
      const gpu::WarpRole &role = facts.roles[r];
      kbody.open(std::string(r ? "else " : "") + "if (" + warp + " < " + std::to_string(role.hi) +
                 ")");
      kbody.line("// warp role '" + role.name + "': warps " + std::to_string(role.lo) + " to " +
                 std::to_string(role.hi));
      if (role.setmaxnreg) {
        *ctx.uses_sm90 = true; // setmaxnreg lives in exg/sm90.h
        kbody.line(std::string("exg::sm90::setmaxnreg_") + (role.increase ? "inc" : "dec") + "<" +
                   std::to_string(role.setmaxnreg) + ">();");
      }
      task_loop(static_cast<int>(r));
      kbody.close();
    }
  }
  if (!ok || kx.failed())
    return false;
  // Laid out, and checked against the limits, by the GPU stage.
  const int64_t dynamic_shared = facts.shared.dynamic_bytes;
  if (dynamic_shared || sync.uses_sm90())
    *ctx.uses_sm90 = true;

  std::string params, args;
  for (const std::string &p : kparams)
    params += (params.empty() ? "" : ", ") + p;
  for (const std::string &a : kargs)
    args += (args.empty() ? "" : ", ") + a;
  Writer &kw = ctx.kernels;
  kw.line("// " + ctx.proc.name + ": " + print_expr(w->ctx));
  kw.line("__global__ void __launch_bounds__(" + std::to_string(cfg.env.block_dim) + ", " +
          std::to_string(cfg.blocks_per_sm) + ")");
  kw.line(ctx.kernel_name + "(" + params + ") {");
  if (dynamic_shared)
    kw.line("  extern __shared__ __align__(" + std::to_string(facts.shared.align) +
            ") unsigned char " +
            smem + "[]; // " + std::to_string(dynamic_shared) + " bytes");
  if (!tensor_maps.empty()) {
    // The first TMA of each map would otherwise wait for the map's fetch.
    kw.line("  if (threadIdx.x == 0) {");
    for (const std::string &m : tensor_maps)
      kw.line("    exg::sm90::prefetch_tensormap(&" + m + ");");
    kw.line("  }");
  }
  kw.line(kbody.str() + "}");
  kw.line("");

  h.open("if (" + ntasks_h + " > 0)");
  std::string grid = ctx.host_names.take_internal("exg_grid");
  std::string bytes = std::to_string(dynamic_shared);
  if (dynamic_shared > gpu::kMaxStaticShared)
    h.line("if (cudaError_t exg_err = cudaFuncSetAttribute(" + ctx.kernel_name +
           ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + bytes + ")) " + ctx.error_return);
  h.line("int " + grid + " = 1;");
  // Persistent: as many CTAs as fit at once and have a task (a task takes a
  // whole cluster), rounded down to whole clusters.
  std::string ctas = cfg.env.cluster_dim > 1 ? ntasks_h + " * " + std::to_string(cfg.env.cluster_dim)
                                         : ntasks_h;
  // Without a cluster, also as many as the occupancy query finds room for.
  std::string occupancy = cfg.env.cluster_dim > 1 ? "" : ", " + ctx.kernel_name + ", " +
                                                         std::to_string(cfg.env.block_dim) + ", " + bytes;
  h.line("if (cudaError_t exg_err = exg::persistent_grid(&" + grid + ", " +
         std::to_string(cfg.blocks_per_sm) + ", " + ctas + occupancy + ")) " + ctx.error_return);
  if (cfg.env.cluster_dim > 1) {
    std::string cd = std::to_string(cfg.env.cluster_dim);
    // Clusters above 8 CTAs are not portable: sm_90 launches them only
    // after the kernel opts in (CUDA programming guide, thread block clusters).
    if (cfg.env.cluster_dim > 8)
      h.line("if (cudaError_t exg_err = cudaFuncSetAttribute(" + ctx.kernel_name +
             ", cudaFuncAttributeNonPortableClusterSizeAllowed, 1)) " + ctx.error_return);
    h.line(grid + " = " + grid + " < " + cd + " ? " + cd + " : " + grid + " / " + cd + " * " + cd +
           ";");
    h.line("cudaLaunchConfig_t exg_cfg = {};");
    h.line("exg_cfg.gridDim = dim3(" + grid + ");");
    h.line("exg_cfg.blockDim = dim3(" + std::to_string(cfg.env.block_dim) + ");");
    h.line("exg_cfg.dynamicSmemBytes = " + bytes + ";");
    h.line("exg_cfg.stream = " + ctx.stream + ";");
    h.line("cudaLaunchAttribute exg_attr[1];");
    h.line("exg_attr[0].id = cudaLaunchAttributeClusterDimension;");
    h.line("exg_attr[0].val.clusterDim.x = " + cd + ";");
    h.line("exg_attr[0].val.clusterDim.y = 1;");
    h.line("exg_attr[0].val.clusterDim.z = 1;");
    h.line("exg_cfg.attrs = exg_attr;");
    h.line("exg_cfg.numAttrs = 1;");
    h.line("if (cudaError_t exg_err = cudaLaunchKernelEx(&exg_cfg, " + ctx.kernel_name + ", " +
           args + ")) " + ctx.error_return);
  } else {
    h.line(ctx.kernel_name + "<<<" + grid + ", " + std::to_string(cfg.env.block_dim) + ", " + bytes +
           ", " + ctx.stream + ">>>(" + args + ");");
  }
  h.line("if (cudaError_t exg_err = cudaGetLastError()) " + ctx.error_return);
  h.close();
  h.close();
  return true;
}

} // namespace exgc::codegen
