// printable.cpp - would printed .exg text lex back? -------------------------//
#include "compiler/parse/printable.h"

#include "compiler/parse/parse.h"
#include "compiler/support/diagnostics.h"

namespace exgc::parse {

std::string lex_problem(const std::string &text) {
  SourceManager sources;
  uint32_t file = sources.add("<printed>", text);
  DiagEngine diag(sources);
  lex_file(file, sources, diag);
  for (const Diagnostic &d : diag.diagnostics())
    if (d.severity == Severity::Error)
      return d.message;
  return "";
}

} // namespace exgc::parse
