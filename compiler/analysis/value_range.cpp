// value_range.cpp - interval bounds of index arithmetic --------------------//
#include "compiler/analysis/value_range.h"

#include <algorithm>

#include "compiler/support/floor_div.h"

namespace exgc::analysis {

namespace {

using Wide = __int128;

std::optional<IndexRange> bounded(Wide lo, Wide hi) {
  if (lo < INT64_MIN || hi > INT64_MAX)
    return std::nullopt;
  return IndexRange{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

/// The hull of four corner values (operators monotone in each argument).
std::optional<IndexRange> hull(Wide a, Wide b, Wide c, Wide d) {
  return bounded(std::min({a, b, c, d}), std::max({a, b, c, d}));
}

} // namespace

std::optional<IndexRange> combine_ranges(BinOpKind op, const IndexRange &a, const IndexRange &b) {
  const Wide alo = a.lo, ahi = a.hi, blo = b.lo, bhi = b.hi;
  switch (op) {
  case BinOpKind::Add:
    return bounded(alo + blo, ahi + bhi);
  case BinOpKind::Sub:
    return bounded(alo - bhi, ahi - blo);
  case BinOpKind::Mul: // int64 operands: products within 2^126
    return hull(alo * blo, alo * bhi, ahi * blo, ahi * bhi);
  case BinOpKind::Div:
    // Floor division by a positive divisor is monotone in the dividend and,
    // for a dividend of either sign, monotone in the divisor: its extremes
    // lie at the corners.
    if (blo < 1)
      return std::nullopt;
    return hull(floor_div(alo, blo), floor_div(alo, bhi), floor_div(ahi, blo),
                floor_div(ahi, bhi));
  case BinOpKind::Mod:
    if (blo < 1)
      return std::nullopt;
    if (alo >= 0 && ahi < blo) // a % b == a
      return a;
    return IndexRange{0, alo >= 0 ? std::min(a.hi, b.hi - 1) : b.hi - 1};
  default:
    return std::nullopt;
  }
}

std::optional<IndexRange> value_range(const Expr &e, const RangeOf &range_of) {
  if (!e || is_data(e->type) || e->type == ValueType::Bool)
    return std::nullopt;
  if (const auto *i = e.as<IntImm>())
    return IndexRange{i->value, i->value};
  if (const auto *v = e.as<Var>())
    return range_of ? range_of(*v) : std::nullopt;
  if (const auto *op = e.as<BinOp>()) {
    auto a = value_range(op->a, range_of);
    auto b = a ? value_range(op->b, range_of) : std::nullopt;
    return b ? combine_ranges(op->op, *a, *b) : std::nullopt;
  }
  if (const auto *u = e.as<UnOp>()) {
    auto a = u->op == UnOpKind::Neg ? value_range(u->a, range_of) : std::nullopt;
    return a ? bounded(-Wide(a->hi), -Wide(a->lo)) : std::nullopt;
  }
  if (const auto *c = e.as<Call>()) {
    const bool min_max = c->args.size() == 2 && (c->func == "min" || c->func == "max");
    const bool select = c->args.size() == 4 && c->func == "select";
    if (!min_max && !select)
      return std::nullopt;
    auto x = value_range(c->args[select ? 2 : 0], range_of);
    auto y = x ? value_range(c->args[select ? 3 : 1], range_of) : std::nullopt;
    if (!y)
      return std::nullopt;
    if (c->func == "min")
      return IndexRange{std::min(x->lo, y->lo), std::min(x->hi, y->hi)};
    if (c->func == "max")
      return IndexRange{std::max(x->lo, y->lo), std::max(x->hi, y->hi)};
    return IndexRange{std::min(x->lo, y->lo), std::max(x->hi, y->hi)};
  }
  return std::nullopt;
}

} // namespace exgc::analysis
