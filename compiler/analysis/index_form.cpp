// index_form.cpp - sums of coefficient * atom, divisions reduced -------------//
#include "compiler/analysis/index_form.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/printer.h"
#include "compiler/support/floor_div.h"

namespace exgc::analysis {

namespace {


/// A positive constant divisor: `b` is an integer literal above zero.
bool positive_constant(const Expr &b, int64_t &d) {
  const auto *i = b.as<IntImm>();
  if (!i || i->value <= 0)
    return false;
  d = i->value;
  return true;
}

/// A linear combination of atoms (by printed text, in order of first
/// appearance) plus a constant. `overflow` marks a coefficient or constant
/// that left int64: the form is then not used.
struct Form {
  std::vector<std::pair<Expr, int64_t>> terms;
  std::map<std::string, size_t> where;
  int64_t constant = 0;
  bool overflow = false;

  void add_constant(int64_t c) { overflow |= __builtin_add_overflow(constant, c, &constant); }
  void add(const Expr &atom, int64_t c) {
    std::string key = print_expr(atom);
    auto it = where.find(key);
    if (it == where.end()) {
      where[key] = terms.size();
      terms.emplace_back(atom, c);
    } else {
      overflow |= __builtin_add_overflow(terms[it->second].second, c, &terms[it->second].second);
    }
  }
  /// Adds `k * f`.
  void add_scaled(const Form &f, int64_t k) {
    overflow |= f.overflow;
    int64_t v;
    for (const auto &[atom, c] : f.terms) {
      overflow |= __builtin_mul_overflow(c, k, &v);
      add(atom, v);
    }
    overflow |= __builtin_mul_overflow(f.constant, k, &v);
    add_constant(v);
  }
  int64_t coefficient(const Expr &atom) const {
    auto it = where.find(print_expr(atom));
    return it == where.end() ? 0 : terms[it->second].second;
  }
  size_t nonzero_terms() const {
    size_t n = 0;
    for (const auto &t : terms)
      n += t.second != 0;
    return n;
  }
  Expr build() const {
    Expr out;
    auto term = [](const Expr &atom, int64_t c) {
      return c == 1 ? atom : BinOp::make(BinOpKind::Mul, IntImm::make(c), atom);
    };
    for (const auto &[atom, c] : terms)
      if (c > 0)
        out = out ? BinOp::make(BinOpKind::Add, out, term(atom, c)) : term(atom, c);
    if (constant != 0 || (!out && nonzero_terms() == 0))
      out = !out ? IntImm::make(constant)
                 : BinOp::make(constant > 0 ? BinOpKind::Add : BinOpKind::Sub, out,
                               IntImm::make(constant > 0 ? constant : -constant));
    for (const auto &[atom, c] : terms)
      if (c < 0)
        out = out ? BinOp::make(BinOpKind::Sub, out, term(atom, -c))
                  : UnOp::make(UnOpKind::Neg, term(atom, -c));
    return out;
  }
};

using Bounds = std::optional<std::pair<__int128, __int128>>;

class Canonicalizer {
public:
  explicit Canonicalizer(const RangeOf &range) : range_(range) {}

  Form form(const Expr &e) {
    Form f;
    if (const auto *i = e.as<IntImm>()) {
      f.add_constant(i->value);
      return f;
    }
    if (const auto *u = e.as<UnOp>(); u && u->op == UnOpKind::Neg) {
      f.add_scaled(form(u->a), -1);
      return f;
    }
    const auto *b = e.as<BinOp>();
    if (!b) {
      f.add(e, 1);
      return f;
    }
    int64_t d = 0;
    switch (b->op) {
    case BinOpKind::Add:
    case BinOpKind::Sub:
      f.add_scaled(form(b->a), 1);
      f.add_scaled(form(b->b), b->op == BinOpKind::Add ? 1 : -1);
      fold_remainders(f);
      return f;
    case BinOpKind::Mul: {
      Form fa = form(b->a), fb = form(b->b);
      if (fa.nonzero_terms() == 0)
        f.add_scaled(fb, fa.constant);
      else if (fb.nonzero_terms() == 0)
        f.add_scaled(fa, fb.constant);
      else
        f.add(BinOp::make(BinOpKind::Mul, fa.build(), fb.build()), 1);
      f.overflow |= fa.overflow || fb.overflow;
      return f;
    }
    case BinOpKind::Div:
    case BinOpKind::Mod:
      if (positive_constant(b->b, d))
        return b->op == BinOpKind::Div ? divide(form(b->a), d) : remainder(form(b->a), d);
      f.add(e, 1);
      return f;
    default:
      f.add(e, 1);
      return f;
    }
  }

private:
  /// floor(f / d) = q + floor(r / d), where q holds the terms d divides.
  Form divide(const Form &f, int64_t d) {
    Form q, r;
    q.overflow = f.overflow;
    for (const auto &[atom, c] : f.terms)
      if (c % d == 0)
        q.add(atom, c / d);
      else
        r.add(atom, c);
    if (r.nonzero_terms() == 0) {
      q.add_constant(floor_div(f.constant, d));
      return q;
    }
    r.constant = f.constant;
    if (Bounds b = bounds(r)) {
      __int128 k = floor_div<__int128>(b->first, d);
      if (floor_div<__int128>(b->second, d) == k) { // r / d is the same everywhere
        q.add_constant(static_cast<int64_t>(k));
        return q;
      }
    }
    // floor((floor(x / d1) + c) / d) = floor((x + c * d1) / (d1 * d)).
    if (r.nonzero_terms() == 1)
      for (const auto &[atom, c] : r.terms) {
        const auto *inner = atom.as<BinOp>();
        int64_t d1 = 0, shift = 0, dd = 0;
        if (c != 1 || !inner || inner->op != BinOpKind::Div || !positive_constant(inner->b, d1) ||
            __builtin_mul_overflow(r.constant, d1, &shift) || __builtin_mul_overflow(d1, d, &dd))
          continue;
        Form x = form(inner->a);
        x.add_constant(shift);
        q.add_scaled(divide(x, dd), 1);
        return q;
      }
    q.add(BinOp::make(BinOpKind::Div, r.build(), IntImm::make(d)), 1);
    return q;
  }

