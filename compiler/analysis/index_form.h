// index_form.h - the canonical form of quasi-affine index expressions -------//
// Owns: writing a control integer expression as a sum of coefficient * atom
// plus a constant, like terms collected, with the floor divisions and
// remainders by positive constants inside it reduced:
//   16 * (n + 1) - n * 16         -> 16
//   n / 4 / 3 / 2                 -> n / 24
//   (i * 4 + i * 4 + 2 * j + 3) / 2 -> 4 * i + j + 1
//   n + 3 - 4 * (n / 4)           -> n % 4 + 3
//   (4 * io + ii) % 4, ii in [0, 4) -> ii
// Every rewrite is an identity of floor division by a positive constant, so
// the value never changes; a constant that would leave int64 keeps the
// expression as it was. Used by `simplify` and by the primitives that build
// index expressions (schedule/index_expr.h's simplify_index).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

#include "compiler/ir/nodes.h"

namespace exgc::analysis {

/// The values an atom (an iterator, a size) is known to take: [lo, hi].
struct IndexRange {
  int64_t lo = 0;
  int64_t hi = 0;
};
using RangeOf = std::function<std::optional<IndexRange>(const Var &atom)>;

/// `e` in canonical form: positive terms in order of first appearance, then
/// the constant, then the subtracted terms; a coefficient is written before
/// its atom (`4 * i`). Atoms are variables and what is not affine (a product
/// of two non-constants, a division whose remainder is not known); `range`,
/// when given, bounds variables so that `(4 * io + ii) / 4` is `io` where
/// `0 <= ii < 4`. `e` itself when it is not a control integer expression.
Expr canonical_index(const Expr &e, const RangeOf &range = {});

/// The number of nodes of `e`: how `simplify` tells which form is smaller.
size_t expr_size(const Expr &e);

} // namespace exgc::analysis
