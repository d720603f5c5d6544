// checks.cpp - the synchronization checks of one exgc run ------------------//
#include "tools/exgc/checks.h"

#include <chrono>
#include <cstdio>
#include <set>
#include <sstream>

#include "compiler/codegen/cuda_backend.h"
#include "compiler/gpu/device_calls.h"
#include "compiler/gpu/gpu_check.h"
#include "compiler/ir/visitor.h"
#include "compiler/synclower/derived_sizes.h"
#include "tools/exgc/progress.h"

namespace exgc {

SyncChecks::SyncChecks(const Program &prog, const DriverOptions &opts, DiagEngine &diag)
    : prog_(prog), opts_(opts), diag_(diag) {
  std::set<std::string> replaced;
  for (const DriverOptions::CheckSize &c : opts.check_sizes)
    replaced.insert(c.proc);
  for (const Decl &d : prog.main().decls)
    if (const auto *c = std::get_if<CheckDecl>(&d); c && !replaced.count(c->proc))
      requests_.push_back({c->proc, c->sizes, c->loc, ""});
  for (const DriverOptions::CheckSize &c : opts.check_sizes) {
    synclower::CheckRequest r{c.proc, {}, SrcLoc{}, ""};
    for (const auto &[name, value] : c.sizes)
      r.sizes.push_back(KwArg{name, IntImm::make(value), SrcLoc{}});
    requests_.push_back(std::move(r));
  }
}

const gpu::GpuFacts *SyncChecks::facts(const Proc &p) {
  auto it = facts_.find(p.get());
  if (it == facts_.end()) {
    auto f = std::make_unique<gpu::GpuFacts>();
    std::optional<gpu::InlinedDeviceCalls> in = gpu::inline_device_calls(
        p, [&](const ProcNode *from, const std::string &name) {
          return prog_.lookup_from(from, name);
        },
        diag_);
    bool ok = in.has_value();
    if (ok) {
      inlined_[p.get()] = in->proc;
      f->inlined_from = std::move(in->call_site);
      ok = gpu::check_gpu_semantics(
          *in->proc, [&](const std::string &name) { return prog_.lookup_from(p.get(), name); },
          diag_, *f);
    }
    it = facts_.emplace(p.get(), ok ? std::move(f) : nullptr).first;
  }
  return it->second.get();
}

bool SyncChecks::run_all(std::string *sync_text) {
  bool ok = true;
  for (const synclower::CheckRequest &r : requests_) {
    Proc p = prog_.main().find_proc(r.proc);
    if (!p || p->is_instr) {
      ok = diag_.report(r.loc.valid() ? r.loc : SrcLoc{prog_.main().file, 0, 0},
                        DiagKind::CheckUnknownProc, r.proc);
      continue;
    }
    const gpu::GpuFacts *f = facts(p);
    if (!f || !structure_ok(p, *f)) {
      ok = false;
      continue;
    }
    // The declared sizes, then those at which the proc's rings wrap (the
    // first failure is enough to report).
    if (!run_one(p, r, *f, sync_text)) {
      ok = false;
      continue;
    }
    for (const synclower::CheckRequest &d : synclower::derived_checks(*inlined_.at(p.get()), r))
      if (!run_one(p, d, *f, sync_text)) {
        ok = false;
        break;
      }
  }
  return ok;
}

namespace {
/// Whether some device function of a body has no kernel facts.
struct DeviceFunctionWithoutFacts : IRVisitor {
  explicit DeviceFunctionWithoutFacts(const gpu::GpuFacts &f) : facts(f) {}
  const gpu::GpuFacts &facts;
  bool found = false;
  void visit_node(const With *w) override {
    const auto *c = w->ctx.as<Call>();
    found |= c && c->func == "CudaDeviceFunction" && !facts.kernels.count(w);
    IRVisitor::visit_node(w);
  }
};
} // namespace

bool SyncChecks::structure_ok(const Proc &p, const gpu::GpuFacts &f) {
  auto it = structure_.find(p.get());
  if (it != structure_.end())
    return it->second;
  DeviceFunctionWithoutFacts v(f);
  v.visit(inlined_.at(p.get())->body);
  bool ok = true;
  if (v.found) {
    // The backend's text is dropped; only its diagnostics matter here.
    unsigned errors = diag_.num_errors();
    size_t first = diag_.diagnostics().size();
    std::ostringstream cu, h;
    emit_cuda(prog_, {p}, "check.h", cu, h, diag_);
    ok = diag_.num_errors() == errors;
    if (!ok && on_backend_errors)
      on_backend_errors(first, p->name);
  }
  return structure_[p.get()] = ok;
}

bool SyncChecks::run_one(const Proc &p, const synclower::CheckRequest &r,
                         const gpu::GpuFacts &f, std::string *sync_text) {
  sync::CheckOptions copts;
  copts.budget = opts_.check_budget;
  CheckProgress progress(opts_.progress, opts_.diag_format);
  progress.begin(synclower::check_text(r) + (r.derived.empty() ? "" : " (derived)"));
  copts.progress = [&](double seconds) { progress.update(seconds); };
  auto start = std::chrono::steady_clock::now();
  sync::RunStats stats;
  bool passed = synclower::run_check(
      *inlined_.at(p.get()), r, f,
      [&](const std::string &name) { return prog_.lookup_from(p.get(), name); }, copts,
      diag_.sources(), diag_, sync_text, &stats);
  progress.end();
  if (!passed)
    return false;
  std::string line = synclower::check_text(r);
  if (!r.derived.empty())
    line += " (derived: " + r.derived + ")";
  if (opts_.stats) {
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    char buf[32];
    std::snprintf(buf, sizeof buf, " in %.3f s", took.count());
    line += buf;
    // The symmetry reductions that applied (docs/sync.md).
    if (stats.replayed_tasks || stats.replayed_iterations)
      line += " (replayed " + std::to_string(stats.replayed_tasks) + " tasks, skipped " +
              std::to_string(stats.replayed_iterations) + " loop iterations)";
  }
  passed_.push_back(line);
  return true;
}

bool SyncChecks::has_check(const std::string &name) const {
  for (const synclower::CheckRequest &r : requests_)
    if (r.proc == name)
      return true;
  return false;
}

} // namespace exgc
