// completion.h - what fits at the cursor ------------------------------------//
// Owns: the candidates textDocument/completion offers. The place is read
// from the document's text as the editor has it (the enclosing top-level
// declaration is the nearest line above at column 0; the words before the
// cursor on its line say the rest), the names from the last symbol index:
//   at column 0                  declaration keywords (proc, schedule, ...)
//   after `@`                    memories
//   proc/instr body and header   the locals visible there, procs and instrs,
//                                statement keywords at a statement's start,
//                                `and`/`or`/`not`/`True`/`False` elsewhere;
//                                loop modes after `for i in`, contexts after `with`
//   schedule/def body            scheduling primitives, script functions
//                                (range, len, str, print, same_code), the
//                                script's variables and parameters, procs,
//                                schedules, defs, loop modes, memories,
//                                contexts, script keywords; `range` after `for i in`
//   `schedule s from`            procs and schedules
//   in a comment or a string     nothing
#pragma once
#include <string>
#include <vector>

#include "tools/exgc-lsp/symbol_index.h"

namespace exgc::lsp {

struct Completion {
  std::string label, detail;
  int kind; // LSP's CompletionItemKind
};

/// Candidates at 1-based (line, col) of `text`; `index` (may be null) is the
/// document's last symbol index.
std::vector<Completion> complete(const std::string &text, uint32_t line, uint32_t col,
                                 const SymbolIndex *index);

} // namespace exgc::lsp
