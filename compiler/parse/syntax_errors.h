// syntax_errors.h - the parser's error strategy: first error, readable -----//
// Owns: how a syntax error becomes a diagnostic. The strategy reports the
// first error through DiagEngine (SyntaxError, or UnexpectedIndent when the
// offending token is an INDENT) with the offending token's position and a
// message in the words of the language ("expected ':' after the loop
// header"), then cancels the parse: ANTLR's recovery would invent tokens and
// report follow-on errors that confuse more than they help.
#pragma once
#include "ExgParser.h"
#include "compiler/parse/indent_lexer.h"
#include "compiler/support/diagnostics.h"

namespace exgc::parse {

class FirstErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  FirstErrorStrategy(const PositionMap &pos, DiagEngine &diag) : pos_(pos), diag_(diag) {}

  void reportError(antlr4::Parser *recognizer, const antlr4::RecognitionException &e) override;
  void recover(antlr4::Parser *recognizer, std::exception_ptr e) override;
  antlr4::Token *recoverInline(antlr4::Parser *recognizer) override;
  void sync(antlr4::Parser *recognizer) override;
  bool reported() const { return reported_; }

private:
  const PositionMap &pos_;
  DiagEngine &diag_;
  bool reported_ = false;
};

} // namespace exgc::parse
