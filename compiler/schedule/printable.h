// printable.h - every proc a step makes prints as .exg that parses back ----//
// Owns: the check record_step makes of each new proc: its printed text stays
// within the lexer's nesting and line limits (parse/printable.h), so that
// `--emit=exg`, `print(p)` and the editor can always read it back. A cheap
// walk decides the common case; only a proc near a limit is printed and lexed.
#pragma once
#include "compiler/ir/nodes.h"

namespace exgc::schedule {

/// Why `p` would not print as .exg that lexes ("blocks nested more than 256
/// deep"), or "" when it would.
std::string print_problem(const ProcNode &p);

} // namespace exgc::schedule
