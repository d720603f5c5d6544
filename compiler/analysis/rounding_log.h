// rounding_log.h - which floating-point roundings a rewrite changes --------//
// Owns: RoundingLog, where the checks of a schedule step record what makes
// the step's result differ from its input's by rounding alone (issue 27, item
// 5): sums reordered (a real sum commutes, a floating one does not) and
// precisions changed. The dependence analysis records a buffer whose `+=`
// statements it let trade places; a primitive that reassociates or narrows
// on purpose (rfactor, butterfly_sum, stage_mem with accum, set_precision)
// records a sentence. The schedule interpreter keeps one log per step and
// reports the steps with a record (RoundingStepsApplied). Integer sums wrap
// and commute exactly, so the interpreter keeps only records of float data.
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc::analysis {

/// One way a step rounds otherwise: what it does, and the float type whose
/// rounding that changes (the sum's type, or the coarser of two precisions).
struct RoundingChange {
  std::string what; // "stores 't' as f16 instead of f32"
  ValueType type;
  bool operator==(const RoundingChange &o) const { return what == o.what && type == o.type; }
};

/// The unit roundoff of float type `t` (half an ulp of 1): f16 2^-11, bf16
/// 2^-8, f32 (and R) 2^-24, f64 2^-53, e4m3 2^-4, e5m2 2^-3.
double unit_roundoff(ValueType t);

class RoundingLog {
public:
  RoundingLog();
  ~RoundingLog();
  RoundingLog(const RoundingLog &) = delete;
  RoundingLog &operator=(const RoundingLog &) = delete;

  /// Is a log alive on this thread (so a record is worth its work)?
  static bool active();
  /// In the innermost log of this thread, if any: `+=` statements into `buf`
  /// may now add to one element in another order.
  static void reordered_sums(const Sym &buf);
  /// Has the innermost log recorded `buf` already?
  static bool has_reordered(const Sym &buf);
  /// In the innermost log of this thread, if any: how the step rounds
  /// otherwise ("stores 't' as f16 instead of f32").
  static void record(RoundingChange change);

  const std::vector<Sym> &reordered() const { return reordered_; }
  const std::vector<RoundingChange> &records() const { return records_; }

private:
  std::vector<Sym> reordered_;
  std::vector<RoundingChange> records_;
  RoundingLog *outer_;
};

} // namespace exgc::analysis
