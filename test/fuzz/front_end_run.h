// front_end_run.h - the front end and schedules, as the fuzz targets run them //
#pragma once

#include <sstream>

#include "compiler/pipeline/compilation.h"
#include "compiler/support/big_stack.h"
#include "compiler/support/check.h"
#include "test/fuzz/fuzz_support.h"

namespace exgc::fuzz {

/// The driver's stages up to the schedules (a Compilation), on a module whose
/// text is `text`, on the driver's stack: load (parse, build, imports),
/// typecheck (bounds included), then, with `schedules`, every schedule script
/// under a small budget and the re-check of their results. Every error must
/// carry a location; rendering must work.
inline void run_front_end(const std::string &text, bool schedules) {
  std::string path = scratch_file("input.exg", text);
  run_on_big_stack([&] {
    SourceManager sources;
    DiagEngine diag(sources);
    try {
      LoadOptions lo;
      lo.stdlib_dir = EXGC_SOURCE_DIR "/stdlib";
      Compilation comp(sources, diag);
      if (comp.load(path, lo) && comp.typecheck() && schedules) {
        Compilation::ScheduleOptions so; // a small budget: fuzzing wants many short runs
        so.budget.steps = 20000;
        so.budget.values = 20000;
        comp.run_schedules(so);
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
