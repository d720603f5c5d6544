// fuzz_support.h - what the libFuzzer targets share -------------------------//
//
// The targets (test/fuzz/*_fuzz.cpp, built with EXGC_FUZZ) run stages in
// process. A finding is anything but a diagnostic or a result: a crash, a
// sanitizer report, a hang, an internal error (EXGC_CHECK, which the driver
// would report as "internal error"), or a disagreement the target checks.
// `finding` prints what was wrong and aborts, which libFuzzer records with
// the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace exgc::fuzz {

[[noreturn]] inline void finding(const std::string &what) {
  std::fprintf(stderr, "exgc fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// A directory of this process for the files a target must write (the front
/// end reads modules from files); made once.
inline const std::string &scratch_dir() {
  static const std::string dir = [] {
    const char *tmp = std::getenv("TMPDIR");
    std::string d = std::string(tmp && *tmp ? tmp : "/tmp") + "/exgc_fuzz_" +
                    std::to_string(static_cast<long>(getpid()));
    std::string cmd = "mkdir -p '" + d + "'";
    if (std::system(cmd.c_str()) != 0)
      finding("cannot make the scratch directory " + d);
    return d;
  }();
  return dir;
}

/// Writes `text` to `name` in the scratch directory; returns its path.
inline std::string scratch_file(const std::string &name, const std::string &text) {
  std::string path = scratch_dir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out)
    finding("cannot write " + path);
  return path;
}

} // namespace exgc::fuzz
