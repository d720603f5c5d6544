// front_end_run.h - the front end and schedules, as the fuzz targets run them //
#pragma once

#include <sstream>

#include "compiler/frontend/load.h"
#include "compiler/frontend/typecheck.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/support/big_stack.h"
#include "compiler/support/check.h"
#include "test/fuzz/fuzz_support.h"

namespace exgc::fuzz {

/// The driver's pipeline up to the schedules, on a module whose text is
/// `text`, on the driver's stack: load (parse, build, imports), typecheck
/// (bounds included), then, with `schedules`, every schedule script under a
/// small budget. Every error must carry a location; rendering must work.
inline void run_front_end(const std::string &text, bool schedules) {
  std::string path = scratch_file("input.exg", text);
  run_on_big_stack([&] {
    SourceManager sources;
    DiagEngine diag(sources);
    try {
      LoadOptions lo;
      lo.stdlib_dir = EXGC_SOURCE_DIR "/stdlib";
      std::unique_ptr<Program> prog = load_program(path, lo, sources, diag);
      if (prog && !diag.has_errors() && typecheck(*prog, diag) && !diag.has_errors() &&
          schedules) {
        schedule::ScriptBudget budget; // smaller: fuzzing wants many short runs
        budget.steps = 20000;
        budget.values = 20000;
        schedule::Interpreter interp(*prog, diag, budget);
        interp.run_all();
      }
    } catch (const InternalError &e) {
      finding(std::string("internal error: ") + e.what());
    } catch (const std::exception &e) {
      finding(std::string("exception: ") + e.what());
    }
    for (const Diagnostic &d : diag.diagnostics())
      if (d.severity == Severity::Error && d.loc.line == 0)
        finding("error without a location: " + d.message);
    std::ostringstream rendered;
    diag.render_text(rendered, true);
    diag.render_json(rendered);
  });
}

} // namespace exgc::fuzz
