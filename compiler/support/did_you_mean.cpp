// did_you_mean.cpp - the closest known name to a misspelt one -------------//
#include "compiler/support/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace exgc {

size_t edit_distance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(const std::string &name, const std::vector<std::string> &candidates,
                         const std::string &prefix) {
  size_t limit = std::max<size_t>(1, name.size() / 3), best = 2 * limit + 2;
  const std::string *pick = nullptr;
  for (const std::string &c : candidates) {
    if (c == name)
      continue;
    // Of equal distances, one with the same first letter reads as meant.
    size_t d = 2 * edit_distance(name, c) + (c.empty() || name.empty() || c[0] != name[0]);
    if (d < best) {
      best = d;
      pick = &c;
    }
  }
  return pick ? "; did you mean '" + prefix + *pick + "'?" : "";
}

} // namespace exgc
