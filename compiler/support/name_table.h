// name_table.h - a fixed table from names to enum values ------------------//
// Owns: the one lookup by which a built-in name (a loop mode, a context, a
// timeline) is resolved to its enum once; the stages after the typecheck
// switch on the value.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace exgc {

template <typename T, size_t N>
std::optional<T> find_named(const std::pair<const char *, T> (&table)[N], const std::string &name) {
  for (const auto &[spelled, value] : table)
    if (name == spelled)
      return value;
  return std::nullopt;
}

/// The name of `value` in `table`; null when the table lacks it.
template <typename T, size_t N>
const char *name_of(const std::pair<const char *, T> (&table)[N], T value) {
  for (const auto &[spelled, v] : table)
    if (v == value)
      return spelled;
  return nullptr;
}

} // namespace exgc
