// join.h - strings joined with a separator ---------------------------------//
#pragma once
#include <string>
#include <vector>

namespace exgc {

/// `xs` with `sep` between each two: join({"a", "b"}, ", ") is "a, b".
inline std::string join(const std::vector<std::string> &xs, const std::string &sep) {
  std::string out;
  for (size_t i = 0; i < xs.size(); ++i)
    out += (i ? sep : "") + xs[i];
  return out;
}

} // namespace exgc