  /// f % d: terms d divides drop out, the constant is taken modulo d.
  Form remainder(const Form &f, int64_t d) {
    Form r;
    r.overflow = f.overflow;
    for (const auto &[atom, c] : f.terms)
      if (c % d != 0)
        r.add(atom, c);
    r.constant = f.constant - d * floor_div(f.constant, d);
    if (r.nonzero_terms() == 0)
      return r;
    if (Bounds b = bounds(r)) {
      __int128 k = floor_div<__int128>(b->first, d);
      if (floor_div<__int128>(b->second, d) == k && k >= INT64_MIN / d && k <= INT64_MAX / d) {
        r.add_constant(static_cast<int64_t>(-k * d));
        return r;
      }
    }
    Form out;
    out.overflow = r.overflow;
    out.add(BinOp::make(BinOpKind::Mod, r.build(), IntImm::make(d)), 1);
    return out;
  }

  /// k * x - k * d * (x / d) is k * (x % d): what divide_loop and
  /// divide_with_recompute leave for the remainder of a division.
  void fold_remainders(Form &f) {
    for (size_t t = 0; t < f.terms.size(); ++t) {
      const auto [atom, c] = f.terms[t];
      const auto *div = atom.as<BinOp>();
      int64_t d = 0;
      if (!div || div->op != BinOpKind::Div || !positive_constant(div->b, d) || c >= 0 || c % d != 0)
        continue;
      int64_t k = -(c / d), v = 0;
      Form x = form(div->a);
      bool contained = x.nonzero_terms() > 0 && !x.overflow;
      for (const auto &[xa, xc] : x.terms)
        contained &= xc == 0 || (!__builtin_mul_overflow(xc, k, &v) && f.coefficient(xa) == v);
      if (!contained)
        continue;
      f.add_scaled(x, -k);
      f.add(atom, -c);
      f.add(BinOp::make(BinOpKind::Mod, div->a, IntImm::make(d)), k);
    }
  }

  Bounds atom_bounds(const Expr &atom) {
    if (const auto *v = atom.as<Var>()) {
      std::optional<IndexRange> r = range_ ? range_(*v) : std::nullopt;
      if (!r || r->lo > r->hi)
        return std::nullopt;
      return std::make_pair(__int128(r->lo), __int128(r->hi));
    }
    const auto *b = atom.as<BinOp>();
    int64_t d = 0;
    if (!b || !positive_constant(b->b, d))
      return std::nullopt;
    if (b->op == BinOpKind::Mod)
      return std::make_pair(__int128(0), __int128(d - 1));
    if (b->op != BinOpKind::Div)
      return std::nullopt;
    Bounds x = bounds(form(b->a));
    if (!x)
      return std::nullopt;
    return std::make_pair(floor_div<__int128>(x->first, d), floor_div<__int128>(x->second, d));
  }

  Bounds bounds(const Form &f) {
    if (f.overflow)
      return std::nullopt;
    const __int128 limit = __int128(1) << 100;
    __int128 lo = f.constant, hi = f.constant;
    for (const auto &[atom, c] : f.terms) {
      if (c == 0)
        continue;
      Bounds b = atom_bounds(atom);
      if (!b)
        return std::nullopt;
      lo += c > 0 ? c * b->first : c * b->second;
      hi += c > 0 ? c * b->second : c * b->first;
      if (lo < -limit || hi > limit)
        return std::nullopt;
    }
    return std::make_pair(lo, hi);
  }

  const RangeOf &range_;
};

} // namespace

Expr canonical_index(const Expr &e, const RangeOf &range) {
  if (!e || !is_control(e->type) || e->type == ValueType::Bool)
    return e;
  Canonicalizer c(range);
  Form f = c.form(e);
  return f.overflow ? e : f.build();
}

size_t expr_size(const Expr &e) {
  if (const auto *b = e.as<BinOp>())
    return 1 + expr_size(b->a) + expr_size(b->b);
  if (const auto *u = e.as<UnOp>())
    return 1 + expr_size(u->a);
  return 1;
}

} // namespace exgc::analysis
