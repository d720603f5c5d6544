// driver.cpp - the pipeline of one exgc run --------------------------------//
// The front stages run on a Compilation (pipeline/compilation.h): load
// (parse, build, imports), typecheck (with the bounds check), schedules
// (each result re-checked whole); the driver adds what to emit around them:
// -D names checked after load -> [--emit=exg: print the module] ->
// typecheck -> schedules (-D values applied) -> [--emit=exg -e: print the
// procs] -> [--emit=difftest: test every schedule step] -> pick the procs ->
// [CUDA, --verify, --emit=sync: the compilation's GPU stage and the `check`s
// of the synchronization checker] -> emit CUDA (.cu + .h; --verify runs the
// backend for what it cannot emit, writing nothing) or CPU reference C++.
// Stages report through one DiagEngine; the driver stops after the first
// stage that reported an error and renders everything at the end. Outputs
// are collected and written only by a run without errors (outputs.h).
#include "tools/exgc/driver.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "compiler/analysis/memories.h"
#include "compiler/analysis/solver.h"
#include "compiler/codegen/cpp_backend.h"
#include "compiler/codegen/cuda_backend.h"
#include "compiler/codegen/difftest.h"
#include "compiler/gpu/kernel_calls.h"
#include "compiler/ir/device_code.h"
#include "compiler/ir/printer.h"
#include "compiler/pipeline/compilation.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/schedule/provenance.h"
#include "compiler/support/cancel.h"
#include "compiler/support/check.h"
#include "compiler/support/diagnostics.h"
#include "compiler/support/did_you_mean.h"
#include "compiler/support/install_paths.h"
#include "tools/exgc/checks.h"
#include "tools/exgc/outputs.h"

namespace exgc {

namespace {

/// --print-stats: wall time of each stage, primitive steps, solver queries.
class Stats {
public:
  using Clock = std::chrono::steady_clock;
  /// Ends the current stage (begun at construction or the previous call);
  /// a cancelled run (DriverOptions::cancel) stops here.
  void stage(const char *name) {
    Clock::time_point now = Clock::now();
    analysis::IndexSolver::Totals t = analysis::IndexSolver::totals();
    stages_.push_back({name, std::chrono::duration<double>(now - last_).count(),
                       t.queries - queries_.queries, t.cache_hits - queries_.cache_hits});
    last_ = now;
    queries_ = t;
    throw_if_cancelled(cancel);
  }
  const std::atomic<bool> *cancel = nullptr;
  size_t steps = 0;
  std::optional<size_t> gpu_procs; // procs the GPU stage ran on, when it ran
  void print(std::ostream &os) const {
    Stage total{"total", 0, 0, 0};
    os << "exgc stats (wall seconds; solver queries, and how many a cache answered):\n";
    for (const Stage &s : stages_) {
      std::string extra;
      if (std::string(s.name) == "schedules")
        extra = " (" + std::to_string(steps) + " primitive steps)";
      if (std::string(s.name) == "GPU semantics" && gpu_procs)
        extra = " (" + std::to_string(*gpu_procs) + " procs, each once)";
      line(os, s, extra);
      total.seconds += s.seconds;
      total.queries += s.queries;
      total.hits += s.hits;
    }
    line(os, total, "");
    os << "  largest query: " << analysis::IndexSolver::totals().max_rlimit_used
       << " resource units of the limit " << analysis::IndexSolver::default_rlimit() << "\n";
  }

private:
  struct Stage {
    const char *name;
    double seconds;
    size_t queries, hits;
  };
  static void line(std::ostream &os, const Stage &s, const std::string &extra) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "  %-22s %8.4f s %8zu queries %8zu cached", s.name, s.seconds,
                  s.queries, s.hits);
    os << buf << extra << "\n";
  }

  std::vector<Stage> stages_;
  Clock::time_point last_ = Clock::now();
  analysis::IndexSolver::Totals queries_ = analysis::IndexSolver::totals();
};

