// outputs.h - the files one exgc run writes, all or none --------------------//
// Owns: how outputs reach the disk. The pipeline adds each file's text; only
// a run without errors commits them, each written to a temporary file beside
// its target and renamed over it, so a target is never half written (a
// symbolic link's file is replaced, the link kept; a target that is not a
// regular file, such as /dev/null, is written in place). A run
// that fails removes what an earlier run left at its targets (the .cu, its .h,
// the -MD file), so a build never mistakes a stale file for this run's.
#pragma once
#include <string>
#include <vector>

#include "compiler/support/diagnostics.h"

namespace exgc {

class Outputs {
public:
  /// `targets`: every file this run would write ("-", standard output, is
  /// not a file and is left out).
  explicit Outputs(std::vector<std::string> targets);

  /// Adds the text of `path` ("-": standard output), one of the targets.
  void add(const std::string &path, std::string text);
  /// Writes every added file; false (with OutputUnwritable) when one could
  /// not be written, and then nothing is left at any target.
  bool commit(DiagEngine &diag);
  /// Removes each target that is a regular file.
  void remove_stale() const;

private:
  std::vector<std::string> targets_;
  std::vector<std::pair<std::string, std::string>> files_; // path, text
};

} // namespace exgc
