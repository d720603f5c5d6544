// cuda_backend.cpp - the CUDA backend: host functions, header, assembly ---//
#include "compiler/codegen/cuda_backend.h"

#include <map>
#include <memory>

#include "compiler/analysis/control_limits.h"
#include "compiler/codegen/cuda_instr.h"
#include "compiler/codegen/cuda_kernel.h"
#include "compiler/gpu/gpu_stage.h"
#include "compiler/ir/printer.h"

namespace exgc {

using namespace codegen;

namespace {

/// Statements of a host function: seq loops, ifs, DRAM allocations and
/// stores, proc calls; a `with CudaDeviceFunction` becomes a kernel launch.
class HostStmtEmitter : public StmtEmitter {
public:
  HostStmtEmitter(ExprEmitter &ex, Writer &w, NameScope &names, AbiEffects &fx,
                  const ProcNode &proc, Writer &kernels, std::function<std::string()> kernel_name,
                  const gpu::GpuFacts &facts)
      : StmtEmitter(ex, w, names, fx, proc), kernels_(kernels),
        kernel_name_(std::move(kernel_name)), facts_(facts) {}
  std::string stream;
  bool *uses_sm90 = nullptr; // set when the file needs exg/sm90.h

protected:
  void emit_alloc(const Alloc *a) override {
    if (a->type.kind == Type::Kind::Barrier)
      return void(fail(a->loc, "'barrier' allocations in host code"));
    CxxBinding b;
    b.mem = a->type.mem;
    const analysis::MemoryInfo *m = memory_of(b);
    if (!m || m->space != analysis::MemSpace::Host)
      return void(fail(a->type.mem ? a->type.mem->loc : a->loc,
                       "'" + analysis::memory_name(a->type.mem) + "' allocations in host code"));
    host_alloc(a);
  }
  void emit_window(const WindowStmt *w) override {
    if (w->mem && analysis::resolve_memory(w->mem).is(analysis::MemId::Sm90_tensorMap)) {
      *uses_sm90 = true;
      if (!emit_tensor_map(w, ex_, w_, names_, "return exg_err;"))
        ok_ = false;
      return;
    }
    if (w->mem)
      return void(fail(w->mem->loc, "'" + analysis::memory_name(w->mem) + "' windows"));
    StmtEmitter::emit_window(w);
  }
  void emit_for(const For *f) override {
    if (f->mode.kind() == LoopKind::Seq)
      return seq_for(f, "");
    fail(f->loc, "'" + f->mode.name + "' loops"); // the GPU stage refused them here
  }
  void emit_call(const CallStmt *c) override {
    Proc callee = fx_.callee(&proc_, c->callee);
    if (callee && callee->is_instr)
      return void(fail(c->loc, "the instruction call '" + c->callee + "' in host code"));
    StmtEmitter::emit_call(c);
  }
  void emit_with(const With *w) override {
    if (w->context() != ContextKind::CudaDeviceFunction) // the GPU stage refused CudaWarps here
      return void(fail(w->loc, "'" + w->context_name() + "' in host code"));
    KernelContext ctx{ex_, w_, kernels_, names_, fx_, proc_, kernel_name_(), stream,
                      "return exg_err;", facts_.kernel(w), uses_sm90};
    if (!emit_device_function(w, ctx))
      ok_ = false;
  }
  void emit_sync(const Stmt &s) override {
    fail(s->loc, std::string(s.as<Fence>() ? "'Fence'" : s.as<Arrive>() ? "'Arrive'" : "'Await'") +
                     " in host code");
  }
  std::string call_prefix() override { return stream; }
  std::string status_check(const std::string &call) override {
    return "if (cudaError_t exg_err = " + call + ") return exg_err;";
  }

private:
  Writer &kernels_;
  std::function<std::string()> kernel_name_;
  const gpu::GpuFacts &facts_;
};

class CudaBackend {
public:
  CudaBackend(const Program &program, DiagEngine &diag, const EntryNaming &entries,
              gpu::GpuStage *stage)
      : program_(program), diag_(diag), fx_(program, diag, kCudaBackend), stage_(stage),
        entries_(entries) {
    fx_.set_device_calls_inlined();
    if (!stage_) {
      own_stage_ = std::make_unique<gpu::GpuStage>(
          [&program](const ProcNode *from, const std::string &name) {
            return program.lookup_from(from, name);
          },
          diag);
      stage_ = own_stage_.get();
    }
  }