/// `dir/name.exg` -> `name` + ext, in the current directory.
std::string derived_output(const std::string &input, const std::string &ext) {
  std::string base = input.substr(input.find_last_of('/') + 1);
  size_t dot = base.find_last_of('.');
  if (dot != std::string::npos && dot > 0)
    base = base.substr(0, dot);
  return base + ext;
}

/// `k.cu` -> `k.h`; the header sits beside the .cu (or .cpp) file.
std::string header_path_for(const std::string &cu_path) {
  size_t slash = cu_path.find_last_of('/');
  size_t dot = cu_path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return cu_path + ".h";
  return cu_path.substr(0, dot) + ".h";
}

/// The file `--emit=exg` and `--emit=sync` write: standard output by default.
std::string text_output(const DriverOptions &opts) {
  return opts.output.empty() ? "-" : opts.output;
}

std::string difftest_output(const DriverOptions &opts) {
  if (!opts.output.empty())
    return opts.output;
  return derived_output(opts.input,
                        opts.emit == EmitKind::Runall ? "_runall.cpp" : "_difftest.cpp");
}

/// The code file of --emit=cu or --emit=cpp; its header is header_path_for it.
std::string code_output(const DriverOptions &opts) {
  if (!opts.output.empty())
    return opts.output;
  return derived_output(opts.input, opts.emit == EmitKind::Cpp ? ".cpp" : ".cu");
}

/// Every file a successful run with `opts` writes: what a failed one removes.
std::vector<std::string> planned_outputs(const DriverOptions &opts) {
  if (opts.verify)
    return {};
  std::vector<std::string> out;
  switch (opts.emit) {
  case EmitKind::Exg:
  case EmitKind::Sync: out.push_back(text_output(opts)); break;
  case EmitKind::Difftest:
  case EmitKind::Runall: out.push_back(difftest_output(opts)); break;
  case EmitKind::Cuda:
  case EmitKind::Cpp:
    out.push_back(code_output(opts));
    if (out.back() != "-") // on standard output there is no place beside it for a header
      out.push_back(header_path_for(out.back()));
    break;
  }
  out.push_back(opts.dep_file);
  return out;
}

/// A path as Make and Ninja read it in a dependency file: spaces, '#' and
/// '$' escaped.
std::string make_escaped(const std::string &path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#')
      out += '\\';
    if (c == '$')
      out += '$';
    out += c;
  }
  return out;
}

/// -MD: `target: main.exg imported.exg ...`, every module the run loaded, so a
/// build rebuilds `target` when any of them changes.
std::string dep_file_text(const std::string &target, const Program &prog, const DiagEngine &diag) {
  std::string text = make_escaped(target) + ":";
  for (const auto &m : prog.modules) {
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(diag.sources().name(m->module.file), ec);
    text += " \\\n  " + make_escaped(ec ? diag.sources().name(m->module.file) : abs.string());
  }
  return text + "\n";
}

/// -D names the main module's top-level values; a name it does not assign
/// is an error, with the nearest one it does.
bool check_value_overrides(const Program &prog, const DriverOptions &opts, DiagEngine &diag) {
  const Module &m = prog.main();
  std::vector<std::string> names;
  for (const Decl &d : m.decls)
    if (const auto *v = std::get_if<ValueDecl>(&d))
      names.push_back(v->name);
  bool ok = true;
  for (const auto &[name, text] : opts.value_overrides)
    if (std::find(names.begin(), names.end(), name) == names.end())
      ok = diag.report(SrcLoc{m.file, 0, 0}, DiagKind::UnknownValueOverride, name,
                       did_you_mean(name, names));
  return ok;
}

/// --emit=exg -e NAME: each named proc as the pipeline has it, schedule
/// results as their schedules made them.
std::string print_procs(const std::vector<Proc> &procs) {
  std::string text;
  for (const Proc &p : procs)
    text += (text.empty() ? "" : "\n") + print_proc(*p);
  return text;
}

