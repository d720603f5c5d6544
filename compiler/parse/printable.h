// printable.h - would printed .exg text lex back? ---------------------------//
// Owns: the question a schedule asks of every proc a step makes, so that a
// printed result always parses back (issue 27): the lexer bounds nesting
// (blocks, brackets, prefix operators: kMaxNesting) and the operators of one
// line (kMaxLineOperators), and a step can build deeper code than that.
#pragma once
#include <string>

namespace exgc::parse {

/// Why `text` (.exg source) would not lex, as the lexer's message
/// ("blocks nested more than 256 deep"), or "" when it lexes.
std::string lex_problem(const std::string &text);

} // namespace exgc::parse
