// emu/ptx/lexer.cpp - PTX text to tokens -----------------------------------------//
#include "emu/ptx/lexer.h"

namespace emu::ptx {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '%' || c == '.';
}

bool is_punct(char c) {
  switch (c) {
  case ',': case ';': case ':': case '{': case '}': case '[': case ']': case '(': case ')':
  case '<': case '>': case '@': case '!': case '|': case '+': case '-': case '=':
    return true;
  default:
    return false;
  }
}

} // namespace

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < text_.size(); ++i, ++pos_) {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }
}

// Returns false (with `bad` filled) on an unterminated block comment.
bool Lexer::skip_space_and_comments(Token &bad) {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      advance(1);
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      size_t nl = text_.find('\n', pos_);
      size_t stop = nl == std::string_view::npos ? text_.size() : nl;
      col_ += uint32_t(stop - pos_);
      pos_ = stop;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) {
        bad = Token{Token::Kind::Bad, "unterminated '/*' comment", line_, col_, pos_, pos_ + 2};
        return false;
      }
      advance(close + 2 - pos_);
    } else {
      return true;
    }
  }
  return true;
}

Token Lexer::next() {
  Token bad;
  if (!skip_space_and_comments(bad))
    return bad;
  if (pos_ >= text_.size())
    return Token{Token::Kind::End, "", last_line_, last_col_, text_.size(), text_.size()};
  Token t;
  t.line = line_;
  t.col = col_;
  t.offset = pos_;
  char c = text_[pos_];
  if (is_word_char(c)) {
    size_t i = pos_;
    while (i < text_.size()) {
      if (is_word_char(text_[i]))
        ++i;
      else if (text_[i] == ':' && i + 1 < text_.size() && text_[i + 1] == ':')
        i += 2;
      else
        break;
    }
    t.kind = Token::Kind::Word;
    t.text = text_.substr(pos_, i - pos_);
    col_ += uint32_t(i - pos_);
    pos_ = i;
  } else if (c == '"') {
    size_t i = pos_ + 1;
    while (i < text_.size() && text_[i] != '"' && text_[i] != '\n')
      i += text_[i] == '\\' && i + 1 < text_.size() && text_[i + 1] != '\n' ? 2 : 1;
    if (i >= text_.size() || text_[i] != '"')
      return Token{Token::Kind::Bad, "unterminated string", line_, col_, pos_, i};
    t.kind = Token::Kind::String;
    t.text = text_.substr(pos_ + 1, i - pos_ - 1);
    col_ += uint32_t(i + 1 - pos_);
    pos_ = i + 1;
  } else if (is_punct(c)) {
    t.kind = Token::Kind::Punct;
    t.text = text_.substr(pos_, 1);
    advance(1);
  } else {
    return Token{Token::Kind::Bad, "unexpected character", line_, col_, pos_, pos_ + 1};
  }
  t.end = pos_;
  last_line_ = line_;
  last_col_ = col_;
  return t;
}

} // namespace emu::ptx
