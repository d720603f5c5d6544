// spelling.h - "did you mean" for names the user typed ----------------------//
#pragma once
#include <string>
#include <vector>

namespace exgc {

/// The candidate closest to `typed` by edit distance, ignoring case, when it
/// is close enough to be a likely typo (at most a third of its letters
/// differ); else empty.
std::string closest_spelling(const std::string &typed, const std::vector<std::string> &candidates);

/// "; did you mean 'X'?" for closest_spelling's answer, or empty.
std::string did_you_mean(const std::string &typed, const std::vector<std::string> &candidates,
                         const std::string &prefix = "");

} // namespace exgc