/// The procs to compile: -e names, else the module's exports, else every proc
/// (not instr) the main module defines, schedule results included, except
/// those called in device code: a device helper is compiled at its calls,
/// inlined (docs/gpu.md), and has no host function of its own.
bool select_procs(const Program &prog, const DriverOptions &opts, DiagEngine &diag,
                  std::vector<Proc> &out) {
  const Module &m = prog.main();
  std::vector<std::pair<std::string, SrcLoc>> names;
  for (const std::string &e : opts.entry_procs)
    names.push_back({e, SrcLoc{m.file, 0, 0}});
  if (names.empty())
    for (const Decl &d : m.decls)
      if (const auto *e = std::get_if<ExportDecl>(&d))
        for (size_t i = 0; i < e->names.size(); ++i)
          names.push_back({e->names[i], e->locs[i]});
  bool ok = true;
  std::set<std::string> seen;
  auto take = [&](const std::string &name, SrcLoc loc) {
    if (!seen.insert(name).second)
      return;
    if (Proc p = m.find_proc(name)) {
      out.push_back(p);
      return;
    }
    ok = diag.report(loc, DiagKind::UnknownExportName, name);
  };
  if (!names.empty()) {
    for (const auto &[name, loc] : names)
      take(name, loc);
    return ok;
  }
  std::set<std::string> helpers;
  for (const Decl &d : m.decls)
    if (const Proc *p = std::get_if<Proc>(&d))
      helpers.merge(device_code((*p)->body).device_callees);
  for (const Decl &d : m.decls)
    if (const Proc *p = std::get_if<Proc>(&d); p && !(*p)->is_instr && !helpers.count((*p)->name))
      take((*p)->name, (*p)->loc);
  if (ok && out.empty())
    diag.report(SrcLoc{m.file, 0, 0}, DiagKind::NothingToCompile, diag.sources().name(m.file));
  return ok;
}

/// The difftest's tolerance for a case whose procs differ by the rounding
/// `changes` make: 16 units of roundoff of the coarsest type they change
/// (docs/scheduling.md, "Differential testing"), never below the 1e-5 of an
/// exact case.
double rounding_tolerance(const std::vector<const schedule::Interpreter::Step *> &steps) {
  double tol = 1e-5;
  for (const schedule::Interpreter::Step *s : steps)
    for (const analysis::RoundingChange &r : s->rounding)
      tol = std::max(tol, 16 * analysis::unit_roundoff(r.type));
  return tol;
}

/// --emit=difftest: each schedule (input -> result) and each of its
/// primitive steps that made a new proc (input -> output) is a case.
void add_schedule_cases(const schedule::Interpreter &interp, std::vector<DiffCase> &cases) {
  for (const auto &[name, proc] : interp.results())
    cases.push_back({"schedule '" + name + "'", proc->loc, interp.inputs().at(name), proc,
                     rounding_tolerance(interp.rounding_steps(proc))});
  for (const schedule::Interpreter::Step &s : interp.steps())
    if (!s.before.get() || s.before.get() != s.after.get())
      cases.push_back({"step '" + s.primitive + "' of schedule '" + s.schedule + "'", s.loc,
                       s.before, s.after, rounding_tolerance({&s})});
}

/// --difftest-pair=REF:CAND: the hand-written proc CAND, tested against REF
/// like a schedule step (both of the main module, schedule results included).
bool add_difftest_pairs(const Program &prog, const DriverOptions &opts, DiagEngine &diag,
                        std::vector<DiffCase> &cases) {
  const Module &m = prog.main();
  bool ok = true;
  for (const std::string &pair : opts.difftest_pairs) {
    size_t colon = pair.find(':');
    std::string ref = pair.substr(0, colon), cand = pair.substr(colon + 1);
    Proc r = m.find_proc(ref), c = m.find_proc(cand);
    if (!r)
      ok = diag.report(SrcLoc{m.file, 0, 0}, DiagKind::UnknownExportName, ref);
    if (!c)
      ok = diag.report(SrcLoc{m.file, 0, 0}, DiagKind::UnknownExportName, cand);
    if (r && c)
      cases.push_back({"proc '" + cand + "' against '" + ref + "'", c->loc, r, c});
  }
  return ok;
}

