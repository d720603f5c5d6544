// checks.cpp - the synchronization checks of one exgc run ------------------//
#include "tools/exgc/checks.h"

#include <chrono>
#include <cstdio>
#include <set>

#include "compiler/synclower/derived_sizes.h"
#include "tools/exgc/progress.h"

namespace exgc {

SyncChecks::SyncChecks(const Program &prog, const DriverOptions &opts, gpu::GpuStage &stage,
                       DiagEngine &diag)
    : prog_(prog), opts_(opts), stage_(stage), diag_(diag) {
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

bool SyncChecks::run_all(std::string *sync_text) {
  bool ok = true;
  for (const synclower::CheckRequest &r : requests_) {
    Proc p = prog_.main().find_proc(r.proc);
    if (!p || p->is_instr) {
      ok = diag_.report(r.loc.valid() ? r.loc : SrcLoc{prog_.main().file, 0, 0},
                        DiagKind::CheckUnknownProc, r.proc);
      continue;
    }
    const gpu::GpuStage::Result *f = stage_.run(p);
    if (!f) {
      ok = false;
      continue;
    }
    // The declared sizes, then those at which the proc's rings wrap (the
    // first failure is enough to report).
    if (!run_one(p, r, *f, sync_text)) {
      ok = false;
      continue;
    }
    for (const synclower::CheckRequest &d : synclower::derived_checks(*f->inlined, r))
      if (!run_one(p, d, *f, sync_text)) {
        ok = false;
        break;
      }
  }
  return ok;
}

bool SyncChecks::run_one(const Proc &p, const synclower::CheckRequest &r,
                         const gpu::GpuStage::Result &stage, std::string *sync_text) {
  sync::CheckOptions copts;
  copts.budget = opts_.check_budget;
  CheckProgress progress(opts_.progress, opts_.diag_format);
  progress.begin(synclower::check_text(r) + (r.derived.empty() ? "" : " (derived)"));
  copts.progress = [&](double seconds) { progress.update(seconds); };
  auto start = std::chrono::steady_clock::now();
  sync::RunStats stats;
  bool passed = synclower::run_check(
      *stage.inlined, r, stage.facts,
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

std::vector<Proc> SyncChecks::checked_procs() const {
  std::vector<Proc> out;
  std::set<const ProcNode *> seen;
  for (const synclower::CheckRequest &r : requests_) {
    Proc p = prog_.main().find_proc(r.proc);
    if (p && !p->is_instr && seen.insert(p.get()).second)
      out.push_back(p);
  }
  return out;
}

bool SyncChecks::has_check(const std::string &name) const {
  for (const synclower::CheckRequest &r : requests_)
    if (r.proc == name)
      return true;
  return false;
}

} // namespace exgc