  bool run(const std::vector<Proc> &procs, const std::string &header_name, std::ostream &cu,
           std::ostream &h) {
    for (const Proc &p : procs)
      if (p->is_instr)
        return diag_.report(p->loc, DiagKind::CodegenNotSupported,
                            "compiling the instruction '" + p->name + "' on its own",
                            kCudaBackend);
    std::vector<Proc> all;
    if (!fx_.collect_procs(procs, all))
      return false;
    // The GPU stage first (once per proc of the compilation): nothing is
    // emitted for a proc whose parallel reading it rejects, and kernels are
    // emitted from its facts. A proc called in device code is emitted as its
    // body at the call (docs/gpu.md), as the stage inlined it.
    bool checked = true;
    for (Proc &p : all) {
      const gpu::GpuStage::Result *r = stage_->run(p);
      if (!r) {
        checked = false;
        continue;
      }
      impl_[p.get()] = impl_names_.take(p->name);
      if (r->inlined != p) {
        fx_.alias(r->inlined.get(), p.get());
        impl_[r->inlined.get()] = impl_.at(p.get());
        p = r->inlined;
      }
      facts_[p.get()] = &r->facts;
    }
    if (!checked)
      return false;
    bool ok = true;
    Writer kernels, helpers, api, decls;
    for (const Proc &p : all)
      ok = emit_impl(*p, kernels, helpers) && ok;
    NameScope api_names;
    for (const Proc &p : procs)
      ok = emit_public(*p, api_names.take(entries_.prefix + p->name), api, decls) && ok;
    if (!ok)
      return false;
    std::string names;
    for (const Proc &p : procs)
      names += " " + p->name;
    h << c_header("// " + header_name + " - generated by exgc: host functions of" + names + ".\n" +
                      "// Do not edit. Each function enqueues its work on `stream` and returns\n"
                      "// cudaSuccess, cudaErrorInvalidValue when a precondition ('assert', or a\n"
                      "// 'size' argument < 1) fails (nothing is launched then), or the first CUDA\n"
                      "// error. Tensors are device pointers (see docs/abi.md).\n",
                  "#include <cuda_runtime_api.h>\n", decls.str(), entries_);
    cu << "// Generated by exgc: CUDA code of" << names << ". Do not edit.\n"
       << "#include \"" << header_name << "\"\n\n#include <vector>\n\n#include \"exg/runtime.h\"\n"
       << (uses_sm90_ ? "#include \"exg/sm90.h\" // Hopper: build for sm_90a\n" : "") << "\n"
       << float16_definitions(kernels.str() + helpers.str() + api.str())
       << "namespace {\nnamespace exg_impl {\n\n"
       << kernels.str() << helpers.str() << "} // namespace exg_impl\n} // namespace\n\n"
       << entry_scope_open(entries_) << "\n" << api.str() << entry_scope_close(entries_);
    return true;
  }

private:
  bool emit_impl(const ProcNode &p, Writer &kernels, Writer &w) {
    DiagEngine::InProc in_proc(diag_, p.name);
    NameScope names;
    std::string stream = names.take_internal("exg_stream");
    ProcAbi abi;
    if (!make_abi(p, fx_.written(&p), names, diag_, kCudaBackend, abi))
      return false;
    Env env;
    ExprEmitter ex(env, diag_, kCudaBackend);
    // The GPU stage refused host accesses of device memory.
    ex.on_access = [&](const CxxBinding &b, SrcLoc loc, bool) -> bool {
      if (b.kind == CxxBinding::Kind::Scalar)
        return true; // scalars are host values
      const analysis::MemoryInfo *m = memory_of(b);
      if (m && m->space == analysis::MemSpace::Host)
        return true;
      return ex.unsupported(loc, "'" + (m ? m->name : analysis::memory_name(b.mem)) +
                                     "' in host code");
    };
    bind_params(abi, ex);
    // Kernels take sizes as 32-bit values and compute in 32 bits what that
    // bounds (value_range.h): the entry refuses larger sizes, as an int
    // dimension of cuBLAS would not hold them. Asserts comparing an argument
    // with a literal, checked at entry too, narrow its interval further.
    for (const Arg &a : p.args) {
      const CxxBinding *b = ex.env().lookup(a.name);
      if (!b || b->kind != CxxBinding::Kind::Scalar || a.type.kind != Type::Kind::Control ||
          a.type.scalar == ValueType::Bool)
        continue;
      const int64_t max = a.type.scalar == ValueType::Size ? analysis::kMaxKernelSize
                                                            : analysis::kMaxSize;
      CxxBinding bounded = *b;
      bounded.range = analysis::bounded_by_asserts(
          a.name, {a.type.scalar == ValueType::Size ? 1 : -analysis::kMaxSize, max}, p.preds);
      ex.env().bind(a.name, bounded);
    }
    std::string decls = param_decls(abi, true);
    w.line("// " + p.name);
    w.open("cudaError_t " + impl_.at(&p) + "([[maybe_unused]] cudaStream_t " + stream +
           (decls.empty() ? "" : ", " + decls) + ")");
    emit_preconditions(
        p, ex, w, [](uint32_t) { return "return cudaErrorInvalidValue;"; },
        analysis::max_kernel_size_text());
    int nkernels = 0;
    HostStmtEmitter se(ex, w, names, fx_, p, kernels, [&] {
      return impl_names_.take_internal(impl_.at(&p) + "_kernel" + std::to_string(nkernels++));
    }, *facts_.at(&p));
    se.stream = stream;
    se.uses_sm90 = &uses_sm90_;
    // Qualified: argument-dependent lookup on cudaStream_t would also find
    // the extern "C" function of the same name declared by the header.
    se.impl_name = [this](const ProcNode *q) { return "exg_impl::" + impl_.at(q); };
    se.block(p.body);
    w.line("return cudaSuccess;");
    w.close();
    w.line("");
    return se.ok() && !ex.failed();
  }