/// A call that passes one buffer to two parameters of a kernel-launching proc
/// (one written) runs a program its check never saw: refused.
bool check_kernel_calls(const Program &prog, const std::vector<Proc> &procs, DiagEngine &diag) {
  auto lookup = [&](const ProcNode *from, const std::string &n) {
    return prog.lookup_from(from, n);
  };
  bool ok = true;
  for (const Proc &p : procs)
    ok = gpu::check_kernel_call_aliasing(*p, lookup, diag) && ok;
  return ok;
}

/// A compiled parallel proc that no `check` covers was not verified: say so
/// (an error under --require-check). False when that was an error.
bool warn_unverified(const std::vector<Proc> &procs, const SyncChecks &checks,
                     const DriverOptions &opts, DiagEngine &diag) {
  bool ok = true;
  for (const Proc &p : procs) {
    if (has_device_function(p->body) && !checks.has_check(p->name)) {
      diag.report(p->loc,
                  opts.require_check ? DiagKind::SyncCheckRequired : DiagKind::SyncNotVerified,
                  p->name);
      ok = !opts.require_check && ok;
    }
  }
  return ok;
}

/// Runs a stage (`run`) on compiled procs; what it reports in a schedule's
/// result is attributed to that schedule and step, since the code's place is
/// shared with the proc it came from.
template <typename Run>
bool attributed(schedule::Interpreter &interp, DiagEngine &diag, Run run) {
  size_t first = diag.diagnostics().size();
  bool ran = run();
  schedule::note_schedule_provenance(interp, diag, first);
  return ran;
}

/// A host proc that touches device memory is often the CPU reference of a
/// kernel in the same module, compiled only because nothing chose what to
/// compile: each such error from `first` on says so and how to choose.
void explain_implicit_selection(const Program &prog, const DriverOptions &opts,
                                const std::vector<Proc> &procs, DiagEngine &diag, size_t first) {
  bool exports = false;
  for (const Decl &d : prog.main().decls)
    exports |= std::holds_alternative<ExportDecl>(d);
  if (exports || !opts.entry_procs.empty())
    return;
  std::vector<std::string> kernels;
  for (const Proc &p : procs)
    if (has_device_function(p->body))
      kernels.push_back(p->name);
  std::string e_flags, export_list;
  for (const std::string &k : kernels) {
    e_flags += (e_flags.empty() ? "-e " : " -e ") + k;
    export_list += (export_list.empty() ? "" : ", ") + k;
  }
  std::set<std::string> explained;
  for (size_t i = first; i < diag.diagnostics().size(); ++i) {
    Diagnostic &d = diag.at(i);
    if (d.kind != DiagKind::HostAccessesDeviceMemory || d.procs.empty() ||
        !explained.insert(d.procs.front()).second)
      continue;
    const std::string &host = d.procs.front();
    Proc p = prog.main().find_proc(host);
    std::string why =
        "'" + host + "' is compiled because the module has no export list and no -e; ";
    std::string fix = kernels.empty()
                          ? "compile '" + host + "' as a CPU reference with --emit=cpp"
                          : "compile only the kernel" + std::string(kernels.size() > 1 ? "s" : "") +
                                " with '" + e_flags + "' or 'export " + export_list + "', and '" +
                                host + "' as the CPU reference with --emit=cpp";
    d.notes.push_back({p ? p->loc : d.loc, why + fix});
  }
}

