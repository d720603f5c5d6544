// value_range_test.cpp - interval bounds hold every value, and are tight
// where the CUDA backend relies on them (issue 31's 32-bit indices).
#include "compiler/analysis/value_range.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "compiler/ir/printer.h"
#include "test/unit/index_eval.h"

namespace exgc::analysis {
namespace {

Expr c(int64_t v) { return IntImm::make(v); }
Expr bin(BinOpKind op, Expr a, Expr b) { return BinOp::make(op, std::move(a), std::move(b)); }

struct Names {
  std::vector<Sym> syms{Sym::fresh("a"), Sym::fresh("b"), Sym::fresh("n")};
  std::vector<Expr> vars;
  std::map<uint32_t, IndexRange> ranges;
  Names() {
    for (const Sym &s : syms)
      vars.push_back(Var::make(s, ValueType::Index));
  }
  RangeOf range_of() const {
    return [this](const Var &v) -> std::optional<IndexRange> {
      auto it = ranges.find(v.name.id);
      return it == ranges.end() ? std::nullopt : std::optional<IndexRange>(it->second);
    };
  }
};


TEST(ValueRange, TileCoordinatesOfA32BitSizeFitInt32) {
  // for by in seq(0, (M + 127) / 128): for r in seq(0, 128): by * 128 + r
  Names n;
  Sym by = n.syms[0], r = n.syms[1], m = n.syms[2];
  n.ranges[m.id] = {1, kMaxKernelSize};
  auto hi = value_range(bin(BinOpKind::Div, bin(BinOpKind::Add, n.vars[2], c(127)), c(128)),
                        n.range_of());
  ASSERT_TRUE(hi);
  EXPECT_EQ(hi->lo, 1);
  EXPECT_EQ(hi->hi, int64_t(1) << 24);
  n.ranges[by.id] = {0, hi->hi - 1};
  n.ranges[r.id] = {0, 127};
  auto row = value_range(bin(BinOpKind::Add, bin(BinOpKind::Mul, n.vars[0], c(128)), n.vars[1]),
                         n.range_of());
  ASSERT_TRUE(row);
  EXPECT_EQ(row->hi, INT32_MAX);
  EXPECT_TRUE(fits_int32(*row));
  // One more row, or a product with the size, does not fit.
  auto past = value_range(bin(BinOpKind::Add, n.vars[2], c(1)), n.range_of());
  ASSERT_TRUE(past);
  EXPECT_FALSE(fits_int32(*past));
  auto offset = value_range(bin(BinOpKind::Mul, n.vars[0], n.vars[2]), n.range_of());
  ASSERT_TRUE(offset);
  EXPECT_FALSE(fits_int32(*offset));
}

TEST(ValueRange, UnknownNamesDivisorsAndOverflowGiveNone) {
  Names n;
  n.ranges[n.syms[0].id] = {-5, 5};
  EXPECT_FALSE(value_range(bin(BinOpKind::Add, n.vars[0], n.vars[1]), n.range_of()));
  EXPECT_FALSE(value_range(bin(BinOpKind::Div, c(7), n.vars[0]), n.range_of()));
  EXPECT_FALSE(value_range(bin(BinOpKind::Mod, c(7), n.vars[0]), n.range_of()));
  n.ranges[n.syms[1].id] = {0, INT64_MAX};
  EXPECT_FALSE(value_range(bin(BinOpKind::Mul, n.vars[1], c(2)), n.range_of()));
  EXPECT_FALSE(value_range(UnOp::make(UnOpKind::Not, n.vars[1]), n.range_of()));
  auto neg = value_range(UnOp::make(UnOpKind::Neg, n.vars[0]), n.range_of());
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg->lo, -5);
  EXPECT_EQ(neg->hi, 5);
}

TEST(ValueRange, AssertsComparingANameWithALiteralNarrowIt) {
  Names n;
  const Sym &d = n.syms[0];
  const Expr &vd = n.vars[0], &other = n.vars[1];
  auto cmp = [](BinOpKind k, Expr a, Expr b) { return bin(k, std::move(a), std::move(b)); };
  const IndexRange wide{-(int64_t(1) << 40), int64_t(1) << 40};
  // `d >= 0 and d < 2147483648`, as attention asserts: the int32 range exactly.
  IndexRange r = bounded_by_asserts(
      d, wide, {cmp(BinOpKind::And, cmp(BinOpKind::Ge, vd, c(0)), cmp(BinOpKind::Lt, vd, c(2147483648)))});
  EXPECT_EQ(r.lo, 0);
  EXPECT_EQ(r.hi, INT32_MAX);
  EXPECT_TRUE(fits_int32(r));
  // The literal on the left mirrors the comparison; == pins it.
  r = bounded_by_asserts(d, wide, {cmp(BinOpKind::Lt, c(-5), vd), cmp(BinOpKind::Ge, c(9), vd)});
  EXPECT_EQ(r.lo, -4);
  EXPECT_EQ(r.hi, 9);
  r = bounded_by_asserts(d, wide, {cmp(BinOpKind::Eq, vd, c(64))});
  EXPECT_EQ(r.lo, 64);
  EXPECT_EQ(r.hi, 64);
  // Comparisons with other names, under `or`, or of other names say nothing.
  r = bounded_by_asserts(d, wide,
                         {cmp(BinOpKind::Le, vd, other),
                          cmp(BinOpKind::Or, cmp(BinOpKind::Le, vd, c(3)), cmp(BinOpKind::Ge, vd, c(9))),
                          cmp(BinOpKind::Le, other, c(3))});
  EXPECT_EQ(r.lo, wide.lo);
  EXPECT_EQ(r.hi, wide.hi);
  // Contradictory asserts: no call passes the entry; the interval stays well formed.
  r = bounded_by_asserts(d, wide, {cmp(BinOpKind::Lt, vd, c(0)), cmp(BinOpKind::Gt, vd, c(0))});
  EXPECT_LE(r.lo, r.hi);
}

/// A random control expression over the three names and small constants.
Expr random_expr(std::mt19937_64 &rng, const Names &n, int depth) {
  std::uniform_int_distribution<int> pick(0, depth > 0 ? 9 : 1);
  int k = pick(rng);
  if (k == 0)
    return c(std::uniform_int_distribution<int64_t>(-40, 40)(rng));
  if (k == 1)
    return n.vars[std::uniform_int_distribution<size_t>(0, 2)(rng)];
  Expr a = random_expr(rng, n, depth - 1);
  Expr b = random_expr(rng, n, depth - 1);
  switch (k) {
  case 2: return bin(BinOpKind::Add, a, b);
  case 3: return bin(BinOpKind::Sub, a, b);
  case 4: return bin(BinOpKind::Mul, a, b);
  case 5: // divisors as the language has them: positive
    return bin(BinOpKind::Div, a, c(std::uniform_int_distribution<int64_t>(1, 9)(rng)));
  case 6: return bin(BinOpKind::Mod, a, bin(BinOpKind::Add, n.vars[2], c(1)));
  case 7: return UnOp::make(UnOpKind::Neg, a);
  case 8: return Call::make(std::uniform_int_distribution<int>(0, 1)(rng) ? "min" : "max", {a, b}, {});
  default:
    return Call::make("select",
                      {a, b, random_expr(rng, n, depth - 1), random_expr(rng, n, depth - 1)}, {});
  }
}

TEST(ValueRange, RandomExpressionsStayInTheirInterval) {
  // Attack: 20,000 random expressions, each evaluated at 20 points drawn from
  // its names' intervals (corners included); every value must lie inside.
  std::mt19937_64 rng(31);
  int checked = 0;
  for (int round = 0; round < 20000; ++round) {
    Names n;
    for (size_t s = 0; s < 2; ++s) {
      int64_t lo = std::uniform_int_distribution<int64_t>(-50, 50)(rng);
      n.ranges[n.syms[s].id] = {lo, lo + std::uniform_int_distribution<int64_t>(0, 60)(rng)};
    }
    n.ranges[n.syms[2].id] = {0, std::uniform_int_distribution<int64_t>(0, 30)(rng)};
    Expr e = random_expr(rng, n, 4);
    auto r = value_range(e, n.range_of());
    ASSERT_TRUE(r) << print_expr(e);
    for (int point = 0; point < 20; ++point) {
      std::map<uint32_t, int64_t> env;
      for (const Sym &s : n.syms) {
        const IndexRange &ir = n.ranges.at(s.id);
        int corner = std::uniform_int_distribution<int>(0, 3)(rng);
        env[s.id] = corner == 0   ? ir.lo
                    : corner == 1 ? ir.hi
                                  : std::uniform_int_distribution<int64_t>(ir.lo, ir.hi)(rng);
      }
      __int128 v = exgc::testing::eval_index(e, env);
      ASSERT_TRUE(v >= r->lo && v <= r->hi)
          << print_expr(e) << " = " << static_cast<int64_t>(v) << " outside [" << r->lo << ", "
          << r->hi << "]";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 400000);
}

} // namespace
} // namespace exgc::analysis
