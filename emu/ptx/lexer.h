// emu/ptx/lexer.h - PTX text to tokens ------------------------------------------//
// Owns: splitting PTX into words, strings and punctuation, skipping comments,
// with 1-based line and column of each token. A word is a run of letters,
// digits and `_ $ % .` plus `::`, so whole opcodes
// ("cp.async.bulk.tensor.2d.shared::cluster"), special registers ("%tid.x"),
// directives (".reg") and literals ("0f3F800000", "9.0") are one token each;
// the parser decides what a word means from where it stands.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace emu::ptx {

struct Token {
  enum class Kind { Word, String, Punct, End, Bad };
  Kind kind = Kind::End;
  std::string_view text; ///< Word and Punct: as written; String: without quotes
  uint32_t line = 0, col = 0;
  size_t offset = 0;     ///< byte offset of the token's first character
  size_t end = 0;        ///< byte offset just past it

  bool is(char c) const { return kind == Kind::Punct && text.size() == 1 && text[0] == c; }
  bool is_word(std::string_view w) const { return kind == Kind::Word && text == w; }
};

/// Produces tokens one at a time. At the end of the text it returns End tokens,
/// positioned just after the last real token (so errors stay inside the text).
/// A character PTX never uses, an unterminated string or comment gives a Bad
/// token whose `text` says what is wrong.
class Lexer {
public:
  explicit Lexer(std::string_view text) : text_(text) {}
  Token next();

private:
  bool skip_space_and_comments(Token &bad);
  void advance(size_t n);

  std::string_view text_;
  size_t pos_ = 0;
  uint32_t line_ = 1, col_ = 1;
  uint32_t last_line_ = 1, last_col_ = 1; ///< just past the last real token
};

} // namespace emu::ptx