/// The CUDA backend into memory. It also says what it cannot emit, which no
/// earlier stage knows, so --verify runs it too and drops the text.
bool generate_cuda(const Program &prog, const DriverOptions &opts, const std::vector<Proc> &procs,
                   schedule::Interpreter &interp, const std::string &h_name, std::ostream &cu,
                   std::ostream &h, DiagEngine &diag, Stats &stats,
                   gpu::GpuStage &stage, const codegen::EntryNaming &entries = {}) {
  size_t first = diag.diagnostics().size();
  bool emitted = attributed(interp, diag, [&] {
    return emit_cuda(prog, procs, h_name, cu, h, diag, entries, &stage);
  });
  explain_implicit_selection(prog, opts, procs, diag, first);
  stats.stage("CUDA code generation");
  return emitted;
}

/// The GPU stage on every proc compiled (`procs`) or checked, first, so that
/// its errors get their notes here, once; the checks and the backend reuse
/// its results. False after errors.
bool run_gpu_stage(const Program &prog, const DriverOptions &opts, const std::vector<Proc> &procs,
                   const SyncChecks &checks, gpu::GpuStage &stage,
                   schedule::Interpreter &interp, DiagEngine &diag) {
  size_t first = diag.diagnostics().size();
  bool ok = attributed(interp, diag, [&] {
    bool all = true;
    for (const Proc &p : procs)
      all = stage.run(p) && all;
    for (const Proc &p : checks.checked_procs())
      all = stage.run(p) && all;
    return all;
  });
  explain_implicit_selection(prog, opts, procs, diag, first);
  return ok;
}

/// --verify: every check that exists, on the procs that would be compiled
/// (the backend's own checks last, as a compilation reaches them), and
/// nothing written.
int verify(Compilation &comp, const DriverOptions &opts, Stats &stats) {
  const Program &prog = *comp.program();
  schedule::Interpreter &interp = *comp.interpreter();
  DiagEngine &diag = comp.diag();
  std::vector<Proc> procs;
  if (!select_procs(prog, opts, diag, procs))
    return 1;
  gpu::GpuStage &stage = comp.gpu_stage();
  SyncChecks checks(prog, opts, stage, diag);
  run_gpu_stage(prog, opts, procs, checks, stage, interp, diag);
  attributed(interp, diag, [&] { return check_kernel_calls(prog, procs, diag); });
  stats.stage("GPU semantics");
  checks.run_all(nullptr);
  stats.stage("synchronization checks");
  // A proc with no kernel and only host arguments may be meant for the C++
  // backend alone (an instr with only a C++ `emit:`): the CUDA backend's
  // checks are not its checks.
  std::vector<Proc> gpu_procs;
  for (const Proc &p : procs) {
    bool device_arg = false;
    for (const Arg &a : p->args)
      device_arg |= a.type.mem && !analysis::resolve_memory(a.type.mem).is(analysis::MemId::DRAM);
    if (device_arg || has_device_function(p->body))
      gpu_procs.push_back(p);
  }
  if (!diag.has_errors() && !gpu_procs.empty()) {
    std::ostringstream cu, h;
    generate_cuda(prog, opts, gpu_procs, interp, "verify.h", cu, h, diag, stats, stage);
  }
  warn_unverified(procs, checks, opts, diag);
  if (opts.report_checks)
    for (const std::string &line : checks.passed())
      std::cout << "exgc: checked " << line << "\n";
  return diag.has_errors() ? 1 : 0;
}

/// --function-prefix and --namespace must make names that clash with
/// nothing the generated code or C++ declares.
bool check_entry_naming(const codegen::EntryNaming &entries, DiagEngine &diag) {
  bool ok = true;
  if (std::string problem = codegen::function_prefix_problem(entries.prefix);
      !entries.prefix.empty() && !problem.empty())
    ok = diag.report(SrcLoc{}, DiagKind::BadFunctionPrefix, entries.prefix, problem);
  if (std::string problem = codegen::namespace_problem(entries.cxx_namespace);
      !entries.cxx_namespace.empty() && !problem.empty())
    ok = diag.report(SrcLoc{}, DiagKind::BadNamespace, entries.cxx_namespace, problem);
  return ok;
}

