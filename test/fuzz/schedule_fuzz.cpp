// schedule_fuzz.cpp - libFuzzer target: schedule scripts on fixed procs ------//
//
// The bytes follow a fixed module of procs (schedule_procs.exg, shared with
// script_fuzz.py) in one file, so that mutations go to `schedule NAME from
// PROC:` blocks and their scripts rather than to the procs: every primitive,
// cursor method and builtin runs against the same loops, windows and
// allocations. Seeds: scripts of script_fuzz.py's generator and the
// schedules of the tests.
#include "test/fuzz/front_end_run.h"

#include <fstream>
#include <sstream>

namespace {

const std::string &procs() {
  static const std::string text = [] {
    std::ifstream in(EXGC_SOURCE_DIR "/test/fuzz/schedule_procs.exg");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (ss.str().empty())
      exgc::fuzz::finding("cannot read test/fuzz/schedule_procs.exg");
    return ss.str() + "\n";
  }();
  return text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  exgc::fuzz::run_front_end(procs() + std::string(reinterpret_cast<const char *>(data), size),
                            true);
  return 0;
}
