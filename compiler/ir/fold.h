// fold.h - the one constant folder -----------------------------------------//
// Owns: folding constant control arithmetic, for every stage, with one
// overflow policy: a step whose result leaves int64 is not folded (the value
// would wrap, and the generated code, which computes in int64_t, would not
// compute it). `/` and `%` are floor division by a positive divisor
// (support/floor_div.h); a zero or negative divisor is not folded.
// const_int reads a value; ConstantFolder rewrites an expression.
#pragma once
#include <cstdint>

#include "compiler/ir/mutator.h"

namespace exgc {

/// The value of a constant control expression: integer literals and unary
/// `-`, `+`, `-`, `*`, `/`, `%` of them. False when `e` is not one, or a step
/// leaves int64.
bool const_int(const Expr &e, int64_t &out);

/// Folds what never changes a value: constant control arithmetic and
/// comparisons, `x + 0`, `x - 0`, `x * 1`, `x * 0`, `x / 1`, `x % 1` of control
/// values, the constants of a sum (`(x + 2) + 3` is `x + 5`), `(e + f) - e`,
/// and `and`/`or`/`not` of constants. Data arithmetic is left alone. Kept as
/// a mutator so a pass that also simplifies (analysis/simplify.h) extends it.
struct ConstantFolder : IRMutator {
  Expr mutate_node(const BinOp *op, const Expr &self) override;
  Expr mutate_node(const UnOp *op, const Expr &self) override;
};

/// `e` folded by ConstantFolder; the same handle when nothing changes.
Expr fold_constants(const Expr &e);

} // namespace exgc
