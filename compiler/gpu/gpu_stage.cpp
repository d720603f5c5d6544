// gpu_stage.cpp - the GPU stage of one compilation, once per proc -----------//
#include "compiler/gpu/gpu_stage.h"

#include "compiler/gpu/gpu_check.h"

namespace exgc::gpu {

const GpuStage::Result *GpuStage::run(const Proc &p) {
  auto it = results_.find(p.get());
  if (it != results_.end())
    return it->second.get();
  DiagEngine::InProc in_proc(diag_, p->name);
  size_t first = diag_.diagnostics().size();
  auto r = std::make_unique<Result>();
  std::optional<InlinedDeviceCalls> in = inline_device_calls(p, lookup_, diag_);
  bool ok = in.has_value();
  if (ok) {
    r->inlined = in->proc;
    r->facts.inlined_from = std::move(in->call_site);
    ok = check_gpu_semantics(
        *r->inlined, [&](const std::string &name) { return lookup_(p.get(), name); }, diag_,
        r->facts);
  }
  if (!ok && on_errors)
    on_errors(first, p->name);
  return (results_[p.get()] = ok ? std::move(r) : nullptr).get();
}

} // namespace exgc::gpu
