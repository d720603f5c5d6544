// value_range.h - the interval a control expression's value lies in -------//
// Owns: bounding index arithmetic by intervals, so that the CUDA backend can
// compute in 32 bits exactly where every value provably fits. Each name
// brings the interval its binding knows (index_form.h's RangeOf: a size a
// kernel receives lies in [1, kMaxKernelSize] of control_limits.h, an
// iterator between its loop's bounds); an expression that reads a name
// without one has none.
// Intervals are the exact hulls of the language's operators (floor `/` and
// `%` by a positive divisor, min, max, select), computed in 128 bits; one
// that leaves int64_t is not given.
#pragma once
#include <cstdint>
#include <optional>

#include "compiler/analysis/control_limits.h"
#include "compiler/analysis/index_form.h"

namespace exgc::analysis {

inline bool fits_int32(const IndexRange &r) { return r.lo >= INT32_MIN && r.hi <= INT32_MAX; }

/// The interval holding every value `e` takes when each name lies in its
/// interval; nullopt for data and bool expressions, for whatever reads a name
/// without one, and where a divisor may be below 1.
std::optional<IndexRange> value_range(const Expr &e, const RangeOf &range_of);

/// The interval of `a op b` (Add, Sub, Mul, Div, Mod) for operands in `a` and
/// `b`; nullopt for other operators and where value_range gives none.
std::optional<IndexRange> combine_ranges(BinOpKind op, const IndexRange &a, const IndexRange &b);

/// `r` narrowed by the proc's asserts that compare name `s` with a literal
/// (`M <= 4096`, `8 <= K`, in either order, as an assert or a conjunct of
/// one at its top level): the entry checks them before anything runs.
IndexRange bounded_by_asserts(const Sym &s, IndexRange r, const std::vector<Expr> &preds);

} // namespace exgc::analysis
