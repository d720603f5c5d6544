// spelling.cpp - edit distance for "did you mean" ----------------------------//
#include "tools/exgc/spelling.h"

#include <algorithm>
#include <cctype>

namespace exgc {

namespace {

size_t edit_distance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

} // namespace

std::string closest_spelling(const std::string &typed, const std::vector<std::string> &candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(1, typed.size() / 3) + 1;
  for (const std::string &c : candidates) {
    size_t d = edit_distance(typed, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(const std::string &typed, const std::vector<std::string> &candidates,
                         const std::string &prefix) {
  std::string best = closest_spelling(typed, candidates);
  return best.empty() ? "" : "; did you mean '" + prefix + best + "'?";
}

} // namespace exgc
