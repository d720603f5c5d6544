// indent_lexer.cpp - layout tokens and token-stream checks -----------------//
#include "compiler/parse/indent_lexer.h"

#include <cstdio>

namespace exgc::parse {

using antlr4::Token;
using grammar::ExgLexer;

// --- PositionMap ---------------------------------------------------------------

PositionMap::PositionMap(uint32_t file, const SourceManager &sources)
    : file_(file), text_(sources.text(file)) {
  line_starts_.push_back(0);
  bool ascii = true;
  for (size_t i = 0; i < text_.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    if (c >= 0x80)
      ascii = false;
    if (c == '\n') {
      ascii_.push_back(ascii);
      ascii = true;
      line_starts_.push_back(i + 1);
    }
  }
  ascii_.push_back(ascii);
}

SrcLoc PositionMap::loc(size_t line, size_t char_pos) const {
  SrcLoc l{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(char_pos + 1)};
  if (line == 0 || line > line_starts_.size() || ascii_[line - 1])
    return l;
  // Walk code points: the renderer puts the caret under byte columns.
  size_t b = line_starts_[line - 1];
  for (size_t k = 0; k < char_pos && b < text_.size() && text_[b] != '\n'; ++k) {
    unsigned char c = static_cast<unsigned char>(text_[b]);
    b += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  }
  l.col = static_cast<uint32_t>(b - line_starts_[line - 1] + 1);
  return l;
}

SrcLoc PositionMap::loc(const Token *t) const {
  return loc(t->getLine(), t->getCharPositionInLine());
}

std::string PositionMap::leading_blanks(size_t line) const {
  if (line == 0 || line > line_starts_.size())
    return "";
  size_t b = line_starts_[line - 1], e = b;
  while (e < text_.size() && (text_[e] == ' ' || text_[e] == '\t' || text_[e] == '\f' ||
                              text_[e] == '\r'))
    ++e;
  return text_.substr(b, e - b);
}

// --- IndentLexer ---------------------------------------------------------------

namespace {

/// Tokens that add a level to an expression tree: operators, and brackets
/// (grouping, calls, subscripts, lists).
bool adds_level(size_t type) {
  switch (type) {
  case ExgLexer::PLUS: case ExgLexer::MINUS: case ExgLexer::STAR: case ExgLexer::SLASH:
  case ExgLexer::PERCENT: case ExgLexer::LT: case ExgLexer::LE: case ExgLexer::GT:
  case ExgLexer::GE: case ExgLexer::EQ: case ExgLexer::NE: case ExgLexer::AND: case ExgLexer::OR:
  case ExgLexer::NOT: case ExgLexer::AT: case ExgLexer::DOT: case ExgLexer::LPAREN:
  case ExgLexer::LBRACK: case ExgLexer::SHR:
    return true;
  default:
    return false;
  }
}

bool ends_operand(size_t type) {
  switch (type) {
  case ExgLexer::NAME: case ExgLexer::INT: case ExgLexer::FLOAT: case ExgLexer::STRING:
  case ExgLexer::TRUE: case ExgLexer::FALSE: case ExgLexer::INF: case ExgLexer::RPAREN: case ExgLexer::RBRACK:
    return true;
  default:
    return false;
  }
}

size_t partner(size_t type) {
  switch (type) {
  case ExgLexer::LPAREN: return ExgLexer::RPAREN;
  case ExgLexer::LBRACK: return ExgLexer::RBRACK;
  case ExgLexer::RPAREN: return ExgLexer::LPAREN;
  default: return ExgLexer::LBRACK;
  }
}

const char *bracket_text(size_t type) {
  switch (type) {
  case ExgLexer::LPAREN: return "(";
  case ExgLexer::RPAREN: return ")";
  case ExgLexer::LBRACK: return "[";
  default: return "]";
  }
}

/// Quotes a bad character so a binary file cannot garble the terminal.
std::string shown_char(const std::string &text) {
  if (text.size() == 1) {
    unsigned char c = static_cast<unsigned char>(text[0]);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      return buf;
    }
  }
  return text;
}

} // namespace

IndentLexer::IndentLexer(antlr4::CharStream *input, const PositionMap &pos, DiagEngine &diag)
    : ExgLexer(input), pos_(pos), diag_(diag), bom_(input->LA(1) == 0xFEFF) {}

std::unique_ptr<Token> IndentLexer::make(size_t type, const std::string &text, size_t line,
                                         size_t col) {
  auto t = std::make_unique<antlr4::CommonToken>(std::make_pair(static_cast<antlr4::TokenSource *>(this), _input), type,
                                                 Token::DEFAULT_CHANNEL, 0, 0);
  t->setText(text);
  t->setLine(line);
  t->setCharPositionInLine(col);
  return t;
}

void IndentLexer::fail_at(size_t line, size_t col, DiagKind kind, std::vector<std::string> args) {
  diag_.report_args(pos_.loc(line, col), kind, std::move(args));
  failed_ = true;
  done_ = true;
  pending_.clear();
  pending_.push_back(make(Token::EOF, "<EOF>", line, col));
}

