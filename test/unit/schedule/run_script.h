// run_script.h - load, typecheck and schedule a module written in a test ----//
// For the schedule unit tests: the text goes to a temporary file named after
// the running test and through the driver's stages up to the schedules and
// their re-check (a Compilation), which the result keeps for inspection.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "compiler/ir/printer.h"
#include "compiler/pipeline/compilation.h"

namespace exgc::schedule {

/// A module loaded, typechecked and scheduled; `ok` when the schedules ran
/// and their results passed the re-check.
struct Run {
  SourceManager sm;
  DiagEngine diag{sm};
  Compilation comp{sm, diag};
  bool ok = false;
  Program *prog() { return comp.program(); }
  const Interpreter *interp() const { return comp.interpreter(); }
  std::string messages() const {
    std::string s;
    for (const Diagnostic &d : diag.diagnostics()) {
      s += std::to_string(d.loc.line) + ": " + d.message + "\n";
      for (const DiagNote &n : d.notes)
        s += "  " + std::to_string(n.loc.line) + ": note: " + n.message + "\n";
    }
    return s;
  }
  const Diagnostic *first(DiagKind k) const {
    for (const Diagnostic &d : diag.diagnostics())
      if (d.kind == k)
        return &d;
    return nullptr;
  }
  std::string result(const std::string &name) const {
    Proc p = interp()->result(name);
    return p ? print_proc(*p) : "";
  }
};

/// Runs every schedule of the module `text`.
inline std::unique_ptr<Run> run(const std::string &text) {
  auto r = std::make_unique<Run>();
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("exgc_schedule_test_" + test + ".exg");
  std::ofstream(file) << text;
  bool loaded = r->comp.load(file.string(), LoadOptions{});
  std::filesystem::remove(file);
  if (!loaded || !r->comp.typecheck())
    return r;
  r->ok = r->comp.run_schedules({});
  return r;
}

} // namespace exgc::schedule
