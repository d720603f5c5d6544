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

namespace {

void narrow_by(const Sym &s, const Expr &pred, IndexRange &r) {
  const auto *op = pred.as<BinOp>();
  if (!op)
    return;
  if (op->op == BinOpKind::And) {
    narrow_by(s, op->a, r);
    narrow_by(s, op->b, r);
    return;
  }
  const auto *va = op->a.as<Var>(), *vb = op->b.as<Var>();
  const auto *ca = op->a.as<IntImm>(), *cb = op->b.as<IntImm>();
  // Name on the left: s op c; on the right, c op s reads as s (mirrored op) c.
  BinOpKind k = op->op;
  int64_t c = 0;
  if (va && va->name == s && cb) {
    c = cb->value;
  } else if (vb && vb->name == s && ca) {
    c = ca->value;
    k = k == BinOpKind::Lt   ? BinOpKind::Gt
        : k == BinOpKind::Le ? BinOpKind::Ge
        : k == BinOpKind::Gt ? BinOpKind::Lt
        : k == BinOpKind::Ge ? BinOpKind::Le
                             : k;
  } else {
    return;
  }
  switch (k) {
  case BinOpKind::Lt: r.hi = std::min<int64_t>(r.hi, c == INT64_MIN ? c : c - 1); break;
  case BinOpKind::Le: r.hi = std::min(r.hi, c); break;
  case BinOpKind::Gt: r.lo = std::max<int64_t>(r.lo, c == INT64_MAX ? c : c + 1); break;
  case BinOpKind::Ge: r.lo = std::max(r.lo, c); break;
  case BinOpKind::Eq: r.lo = std::max(r.lo, c), r.hi = std::min(r.hi, c); break;
  default: break;
  }
}

} // namespace

IndexRange bounded_by_asserts(const Sym &s, IndexRange r, const std::vector<Expr> &preds) {
  for (const Expr &p : preds)
    narrow_by(s, p, r);
  // Contradictory asserts leave an empty interval: no call gets past the
  // entry, and any interval is then true of the values that reach a kernel.
  if (r.lo > r.hi)
    r.hi = r.lo;
  return r;
}

} // namespace exgc::analysis
