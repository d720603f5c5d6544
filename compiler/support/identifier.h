// identifier.h - is a string a C identifier ------------------------------//
// Names that end up in generated code or in script-made declarations (loop
// iterators from a schedule, warp role names) must be C identifiers:
// [A-Za-z_][A-Za-z0-9_]*.
#pragma once

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

} // namespace exgc
