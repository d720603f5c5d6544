// progress.h - a line on standard error while a long check runs -------------//
// Owns: what exgc says while a synchronization check takes more than a second
// (`exgc: checking gemm(M=4096, N=4096, K=4096) ...`). On a terminal one line,
// rewritten in place with the seconds spent and cleared when the check ends;
// elsewhere (CI logs) one plain line per such check, when it passes a second.
// --progress=always announces every check as it starts (plain lines, for
// tests); never, and JSON or SARIF diagnostics, print nothing.
#pragma once
#include <string>

#include "tools/exgc/driver.h"

namespace exgc {

class CheckProgress {
public:
  CheckProgress(ProgressMode mode, DiagFormat format);
  /// A check `what` (`gemm(M=1, N=2)`) starts.
  void begin(const std::string &what);
  /// It has run `seconds`.
  void update(double seconds);
  /// It ended (passed or not).
  void end();

private:
  ProgressMode mode_;
  bool tty_ = false;
  bool announced_ = false;
  std::string what_;
};

} // namespace exgc
