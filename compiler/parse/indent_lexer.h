// indent_lexer.h - Python-style layout tokens on top of the ANTLR lexer -----//
//
// Owns: NEWLINE / INDENT / DEDENT, and every check on the token stream that
// must happen before the parser sees it. The generated ExgLexer only splits
// characters into tokens; IndentLexer wraps it and
//  - emits NEWLINE at the end of each logical line (never inside brackets,
//    never for blank or comment-only lines, always before EOF);
//  - emits INDENT when a line is indented deeper than the enclosing block and
//    one DEDENT per closed block (spaces only: a tab there is TabIndent; a
//    level matching no open block is InconsistentDedent);
//  - reports invalid characters, unterminated strings, brackets with no
//    partner (at the opening bracket when it is never closed), and nesting of
//    brackets, blocks or prefix operators deeper than kMaxNesting, and
//    logical lines with more than kMaxLineOperators operators.
// After the first error it ends the stream (EOF), so one mistake gives one
// diagnostic; the parse stops there (parse.cpp). The depth limit is what
// keeps the recursive-descent parser and every recursive pass after it from
// overflowing the stack on inputs like 3000 nested parentheses.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "ExgLexer.h"
#include "compiler/support/diagnostics.h"

namespace exgc::parse {

/// The deepest nesting of brackets, of indented blocks, or of chained prefix
/// operators (`- - x`, `not not x`) that the lexer accepts.
constexpr int kMaxNesting = 256;
/// The most operators and brackets one logical line may hold. A left-leaning
/// chain (`a + b + ... `, `c.next().next()...`) parses in a loop but builds a
/// tree as deep as it is long, which every later pass walks recursively.
constexpr int kMaxLineOperators = 2048;

/// Converts ANTLR positions (line, code points into the line) to SrcLocs
/// (line, 1-based byte column), which is what the diagnostic renderer quotes.
class PositionMap {
public:
  PositionMap(uint32_t file, const SourceManager &sources);
  /// `line` is 1-based, `char_pos` counts code points from the line start.
  SrcLoc loc(size_t line, size_t char_pos) const;
  SrcLoc loc(const antlr4::Token *t) const;
  uint32_t file() const { return file_; }
  /// The bytes of line `line` before its first non-blank character.
  std::string leading_blanks(size_t line) const;

private:
  uint32_t file_;
  const std::string &text_;
  std::vector<size_t> line_starts_;
  std::vector<bool> ascii_; // per line: column = code points + 1
};

class IndentLexer : public grammar::ExgLexer {
public:
  IndentLexer(antlr4::CharStream *input, const PositionMap &pos, DiagEngine &diag);
  std::unique_ptr<antlr4::Token> nextToken() override;
  /// True once a lexical error was reported (the stream then ends).
  bool failed() const { return failed_; }

private:
  struct OpenBracket {
    size_t type;
    size_t line, col;
  };
  void handle_line_start(const antlr4::Token &first);
  bool check_token(const antlr4::Token &t);
  std::unique_ptr<antlr4::Token> make(size_t type, const std::string &text, size_t line,
                                      size_t col);
  void fail_at(size_t line, size_t col, DiagKind kind, std::vector<std::string> args);
  void finish(size_t line, size_t col);

  const PositionMap &pos_;
  DiagEngine &diag_;
  std::deque<std::unique_ptr<antlr4::Token>> pending_;
  std::vector<size_t> indents_{0};
  std::vector<OpenBracket> brackets_;
  bool at_line_start_ = true;
  bool failed_ = false;
  bool done_ = false;
  bool bom_;                    // the file starts with U+FEFF
  int prefix_run_ = 0;          // consecutive prefix operators
  int levels_in_line_ = 0;      // operators and brackets in this logical line
  size_t last_type_ = 0;        // type of the last real token (0: none on this line)
  size_t last_end_line_ = 1, last_end_col_ = 0; // just past the last real token
};

} // namespace exgc::parse
