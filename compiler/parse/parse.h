// parse.h - .exg text to an ANTLR parse tree ---------------------------------//
//
// Owns: running the indenting lexer and the generated parser over one file,
// and turning every lexical and syntax error into a diagnostic (parse.def).
// Only the first error of a file is reported: after it the parse stops, so a
// missing ':' never produces a cascade. No ANTLR exception and no ANTLR
// console output escapes. The tree is consumed by compiler/frontend/build.cpp
// and never leaves the front end.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ExgParser.h"
#include "compiler/parse/indent_lexer.h"
#include "compiler/support/diagnostics.h"

namespace exgc::parse {

/// A parsed file. Owns everything the tree points into (the tree's nodes
/// belong to the parser), so it must outlive every use of `tree`.
struct ParsedFile {
  std::unique_ptr<PositionMap> positions;
  std::unique_ptr<antlr4::ANTLRInputStream> input;
  std::unique_ptr<IndentLexer> lexer;
  std::unique_ptr<antlr4::CommonTokenStream> tokens;
  std::unique_ptr<grammar::ExgParser> parser;
  grammar::ExgParser::File_Context *tree = nullptr;

  SrcLoc loc(const antlr4::Token *t) const { return positions->loc(t); }
  SrcLoc loc(antlr4::ParserRuleContext *c) const { return positions->loc(c->getStart()); }
};

/// Parses file `file` of `sources`. Returns null after reporting the error
/// when the text is not valid UTF-8, does not lex, or does not parse.
std::unique_ptr<ParsedFile> parse_file(uint32_t file, const SourceManager &sources,
                                       DiagEngine &diag);

/// One token of the stream the parser sees.
struct LexedToken {
  size_t type;
  std::string text;
  SrcLoc loc;
};
/// Lexes `file` to its token stream (after layout), for tests and tools.
/// Stops at the first lexical error, which is reported; the stream always
/// ends with EOF.
std::vector<LexedToken> lex_file(uint32_t file, const SourceManager &sources, DiagEngine &diag);
/// The grammar's name of a token type ("NAME", "INDENT", "'('").
std::string token_type_name(size_t type);

} // namespace exgc::parse
