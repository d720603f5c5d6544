// index_form_test.cpp - the canonical form of index expressions keeps values.
#include "compiler/analysis/index_form.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "compiler/ir/printer.h"
#include "test/unit/index_eval.h"

namespace exgc::analysis {
namespace {

/// The value of a control expression, with floor `/` and `%` (the language's).
int64_t eval(const Expr &e, const std::map<std::string, int64_t> &env) {
  return static_cast<int64_t>(
      exgc::testing::eval_index(e, [&](const Sym &s) -> __int128 { return env.at(s.name); }));
}

struct Vars {
  Sym i = Sym::fresh("i"), j = Sym::fresh("j"), n = Sym::fresh("n");
  Expr vi = Var::make(i, ValueType::Index), vj = Var::make(j, ValueType::Index),
       vn = Var::make(n, ValueType::Size);
  /// i in [0, 3], j in [0, 4]; n unbounded.
  RangeOf range() const {
    return [this](const Var &v) -> std::optional<IndexRange> {
      if (v.name == i)
        return IndexRange{0, 3};
      if (v.name == j)
        return IndexRange{0, 4};
      return std::nullopt;
    };
  }
};

Expr c(int64_t v) { return IntImm::make(v); }
Expr bin(BinOpKind op, Expr a, Expr b) { return BinOp::make(op, std::move(a), std::move(b)); }

TEST(IndexForm, TheReferencesCases) {
  Vars v;
  auto canon = [&](const Expr &e) { return print_expr(canonical_index(e, v.range())); };
  // 16 * (n + 1) - n * 16
  EXPECT_EQ(canon(bin(BinOpKind::Sub, bin(BinOpKind::Mul, c(16), bin(BinOpKind::Add, v.vn, c(1))),
                      bin(BinOpKind::Mul, v.vn, c(16)))),
            "16");
  // n / 4 / 3 / 2
  EXPECT_EQ(canon(bin(BinOpKind::Div, bin(BinOpKind::Div, bin(BinOpKind::Div, v.vn, c(4)), c(3)), c(2))),
            "n / 24");
  // (i * 4 + i * 4 + 2 * j + 3) / 2
  Expr sum = bin(BinOpKind::Add,
                 bin(BinOpKind::Add, bin(BinOpKind::Add, bin(BinOpKind::Mul, v.vi, c(4)),
                                         bin(BinOpKind::Mul, v.vi, c(4))),
                     bin(BinOpKind::Mul, c(2), v.vj)),
                 c(3));
  EXPECT_EQ(canon(bin(BinOpKind::Div, sum, c(2))), "4 * i + j + 1");
  // n + 3 - 4 * (n / 4): the remainder divide_with_recompute leaves.
  EXPECT_EQ(canon(bin(BinOpKind::Sub, bin(BinOpKind::Add, v.vn, c(3)),
                      bin(BinOpKind::Mul, c(4), bin(BinOpKind::Div, v.vn, c(4))))),
            "n % 4 + 3");
  // (4 * n + i) % 4 and / 4, with 0 <= i <= 3
  Expr affine = bin(BinOpKind::Add, bin(BinOpKind::Mul, c(4), v.vn), v.vi);
  EXPECT_EQ(canon(bin(BinOpKind::Mod, affine, c(4))), "i");
  EXPECT_EQ(canon(bin(BinOpKind::Div, affine, c(4))), "n");
  // j reaches 4: only the multiple of 4 leaves the division.
  EXPECT_EQ(canon(bin(BinOpKind::Div, bin(BinOpKind::Add, bin(BinOpKind::Mul, c(4), v.vn), v.vj), c(4))),
            "n + j / 4");
}

TEST(IndexForm, ConstantsPastInt64KeepTheExpression) {
  Vars v;
  Expr big = bin(BinOpKind::Add, bin(BinOpKind::Mul, c(INT64_MAX), v.vn), bin(BinOpKind::Mul, c(2), v.vn));
  EXPECT_TRUE(canonical_index(big).same_as(big));
}

/// A random quasi-affine expression over i, j, n: + - *, unary minus, floor
/// / and % by constants from -3 to 9 (a non-positive divisor stays an atom).
Expr random_expr(std::mt19937_64 &rng, const Vars &v, int depth) {
  std::uniform_int_distribution<int> pick(0, depth <= 0 ? 3 : 10);
  switch (pick(rng)) {
  case 0: return v.vi;
  case 1: return v.vj;
  case 2: return v.vn;
  case 3: return c(static_cast<int64_t>(rng() % 19) - 9);
  case 4: case 5: return bin(BinOpKind::Add, random_expr(rng, v, depth - 1), random_expr(rng, v, depth - 1));
  case 6: return bin(BinOpKind::Sub, random_expr(rng, v, depth - 1), random_expr(rng, v, depth - 1));
  case 7: return bin(BinOpKind::Mul, c(static_cast<int64_t>(rng() % 9) - 4), random_expr(rng, v, depth - 1));
  case 8: return UnOp::make(UnOpKind::Neg, random_expr(rng, v, depth - 1));
  case 9: return bin(BinOpKind::Div, random_expr(rng, v, depth - 1), c(static_cast<int64_t>(rng() % 9) + 1));
  default: return bin(BinOpKind::Mod, random_expr(rng, v, depth - 1), c(static_cast<int64_t>(rng() % 9) + 1));
  }
}

TEST(IndexForm, RandomExpressionsKeepTheirValues) {
  Vars v;
  std::mt19937_64 rng(32);
  int changed = 0;
  for (int t = 0; t < 20000; ++t) {
    Expr e = random_expr(rng, v, 4);
    Expr with_ranges = canonical_index(e, v.range()), without = canonical_index(e);
    changed += print_expr(with_ranges) != print_expr(e);
    for (int64_t n = -9; n <= 9; n += 3)
      for (int64_t i = 0; i <= 3; ++i)
        for (int64_t j = 0; j <= 4; ++j) {
          std::map<std::string, int64_t> env{{"i", i}, {"j", j}, {"n", n}};
          int64_t want = eval(e, env);
          ASSERT_EQ(eval(with_ranges, env), want) << print_expr(e) << " -> " << print_expr(with_ranges);
          ASSERT_EQ(eval(without, env), want) << print_expr(e) << " -> " << print_expr(without);
        }
    // Without ranges the form holds for any i and j.
    for (int64_t i = -7; i <= 7; i += 7) {
      std::map<std::string, int64_t> env{{"i", i}, {"j", -i - 2}, {"n", i * 3 + 1}};
      ASSERT_EQ(eval(without, env), eval(e, env)) << print_expr(e) << " -> " << print_expr(without);
    }
  }
  EXPECT_GT(changed, 10000); // the generator reaches the rewrites
}

} // namespace
} // namespace exgc::analysis
