// sync_fuzz.cpp - libFuzzer target: the sync checker's text form -----------//
//
// The bytes are a .sync program. A parse error must be located; a parsed
// program must print and parse back to the same text; then the fast engine
// (with and without task replay) and the oracle check it, and any
// difference of verdict, hazard or event count is a finding, as is the
// one-element replay that explains a hazard disagreeing with it. Runs under
// a small budget (budget.h); a check that reaches it compares nothing.
#include "compiler/sync/check.h"
#include "compiler/sync/text_format.h"
#include "test/fuzz/fuzz_support.h"

using namespace exgc::sync;

namespace {

CheckResult check_with(const Program &p, EngineKind engine, bool replay) {
  CheckOptions o;
  o.engine = engine;
  o.replay_tasks = o.replay_loops = replay;
  o.budget.max_memory = uint64_t(512) << 20;
  o.budget.max_seconds = 2;
  return check_program(p, o);
}

std::string verdict(const CheckResult &r) { return r.ok ? "ok" : r.hazard.summary(); }

void compare(const CheckResult &a, const char *an, const CheckResult &b, const char *bn) {
  if (a.ok != b.ok || (!a.ok && !a.hazard.same_as(b.hazard)))
    exgc::fuzz::finding(std::string("engines disagree\n") + an + ": " + verdict(a) + "\n" + bn +
                        ": " + verdict(b));
  if (a.ok && a.stats.events != b.stats.events)
    exgc::fuzz::finding(std::string("event counts differ: ") + an + " " +
                        std::to_string(a.stats.events) + ", " + bn + " " +
                        std::to_string(b.stats.events));
}

bool hit_budget(const CheckResult &r) { return !r.ok && r.hazard.kind == HazardKind::ResourceLimit; }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Program prog;
  std::vector<ParseError> errors;
  if (!parse_program(text, "fuzz.sync", prog, errors)) {
    if (errors.empty() || !errors[0].loc.known())
      exgc::fuzz::finding("parse error without a location");
    return 0;
  }
  std::string printed = print_program(prog);
  Program again;
  if (!parse_program(printed, "printed.sync", again, errors))
    exgc::fuzz::finding("printed program does not parse: " + errors[0].message + "\n" + printed);
  if (print_program(again) != printed)
    exgc::fuzz::finding("print is not a fixed point:\n" + printed);

  CheckResult fast = check_with(prog, EngineKind::Fast, true);
  if (hit_budget(fast))
    return 0;
  CheckResult full = check_with(prog, EngineKind::Fast, false);
  CheckResult oracle = check_with(prog, EngineKind::Oracle, false);
  if (hit_budget(full) || hit_budget(oracle))
    return 0;
  compare(full, "fast", oracle, "oracle");
  compare(fast, "fast+replay", oracle, "oracle");
  if (!fast.replay_agreed)
    exgc::fuzz::finding("the explaining replay disagrees: " + verdict(fast));
  if (!fast.ok)
    (void)format_hazard(fast.hazard, "fuzz.sync");
  return 0;
}
