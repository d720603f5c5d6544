// compilation.cpp - one input through the stages, each run once -------------//
#include "compiler/pipeline/compilation.h"

#include <algorithm>

#include "compiler/frontend/typecheck.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/provenance.h"

namespace exgc {

namespace {

/// The steps `about` says something of, grouped by schedule: one
/// diagnostic `kind` per schedule that ran any (at the schedule, its count
/// as argument {1}, `noun` for "step"), with a note at each place such a step
/// ran (a `def` called twice runs its step twice at one place).
void report_steps(const schedule::Interpreter &interp, DiagEngine &diag, DiagKind kind,
                  const std::string &noun,
                  const std::function<std::string(const schedule::Interpreter::Step &)> &about) {
  struct Place {
    SrcLoc loc;
    std::string note;
    size_t times;
  };
  std::vector<std::string> order;
  std::map<std::string, std::vector<Place>> places;
  std::map<std::string, size_t> counts;
  for (const schedule::Interpreter::Step &s : interp.steps()) {
    std::string note = about(s);
    if (note.empty())
      continue;
    if (!counts[s.schedule]++)
      order.push_back(s.schedule);
    std::vector<Place> &ps = places[s.schedule];
    auto same = std::find_if(ps.begin(), ps.end(),
                             [&](const Place &p) { return p.loc == s.loc && p.note == note; });
    if (same != ps.end())
      ++same->times;
    else
      ps.push_back({s.loc, note, 1});
  }
  for (const std::string &name : order) {
    auto result = interp.results().find(name);
    SrcLoc at = result != interp.results().end() ? result->second->loc : places[name][0].loc;
    size_t n = counts[name];
    DiagBuilder b =
        diag.report(at, kind, name, std::to_string(n) + " " + noun + (n == 1 ? "" : "s"));
    for (const Place &p : places[name])
      b.note(p.loc, p.note + (p.times > 1 ? " (" + std::to_string(p.times) + " steps here)" : ""));
  }
}

/// An unsafe step skipped its check: a warning per schedule that used any.
void report_unsafe_steps(const schedule::Interpreter &interp, DiagEngine &diag) {
  report_steps(interp, diag, DiagKind::UnsafeStepsApplied, "unsafe step",
               [](const schedule::Interpreter::Step &s) -> std::string {
                 if (!schedule::is_unsafe_primitive(s.primitive))
                   return "";
                 return "unsafe step '" + s.primitive + "' rewrote '" + s.schedule +
                        "' without checking that its meaning is kept";
               });
}

/// A step that keeps the meaning over the reals but rounds otherwise
/// (reordered float sums, another precision): a remark per schedule.
void report_rounding_steps(const schedule::Interpreter &interp, DiagEngine &diag) {
  report_steps(interp, diag, DiagKind::RoundingStepsApplied, "step",
               [](const schedule::Interpreter::Step &s) -> std::string {
                 std::string what;
                 for (const analysis::RoundingChange &r : s.rounding)
                   what += (what.empty() ? "" : "; ") + r.what;
                 return what.empty() ? "" : "step '" + s.primitive + "' " + what;
               });
}

} // namespace

bool Compilation::load(const std::string &path, const LoadOptions &opts) {
  program_ = load_program(path, opts, sources_, diag_);
  stage_end("load");
  return program_ && !diag_.has_errors();
}

bool Compilation::typecheck() {
  bool typed = exgc::typecheck(*program_, diag_);
  if (on_typechecked)
    on_typechecked(*program_, sources_);
  stage_end("typecheck");
  return typed && !diag_.has_errors();
}

bool Compilation::run_schedules(const ScheduleOptions &opts) {
  interp_ = std::make_unique<schedule::Interpreter>(*program_, diag_, opts.budget);
  interp_->set_value_overrides(opts.value_overrides);
  bool ran = interp_->run_all();
  stage_end("schedules");
  if (!ran || diag_.has_errors())
    return false;
  report_unsafe_steps(*interp_, diag_);
  if (opts.list_rounding)
    report_rounding_steps(*interp_, diag_);
  return recheck_results();
}

bool Compilation::recheck_results() {
  // Results are procs of the main module (another result may call one, after
  // call_eqv), and are so during their re-check.
  LoadedModule &main = program_->main_loaded();
  for (const auto &[name, proc] : interp_->results())
    main.scope[name] = proc;
  // Every rewrite was checked on its own; the whole result is checked again,
  // and its errors say which schedule made it.
  bool ok = true;
  for (const auto &[name, proc] : interp_->results()) {
    size_t first = diag_.diagnostics().size();
    DiagEngine::InProc in(diag_, name);
    if (typecheck_proc(*program_, *proc, diag_))
      continue;
    ok = false;
    schedule::note_schedule_provenance(*interp_, diag_, first);
  }
  stage_end("re-check of results");
  if (!ok)
    return false;
  for (const auto &[name, proc] : interp_->results())
    main.module.decls.push_back(proc);
  return true;
}

std::unique_ptr<Program> Compilation::release_program() {
  gpu_stage_.reset();
  interp_.reset();
  return std::move(program_);
}

gpu::GpuStage &Compilation::gpu_stage() {
  if (!gpu_stage_)
    gpu_stage_ = std::make_unique<gpu::GpuStage>(
        [this](const ProcNode *from, const std::string &name) {
          return program_->lookup_from(from, name);
        },
        diag_);
  return *gpu_stage_;
}

std::optional<size_t> Compilation::gpu_stage_runs() const {
  if (!gpu_stage_)
    return std::nullopt;
  return gpu_stage_->runs();
}

} // namespace exgc
