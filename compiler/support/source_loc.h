// source_loc.h - where a node came from ------------------------------------//
// Owns: SrcLoc, a compact (file, line, column) triple. Files are numbered by the
// SourceManager (source_manager.h); id 0 means "no file" (built by the compiler).
#pragma once
#include <cstdint>

namespace exgc {

/// A position in a source file: 1-based line and column, or all zero when unknown.
struct SrcLoc {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
  friend bool operator==(const SrcLoc &a, const SrcLoc &b) {
    return a.file == b.file && a.line == b.line && a.col == b.col;
  }
};

} // namespace exgc