/// The pipeline on `comp`, which keeps the program for the caller
/// (check_program). What it would write goes to `out`, written only when the
/// run succeeds.
int compile(const DriverOptions &opts, Compilation &comp, Stats &stats, Outputs &out) {
  DiagEngine &diag = comp.diag();
  SourceManager &sources = comp.sources();
  if (!check_entry_naming(opts.entries, diag))
    return 2; // bad usage: nothing is read
  LoadOptions lo;
  lo.include_dirs = opts.include_dirs;
  lo.stdlib_dir = opts.stdlib_dir;
  lo.max_file_bytes = opts.max_input_bytes;
  lo.unsaved = opts.unsaved;
  if (!comp.load(opts.input, lo))
    return 1;
  Program *prog = comp.program();
  if (!check_value_overrides(*prog, opts, diag))
    return 1;

  auto add_deps = [&](const std::string &target) {
    if (!opts.dep_file.empty())
      out.add(opts.dep_file, dep_file_text(target, *prog, diag));
  };
  // The module as written, comments kept; no checks run.
  if (opts.emit == EmitKind::Exg && opts.entry_procs.empty()) {
    const Module &main = prog->main();
    out.add(text_output(opts), print_module(main, &sources.text(main.file)));
    return 0;
  }

  comp.on_typechecked = opts.on_typechecked;
  if (!comp.typecheck())
    return 1;
  bool difftest = opts.emit == EmitKind::Difftest;
  Compilation::ScheduleOptions so;
  so.budget = opts.script_budget;
  so.value_overrides = {opts.value_overrides.begin(), opts.value_overrides.end()};
  so.list_rounding = opts.verify || difftest;
  bool scheduled = comp.run_schedules(so);
  if (comp.interpreter())
    stats.steps = comp.interpreter()->steps().size();
  if (!scheduled)
    return 1;
  schedule::Interpreter &interp = *comp.interpreter();
  if (opts.verify)
    return verify(comp, opts, stats);
  std::vector<DiffCase> cases;
  if (difftest)
    add_schedule_cases(interp, cases);
  if (opts.emit == EmitKind::Exg) {
    std::vector<Proc> procs;
    if (!select_procs(*prog, opts, diag, procs))
      return 1;
    out.add(text_output(opts), print_procs(procs));
    return 0;
  }
  if (opts.emit == EmitKind::Sync) {
    std::string text;
    gpu::GpuStage &stage = comp.gpu_stage();
    SyncChecks checks(*prog, opts, stage, diag);
    bool passed = run_gpu_stage(*prog, opts, {}, checks, stage, interp, diag);
    passed = checks.run_all(&text) && passed;
    stats.stage("synchronization checks");
    out.add(text_output(opts), text);
    return passed ? 0 : 1;
  }
  if (opts.emit == EmitKind::Difftest && !add_difftest_pairs(*prog, opts, diag, cases))
    return 1;
  if (opts.emit == EmitKind::Runall) {
    // Each proc of the main module against itself: the difftest program's
    // size search and data, for a run under the sanitizers (test/sanitize/).
    cases.clear();
    for (const Decl &d : prog->main().decls)
      if (const Proc *p = std::get_if<Proc>(&d); p && !(*p)->is_instr)
        cases.push_back({"proc '" + (*p)->name + "'", (*p)->loc, *p, *p});
  }
  if (opts.emit == EmitKind::Difftest || opts.emit == EmitKind::Runall) {
    std::ostringstream cpp;
    bool emitted = emit_difftest(*prog, cases, cpp, diag);
    stats.stage("difftest generation");
    if (!emitted)
      return 1;
    out.add(difftest_output(opts), cpp.str());
    add_deps(difftest_output(opts));
    return 0;
  }
  std::vector<Proc> procs;
  if (!select_procs(*prog, opts, diag, procs))
    return 1;
  if (procs.empty())
    return 0;
  std::string code_path = code_output(opts);
  // On standard output there is no place beside it for a header.
  std::string h_path = code_path == "-" ? "" : header_path_for(code_path);
  std::string h_name = h_path.substr(h_path.find_last_of('/') + 1);
  std::ostringstream code, h;
  if (opts.emit == EmitKind::Cpp) {
    CppHeader header{h_name, h};
    bool emitted = attributed(interp, diag, [&] {
      return emit_cpp(*prog, procs, code, diag, /*f32_in_f64=*/false,
                      h_path.empty() ? nullptr : &header, opts.entries);
    });
    stats.stage("C++ code generation");
    if (!emitted)
      return 1;
  } else {
    // Nothing unchecked is written: every `check` passes first.
    gpu::GpuStage &stage = comp.gpu_stage();
    SyncChecks checks(*prog, opts, stage, diag);
    bool checks_passed = run_gpu_stage(*prog, opts, procs, checks, stage, interp, diag);
    stats.stage("GPU semantics");
    checks_passed = checks.run_all(nullptr) && checks_passed;
    checks_passed =
        attributed(interp, diag, [&] { return check_kernel_calls(*prog, procs, diag); }) &&
        checks_passed;
    stats.stage("synchronization checks");
    if (!checks_passed)
      return 1;
    if (!generate_cuda(*prog, opts, procs, interp, h_name, code, h, diag, stats, stage,
                       opts.entries))
      return 1;
    if (!warn_unverified(procs, checks, opts, diag))
      return 1;
  }
  out.add(code_path, code.str());
  if (!h_path.empty())
    out.add(h_path, h.str());
  add_deps(code_path);
  return 0;
}

