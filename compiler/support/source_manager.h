// source_manager.h - the text of every file the compiler read --------------//
// Owns: file names and contents, so diagnostics can quote the source line.
// One SourceManager lives for a whole compilation; SrcLoc::file indexes it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "compiler/support/source_loc.h"

namespace exgc {

class SourceManager {
public:
  /// Adds a buffer and returns its file id (>= 1).
  uint32_t add(std::string name, std::string text);
  /// Reads a file from disk; returns 0 and sets `error` when it cannot be read.
  uint32_t load(const std::string &path, std::string &error);

  const std::string &name(uint32_t file) const;
  const std::string &text(uint32_t file) const;
  /// The text of line `line` (1-based) without its newline; empty when out of range.
  std::string line_text(uint32_t file, uint32_t line) const;
  uint32_t num_files() const { return static_cast<uint32_t>(files_.size()); }

private:
  struct File {
    std::string name, text;
    std::vector<size_t> line_starts;
  };
  std::vector<File> files_;
};

} // namespace exgc
