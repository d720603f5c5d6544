// progress.cpp - a line on standard error while a long check runs ----------//
#include "tools/exgc/progress.h"

#include <cstdio>
#include <unistd.h>

namespace exgc {

namespace {
/// A check that ends sooner says nothing (--progress=auto).
constexpr double kQuietSeconds = 1.0;
} // namespace

CheckProgress::CheckProgress(ProgressMode mode, DiagFormat format)
    : mode_(format == DiagFormat::Text ? mode : ProgressMode::Never) {
  tty_ = mode_ == ProgressMode::Auto && isatty(STDERR_FILENO);
}

void CheckProgress::begin(const std::string &what) {
  what_ = what;
  announced_ = false;
  if (mode_ == ProgressMode::Always) {
    std::fprintf(stderr, "exgc: checking %s ...\n", what_.c_str());
    announced_ = true;
  }
}

void CheckProgress::update(double seconds) {
  if (mode_ != ProgressMode::Auto || seconds < kQuietSeconds)
    return;
  if (tty_) {
    // Rewritten in place: carriage return, the line, clear to its end.
    std::fprintf(stderr, "\rexgc: checking %s ... %.1f s\033[K", what_.c_str(), seconds);
    std::fflush(stderr);
  } else if (!announced_) {
    std::fprintf(stderr, "exgc: checking %s ...\n", what_.c_str());
    std::fflush(stderr);
  }
  announced_ = true;
}

void CheckProgress::end() {
  if (tty_ && announced_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  announced_ = false;
}

} // namespace exgc