/// compile() with our own bugs turned into an InternalFailure diagnostic.
int compile_guarded(const DriverOptions &opts, Compilation &comp, Stats &stats, Outputs &out) {
  DiagEngine &diag = comp.diag();
  comp.on_stage_end = [&stats](const char *stage) { stats.stage(stage); };
  int rc;
  if (opts.solver_rlimit)
    analysis::IndexSolver::set_default_rlimit(opts.solver_rlimit);
  diag.set_warning_policy(opts.warnings);
  try {
    rc = compile(opts, comp, stats, out);
  } catch (const InternalError &e) {
    diag.report(SrcLoc{}, DiagKind::InternalFailure, "compiling '" + opts.input + "'", e.what());
    rc = 3;
  } catch (const std::exception &e) {
    diag.report(SrcLoc{}, DiagKind::InternalFailure, "compiling '" + opts.input + "'", e.what());
    rc = 3;
  }
  stats.gpu_procs = comp.gpu_stage_runs();
  return rc == 0 && diag.has_errors() ? 1 : rc;
}

} // namespace

std::unique_ptr<CheckedProgram> check_program(DriverOptions opts) {
  opts.verify = true;
  opts.script_budget.cancel = opts.cancel;
  auto out = std::make_unique<CheckedProgram>();
  Stats stats;
  stats.cancel = opts.cancel;
  Outputs none({});
  Compilation comp(out->sources, out->diag);
  try {
    out->rc = compile_guarded(opts, comp, stats, none);
  } catch (const Cancelled &) {
    out->cancelled = true;
    out->rc = 1;
  }
  out->program = comp.release_program();
  return out;
}

int run_driver(const DriverOptions &opts) {
  SourceManager sources;
  DiagEngine diag(sources);
  Stats stats;
  Compilation comp(sources, diag);
  Outputs out(planned_outputs(opts));
  int rc = compile_guarded(opts, comp, stats, out);
  if (rc == 0) {
    if (!out.commit(diag))
      rc = 1;
    stats.stage("writing files");
  } else {
    out.remove_stale();
  }
  if (opts.diag_format == DiagFormat::Json)
    diag.render_json(std::cerr);
  else if (opts.diag_format == DiagFormat::Sarif)
    diag.render_sarif(std::cerr, EXGC_VERSION);
  else
    diag.render_text(std::cerr, opts.show_diag_kind, opts.color);
  if (opts.stats)
    stats.print(std::cerr);
  return rc;
}

} // namespace exgc