  bool emit_public(const ProcNode &p, const std::string &name, Writer &w, Writer &decls) {
    DiagEngine::InProc in_proc(diag_, p.name);
    NameScope names;
    std::string stream = names.take_internal("stream");
    ProcAbi abi;
    if (!make_abi(p, fx_.written(&p), names, diag_, kCudaBackend, abi))
      return false;
    Env env;
    ExprEmitter ex(env, diag_, kCudaBackend);
    bind_params(abi, ex);
    std::string forwarded = forward_args(abi);
    std::string args = stream + (forwarded.empty() ? "" : ", " + forwarded);
    std::string pd = param_decls(abi);
    std::string sig = "cudaError_t " + name + "(cudaStream_t " + stream +
                      (pd.empty() ? "" : ", " + pd) + ")";
    decls.line(sig + ";");
    w.open(sig);
    w.line("return exg_impl::" + impl_.at(&p) + "(" + args + ");");
    w.close();
    w.line("");
    return !ex.failed();
  }

  const Program &program_;
  DiagEngine &diag_;
  AbiEffects fx_;
  gpu::GpuStage *stage_;
  std::unique_ptr<gpu::GpuStage> own_stage_; // when the caller gives none
  std::map<const ProcNode *, const gpu::GpuFacts *> facts_; // by the emitted (inlined) proc
  NameScope impl_names_;
  std::map<const ProcNode *, std::string> impl_;
  bool uses_sm90_ = false;
  EntryNaming entries_;
};

} // namespace

bool emit_cuda(const Program &program, const std::vector<Proc> &procs,
               const std::string &header_name, std::ostream &cu, std::ostream &h,
               DiagEngine &diag, const EntryNaming &entries, gpu::GpuStage *stage) {
  return CudaBackend(program, diag, entries, stage).run(procs, header_name, cu, h);
}

} // namespace exgc
