// text_format.h - print and parse the text form of sync programs ----------//
//
// Owns the `.sync` text form (grammar in program.h). print_program writes a
// form that parse_program reads back to an equal program; the round trip is
// a unit test. Used by exg-sync, the lit tests and `exgc --emit=sync-program`.
#ifndef EXGC_SYNC_TEXT_FORMAT_H
#define EXGC_SYNC_TEXT_FORMAT_H

#include "compiler/sync/program.h"

#include <string>
#include <vector>

namespace exgc::sync {

struct ParseError {
  SrcLoc loc; ///< in the .sync file
  std::string message;
};

std::string print_program(const Program &p);

/// Parses `text`; `file` names it in locations. On failure returns false with
/// at least one error (the first one is the one to report).
bool parse_program(const std::string &text, const std::string &file, Program &out,
                   std::vector<ParseError> &errors);

} // namespace exgc::sync

#endif
