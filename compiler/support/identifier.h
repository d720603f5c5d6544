// identifier.h - is a string a C identifier, an .exg name ------------------//
// Names that end up in generated code or in script-made declarations (loop
// iterators from a schedule, warp role names) must be C identifiers:
// [A-Za-z_][A-Za-z0-9_]*. A name a schedule declares must also not be an
// .exg keyword, or the printed proc would not parse again.
#pragma once

#include <array>
#include <cctype>
#include <string_view>

namespace exgc {

inline bool is_c_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  for (char ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_')
      return false;
  return true;
}

/// The keywords of grammar/ExgLexer.g4 (IdentifierTest checks the list
/// against that file).
inline bool is_exg_keyword(std::string_view s) {
  static constexpr std::array<std::string_view, 24> keywords = {
      "False", "True",  "and",    "as",     "assert", "check", "def",   "elif",
      "else",  "export", "for",   "from",   "if",     "import", "in",   "inf",
      "instr", "not",   "or",    "pass",   "proc",   "return", "schedule", "with"};
  for (std::string_view k : keywords)
    if (k == s)
      return true;
  return false;
}

/// A name a schedule may declare: an identifier that is not a keyword.
inline bool is_exg_name(std::string_view s) { return is_c_identifier(s) && !is_exg_keyword(s); }

} // namespace exgc
