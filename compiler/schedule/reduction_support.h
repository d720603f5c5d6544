// reduction_support.h - what rfactor and butterfly_sum share ---------------//
// Owns: finding a sum `acc = e0; for ...: acc += e` (the two statements a
// block cursor or pattern names, the perfect loop nest of the second, and
// the reductions at its bottom), and the checks that make its iterations
// reorderable: acc is one location, only reduced into in the nest, and the
// summands do not read it.
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/nodes.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/schedule/value.h"

namespace exgc::schedule {

struct SumNest {
  Stmt init;                // acc[idx] = e0
  const Assign *acc = nullptr;
  ValueType type = ValueType::F32; // acc's element type
  std::vector<Stmt> loops;  // the perfect nest, outermost first
  Block body;               // the reductions at its bottom
};

/// The sum that `block` (a block cursor or a pattern for two statements)
/// names in `p`, checked: `acc[idx] = e0` then a perfect nest of loops whose
/// bounds use none of its iterators and whose innermost body only reduces
/// into the same `acc[idx]` (idx using no iterator of the nest) with
/// summands that do not read acc. Reports ReductionShape or
/// ReductionReadsAcc for `prim` at `loc` and aborts otherwise.
SumNest find_sum(Interpreter &in, const Proc &p, const Value &block, const char *prim,
                 SrcLoc loc);

/// Records (analysis::RoundingLog) that the step adds the summands of `sum`
/// in another order, `how` (a floating sum then rounds otherwise; an integer
/// one wraps to the same value).
void record_reassociation(const SumNest &sum, const std::string &how);

/// a - b, leaving out a literal 0.
Expr minus_expr(const Expr &a, const Expr &b);

} // namespace exgc::schedule