void IndentLexer::finish(size_t line, size_t col) {
  done_ = true;
  if (!brackets_.empty()) {
    const OpenBracket &b = brackets_.back();
    fail_at(b.line, b.col, DiagKind::UnbalancedBracket,
            {bracket_text(b.type), bracket_text(partner(b.type))});
    return;
  }
  if (!at_line_start_)
    pending_.push_back(make(NEWLINE, "<NEWLINE>", last_end_line_, last_end_col_));
  at_line_start_ = true;
  for (size_t i = 1; i < indents_.size(); ++i)
    pending_.push_back(make(DEDENT, "<DEDENT>", line, col));
  indents_.resize(1);
  pending_.push_back(make(Token::EOF, "<EOF>", line, col));
}

void IndentLexer::handle_line_start(const Token &first) {
  size_t line = first.getLine();
  size_t col = first.getCharPositionInLine();
  // A byte-order mark (whitespace to the lexer) does not indent line 1.
  if (line == 1 && bom_ && col > 0)
    --col;
  std::string blanks = pos_.leading_blanks(line);
  size_t tab = blanks.find('\t');
  if (tab != std::string::npos)
    return fail_at(line, tab, DiagKind::TabIndent, {});
  if (col > indents_.back()) {
    indents_.push_back(col);
    if (indents_.size() - 1 > static_cast<size_t>(kMaxNesting))
      return fail_at(line, col, DiagKind::NestingTooDeep, {"blocks", std::to_string(kMaxNesting)});
    pending_.push_back(make(INDENT, "<INDENT>", line, col));
    return;
  }
  while (col < indents_.back()) {
    indents_.pop_back();
    pending_.push_back(make(DEDENT, "<DEDENT>", line, col));
  }
  if (col != indents_.back())
    fail_at(line, col, DiagKind::InconsistentDedent, {});
}

bool IndentLexer::check_token(const Token &t) {
  size_t type = t.getType();
  size_t line = t.getLine(), col = t.getCharPositionInLine();
  if (type == ERRCHAR) {
    fail_at(line, col, DiagKind::InvalidCharacter, {shown_char(t.getText())});
    return false;
  }
  if (type == UNTERMINATED_STRING) {
    fail_at(line, col, DiagKind::UnterminatedString, {});
    return false;
  }
  if (type == LPAREN || type == LBRACK) {
    brackets_.push_back({type, line, col});
    if (brackets_.size() > static_cast<size_t>(kMaxNesting)) {
      fail_at(line, col, DiagKind::NestingTooDeep, {"brackets", std::to_string(kMaxNesting)});
      return false;
    }
  } else if (type == RPAREN || type == RBRACK) {
    if (brackets_.empty()) {
      fail_at(line, col, DiagKind::UnbalancedBracket,
              {bracket_text(type), bracket_text(partner(type))});
      return false;
    }
    if (brackets_.back().type != partner(type)) {
      const OpenBracket &b = brackets_.back();
      fail_at(b.line, b.col, DiagKind::UnbalancedBracket,
              {bracket_text(b.type), bracket_text(partner(b.type))});
      return false;
    }
    brackets_.pop_back();
  }
  if (adds_level(type) && ++levels_in_line_ > kMaxLineOperators) {
    fail_at(line, col, DiagKind::StatementTooComplex, {std::to_string(kMaxLineOperators)});
    return false;
  }
  bool prefix = (type == NOT) || (type == MINUS && !ends_operand(last_type_));
  prefix_run_ = prefix ? prefix_run_ + 1 : 0;
  if (prefix_run_ > kMaxNesting) {
    fail_at(line, col, DiagKind::NestingTooDeep,
            {"prefix operators", std::to_string(kMaxNesting)});
    return false;
  }
  return true;
}

std::unique_ptr<Token> IndentLexer::nextToken() {
  while (pending_.empty()) {
    if (done_) {
      pending_.push_back(make(Token::EOF, "<EOF>", last_end_line_, last_end_col_));
      break;
    }
    std::unique_ptr<Token> t = ExgLexer::nextToken();
    size_t type = t->getType();
    if (type == NEWLINE) {
      if (!brackets_.empty() || at_line_start_)
        continue; // a blank line, or a line continued inside brackets
      pending_.push_back(make(NEWLINE, "<NEWLINE>", last_end_line_, last_end_col_));
      at_line_start_ = true;
      last_type_ = 0;
      prefix_run_ = 0;
      levels_in_line_ = 0;
      break;
    }
    if (type == Token::EOF) {
      finish(t->getLine(), t->getCharPositionInLine());
      break;
    }
    if (at_line_start_) {
      handle_line_start(*t);
      at_line_start_ = false;
      if (failed_)
        break;
    }
    if (!check_token(*t))
      break;
    last_type_ = type;
    last_end_line_ = t->getLine();
    last_end_col_ = t->getCharPositionInLine() + (t->getStopIndex() - t->getStartIndex() + 1);
    pending_.push_back(std::move(t));
  }
  std::unique_ptr<Token> out = std::move(pending_.front());
  pending_.pop_front();
  return out;
}

} // namespace exgc::parse
