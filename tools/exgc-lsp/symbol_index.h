// symbol_index.h - what exgc-lsp knows about one checked document ----------//
// Owns: the names a document can point at and what to say about them. Built
// from a typechecked Program (tools/exgc/driver.h): the procs and instrs visible
// in the main module (its own and imported, with `alias.name`), its
// schedules, its imported modules, and in each of its procs the arguments,
// allocations, windows and loop iterators with their types and memories.
// Lookups go by the word under the cursor: a local declared in the
// enclosing proc before the cursor (the latest such), else a module-level
// name, else a scheduling primitive or a memory name.
#pragma once
#include <string>
#include <vector>

#include "tools/exgc/driver.h"

namespace exgc::lsp {

/// A place in a file: the path as exgc read it, 1-based line and column.
struct Place {
  std::string file;
  uint32_t line = 0, col = 0;
};

struct Definition {
  enum class Kind { Proc, Instr, Schedule, Def, Module, Buffer, Window, Iterator };
  Kind kind;
  std::string name;
  Place place;
  std::string hover; // Markdown
  /// Locals: the lines of the proc they belong to; module names: 0, 0.
  uint32_t scope_first = 0, scope_last = 0;
};

/// One entry of the outline (document symbols): a declaration of the file.
struct OutlineEntry {
  Definition::Kind kind;
  std::string name;
  std::string detail;
  uint32_t first_line = 0, last_line = 0; // 1-based, inclusive
};

class SymbolIndex {
public:
  /// Indexes `prog` (typechecked, or checked whole) for the document at
  /// `path` (its main module); empty when that module is another file.
  SymbolIndex(const Program &prog, const SourceManager &sm, const std::string &path);

  /// What the word at (line, col) (1-based) of the document names, or null.
  /// `line_text` is that line of the document as the editor has it.
  const Definition *find(const std::string &line_text, uint32_t line, uint32_t col) const;
  /// Hover text at (line, col): a definition's, a primitive's one-line doc,
  /// or a memory's description; empty when there is nothing to say.
  std::string hover(const std::string &line_text, uint32_t line, uint32_t col) const;
  const std::vector<OutlineEntry> &outline() const { return outline_; }
  /// Module-level names: procs and instrs in scope, schedules, `def`s, modules.
  const std::vector<Definition> &globals() const { return globals_; }
  /// The locals visible at 1-based `line`: of the proc around it, declared
  /// on or before it (the latest of each name).
  std::vector<const Definition *> locals_at(uint32_t line) const;

private:
  void index_proc(const ProcNode &p, uint32_t first, uint32_t last);
  std::vector<Definition> locals_, globals_;
  std::vector<OutlineEntry> outline_;
};

/// The identifier (letters, digits, '_', '.') around 1-based column `col`.
std::string word_at(const std::string &line_text, uint32_t col);
/// A memory's one-line description (hover, completion details).
std::string memory_description(const std::string &name);

} // namespace exgc::lsp
