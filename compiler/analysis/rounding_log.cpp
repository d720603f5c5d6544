// rounding_log.cpp - which floating-point roundings a rewrite changes ------//
#include "compiler/analysis/rounding_log.h"

#include <algorithm>

namespace exgc::analysis {

namespace {
thread_local RoundingLog *current_log = nullptr;
} // namespace

RoundingLog::RoundingLog() : outer_(current_log) { current_log = this; }

RoundingLog::~RoundingLog() { current_log = outer_; }

bool RoundingLog::active() { return current_log != nullptr; }

bool RoundingLog::has_reordered(const Sym &buf) {
  if (!current_log)
    return false;
  const std::vector<Sym> &r = current_log->reordered_;
  return std::any_of(r.begin(), r.end(), [&](const Sym &s) { return s.id == buf.id; });
}

void RoundingLog::reordered_sums(const Sym &buf) {
  if (current_log && !has_reordered(buf))
    current_log->reordered_.push_back(buf);
}

void RoundingLog::record(RoundingChange change) {
  if (current_log &&
      std::find(current_log->records_.begin(), current_log->records_.end(), change) ==
          current_log->records_.end())
    current_log->records_.push_back(std::move(change));
}

double unit_roundoff(ValueType t) {
  switch (t) {
  case ValueType::F16: return 0x1p-11;
  case ValueType::BF16: return 0x1p-8;
  case ValueType::F64: return 0x1p-53;
  case ValueType::E4M3: return 0x1p-4;
  case ValueType::E5M2: return 0x1p-3;
  default: return 0x1p-24; // f32, and R, computed as f32
  }
}

} // namespace exgc::analysis
