// syntax_errors.cpp - first syntax error, in the language's words ----------//
#include "compiler/parse/syntax_errors.h"

namespace exgc::parse {

using antlr4::Parser;
using antlr4::Token;
using grammar::ExgParser;

namespace {

/// What a token type looks like in a message ("':'", "a name", "end of line").
std::string describe_type(Parser *p, size_t type) {
  switch (type) {
  case Token::EOF: return "end of file";
  case ExgParser::NEWLINE: return "end of line";
  case ExgParser::INDENT: return "an indented block";
  case ExgParser::DEDENT: return "end of block";
  case ExgParser::NAME: return "a name";
  case ExgParser::INT: return "an integer";
  case ExgParser::FLOAT: return "a number";
  case ExgParser::STRING: return "a string";
  default: return p->getVocabulary().getLiteralName(type);
  }
}

/// What the offending token looks like: its text for real tokens.
std::string describe_found(Parser *p, const Token *t) {
  switch (t->getType()) {
  case Token::EOF: case ExgParser::NEWLINE: case ExgParser::INDENT: case ExgParser::DEDENT:
    return describe_type(p, t->getType());
  default:
    return "'" + t->getText() + "'";
  }
}

bool starts_expr(size_t type) {
  switch (type) {
  case ExgParser::NAME: case ExgParser::INT: case ExgParser::FLOAT: case ExgParser::STRING:
  case ExgParser::TRUE: case ExgParser::FALSE: case ExgParser::INF: case ExgParser::LPAREN: case ExgParser::LBRACK:
  case ExgParser::MINUS: case ExgParser::NOT:
    return true;
  default:
    return false;
  }
}

/// "a", "a or b", "a, b or c"; empty when the set is too large to help.
std::string describe_expected(Parser *p, const antlr4::misc::IntervalSet &set) {
  std::vector<std::string> parts;
  bool expr = set.contains(size_t(ExgParser::NAME)) && set.contains(size_t(ExgParser::INT)) &&
              set.contains(size_t(ExgParser::LPAREN));
  if (expr)
    parts.push_back("an expression");
  for (ssize_t t : set.toList()) {
    if (t < 0 && t != static_cast<ssize_t>(Token::EOF))
      continue;
    if (expr && starts_expr(static_cast<size_t>(t)))
      continue;
    parts.push_back(describe_type(p, static_cast<size_t>(t)));
  }
  if (parts.empty() || parts.size() > 4)
    return "";
  std::string out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i)
    out += (i + 1 == parts.size() ? " or " : ", ") + parts[i];
  return out;
}

/// Where a ':' was expected, in words; empty when the rule gives no context.
std::string colon_context(size_t rule) {
  switch (rule) {
  case ExgParser::RuleForStmt: return " after the loop header";
  case ExgParser::RuleIfStmt: case ExgParser::RuleElifClause: return " after the condition";
  case ExgParser::RuleElseClause: return " after 'else'";
  case ExgParser::RuleWithStmt: return " after the context";
  case ExgParser::RuleProcDecl: case ExgParser::RuleDefDecl: return " after the parameter list";
  case ExgParser::RuleScheduleDecl: return " after the schedule header";
  case ExgParser::RuleParam: return " after the argument name";
  default: return "";
  }
}

std::string message_for(Parser *p, const Token *found, const antlr4::misc::IntervalSet *expected,
                        size_t rule) {
  std::string f = describe_found(p, found);
  if (!expected)
    return "unexpected " + f;
  if (rule == ExgParser::RuleFile_)
    return "unexpected " + f + " at the top level; expected 'proc', 'instr', 'def', 'schedule', "
                               "'import', 'export', 'check' or a value 'NAME = ...'";
  // A block's statement loop ends at anything that cannot start a statement.
  if (expected->size() == 1 && expected->contains(size_t(ExgParser::DEDENT)))
    return "unexpected " + f;
  if (expected->size() == 1 && expected->contains(size_t(ExgParser::INDENT)))
    return "expected an indented block";
  std::string e = describe_expected(p, *expected);
  if (e.empty())
    return "unexpected " + f;
  if (e == "':'")
    e += colon_context(rule);
  return "expected " + e;
}

} // namespace

void FirstErrorStrategy::reportError(Parser *p, const antlr4::RecognitionException &e) {
  if (reported_)
    return;
  reported_ = true;
  Token *found = e.getOffendingToken();
  if (!found)
    found = p->getCurrentToken();
  SrcLoc loc = pos_.loc(found);
  if (found->getType() == ExgParser::INDENT) {
    diag_.report(loc, DiagKind::UnexpectedIndent);
    return;
  }
  size_t rule = p->getContext() ? p->getContext()->getRuleIndex() : size_t(ExgParser::RuleFile_);
  antlr4::misc::IntervalSet expected;
  bool have_expected = true;
  if (const auto *nva = dynamic_cast<const antlr4::NoViableAltException *>(&e)) {
    // Prediction may fail tokens after the decision began; the set expected
    // at the decision then says nothing about the offending token.
    have_expected = nva->getStartToken() == found;
  }
  if (have_expected) {
    try {
      expected = e.getExpectedTokens();
    } catch (const std::exception &) {
      have_expected = false;
    }
  }
  diag_.report(loc, DiagKind::SyntaxError,
               message_for(p, found, have_expected ? &expected : nullptr, rule));
}

void FirstErrorStrategy::recover(Parser *, std::exception_ptr) {
  throw antlr4::ParseCancellationException();
}

Token *FirstErrorStrategy::recoverInline(Parser *p) {
  antlr4::InputMismatchException e(p);
  reportError(p, e);
  throw antlr4::ParseCancellationException();
}

void FirstErrorStrategy::sync(Parser *) {}

} // namespace exgc::parse
