// window.h - an index through a window, in the buffer under it -------------//
// Owns: the one rule by which a window's coordinates reach its buffer. A
// window fixes some of the buffer's dimensions (points, at their index) and
// offsets the others (slices, by their start); its own coordinates are the
// slices', in order. The effect analysis (analysis/effects.h) and the
// inliner (ir/inliner.h) map indices and windows of windows with it; how
// the sum is written is theirs (the inliner folds it). The bounds check
// builds the same placement as Z3 terms with extents and strides, and the
// sync lowering maps coordinates that are themselves slices with open ends
// (docs/architecture.md, "One rule for windows").
#pragma once
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc {

/// How two indices add: the IR's plain sum, or a folding one.
using IndexSum = Expr (*)(const Expr &, const Expr &);

/// a + b as one BinOp, unfolded.
Expr plain_sum(const Expr &a, const Expr &b);

/// The buffer's index in each of its dimensions for the window coordinates
/// `idx`: a point's index `start[d]`, or a slice's start plus the next
/// coordinate (the start alone when `idx` has no more).
std::vector<Expr> window_to_buffer(const std::vector<bool> &is_slice,
                                   const std::vector<Expr> &start, const std::vector<Expr> &idx,
                                   IndexSum sum);
/// The same for a window written as the IR's window indices (a slice's `lo`
/// is its start; its `hi` is not needed).
std::vector<Expr> window_to_buffer(const std::vector<WindowIdx> &window,
                                   const std::vector<Expr> &idx, IndexSum sum);

} // namespace exgc
