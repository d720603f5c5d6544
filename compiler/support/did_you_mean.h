// did_you_mean.h - the closest known name to a misspelt one ---------------//
// Owns: the suggestion an "unknown name" or "matches nothing" message adds,
// shared by the schedule interpreter (names, primitives) and patterns.
#pragma once
#include <string>
#include <vector>

namespace exgc {

/// Levenshtein distance (insertions, deletions and substitutions), ignoring
/// case: `Divide_Loop` is a misspelling of `divide_loop` too.
size_t edit_distance(const std::string &a, const std::string &b);

/// "; did you mean 'x'?" for the candidate closest to `name` (the first of
/// equals, one with the same first letter), when it is within a third of the
/// name's length (at least 1 edit); empty otherwise. `prefix` is written
/// before the candidate (`-Wno-` for a warning kind).
std::string did_you_mean(const std::string &name, const std::vector<std::string> &candidates,
                         const std::string &prefix = "");

} // namespace exgc
