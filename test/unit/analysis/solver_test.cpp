// solver_test.cpp - IndexSolver: exact floor div/mod, validity, counterexamples.
#include "compiler/analysis/solver.h"

#include <gtest/gtest.h>

#include "test/unit/ir_build.h"

namespace exgc::analysis {
namespace {

using namespace exgc::testing;

// Floor division and its remainder by a positive constant, on negatives too:
// -7 / 2 == -4 and -7 % 2 == 1 (nodes.h); C's truncation would give -3 and -1.
TEST(IndexSolver, FloorDivModOnNegatives) {
  IndexSolver s;
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Eq, bin(BinOpKind::Div, lit(-7), lit(2)), lit(-4))),
            Validity::Valid);
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Eq, bin(BinOpKind::Mod, lit(-7), lit(2)), lit(1))),
            Validity::Valid);
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Eq, bin(BinOpKind::Div, lit(7), lit(2)), lit(3))),
            Validity::Valid);
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Eq, bin(BinOpKind::Div, lit(-8), lit(4)), lit(-2))),
            Validity::Valid);
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Eq, bin(BinOpKind::Div, lit(-7), lit(2)), lit(-3))),
            Validity::Invalid);
}

// For every integer x: x == 4 * (x / 4) + x % 4 and 0 <= x % 4 < 4.
TEST(IndexSolver, DivModIdentityForAllIntegers) {
  IndexSolver s;
  Sym x = Sym::fresh("x");
  Expr q = bin(BinOpKind::Div, var(x), lit(4)), r = bin(BinOpKind::Mod, var(x), lit(4));
  Expr identity = bin(BinOpKind::Eq, var(x), bin(BinOpKind::Add, bin(BinOpKind::Mul, lit(4), q), r));
  EXPECT_EQ(s.is_valid({}, identity), Validity::Valid);
  Expr range = bin(BinOpKind::And, bin(BinOpKind::Le, lit(0), r), bin(BinOpKind::Lt, r, lit(4)));
  EXPECT_EQ(s.is_valid({}, range), Validity::Valid);
  // (x - 1) / 4 < x / 4 fails for x = 5, holds for x = 4: a real counterexample.
  Counterexample cex;
  Expr claim = bin(BinOpKind::Lt, bin(BinOpKind::Div, bin(BinOpKind::Sub, var(x), lit(1)), lit(4)), q);
  ASSERT_EQ(s.is_valid({}, claim, &cex), Validity::Invalid);
  int64_t xv = std::stoll(cex.value_of("x"));
  EXPECT_NE(((xv % 4) + 4) % 4, 0) << cex.str();
}

// The bounds question of `for i in seq(0, M): A[i + 1]` with A: f32[M].
TEST(IndexSolver, CounterexampleNamesTheVariables) {
  IndexSolver s;
  Sym m = Sym::fresh("M"), i = Sym::fresh("i");
  std::vector<Expr> ctx = {bin(BinOpKind::Ge, var(m, ValueType::Size), lit(1)),
                           bin(BinOpKind::Le, lit(0), var(i)),
                           bin(BinOpKind::Lt, var(i), var(m, ValueType::Size))};
  Counterexample cex;
  Expr goal = bin(BinOpKind::Lt, bin(BinOpKind::Add, var(i), lit(1)), var(m, ValueType::Size));
  ASSERT_EQ(s.is_valid(ctx, goal, &cex), Validity::Invalid);
  ASSERT_EQ(cex.values.size(), 2u) << cex.str();
  EXPECT_EQ(cex.values[0].first, "M");
  EXPECT_EQ(cex.values[1].first, "i");
  EXPECT_EQ(std::stoll(cex.value_of("i")) + 1, std::stoll(cex.value_of("M")));
  // The in-bounds access is proven.
  EXPECT_EQ(s.is_valid(ctx, bin(BinOpKind::Lt, var(i), var(m, ValueType::Size))), Validity::Valid);
}

// Unrelated variables stay out of the counterexample.
TEST(IndexSolver, CounterexampleKeepsOnlyRelatedVariables) {
  IndexSolver s;
  Sym n = Sym::fresh("n"), k = Sym::fresh("K");
  std::vector<Expr> ctx = {bin(BinOpKind::Ge, var(k, ValueType::Size), lit(1)),
                           bin(BinOpKind::Ge, var(n, ValueType::Size), lit(1))};
  Counterexample cex;
  ASSERT_EQ(s.is_valid(ctx, bin(BinOpKind::Ge, var(n, ValueType::Size), lit(2)), &cex),
            Validity::Invalid);
  EXPECT_EQ(cex.str(), "n = 1");
}

// Asserts are assumptions: `assert n % 4 == 0` makes n / 4 * 4 == n provable.
TEST(IndexSolver, AssertsAsAssumptions) {
  IndexSolver s;
  Sym n = Sym::fresh("n");
  Expr nv = var(n, ValueType::Size);
  Expr goal = bin(BinOpKind::Eq, bin(BinOpKind::Mul, bin(BinOpKind::Div, nv, lit(4)), lit(4)), nv);
  EXPECT_EQ(s.is_valid({}, goal), Validity::Invalid);
  Expr pre = bin(BinOpKind::Eq, bin(BinOpKind::Mod, nv, lit(4)), lit(0));
  EXPECT_EQ(s.is_valid({pre}, goal), Validity::Valid);
}

// Products of two unknowns and divisions by non-constants are outside the
// index language: the goal is Unknown, never silently Valid.
TEST(IndexSolver, NonAffineGoalIsUnknown) {
  IndexSolver s;
  Sym a = Sym::fresh("a"), b = Sym::fresh("b");
  Expr prod = bin(BinOpKind::Mul, var(a), var(b));
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Ge, prod, lit(0))), Validity::Unknown);
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Ge, bin(BinOpKind::Div, var(a), var(b)), lit(0))),
            Validity::Unknown);
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Ge, bin(BinOpKind::Div, var(a), lit(-2)), lit(0))),
            Validity::Unknown);
  std::string why;
  z3::expr out(s.ctx());
  EXPECT_FALSE(s.translate(prod, out, &why));
  EXPECT_EQ(why, "a product of two non-constants");
}

// Identical queries are answered from the cache.
TEST(IndexSolver, CachesQueries) {
  IndexSolver s;
  Sym i = Sym::fresh("i");
  Expr g = bin(BinOpKind::Le, var(i), bin(BinOpKind::Add, var(i), lit(1)));
  EXPECT_EQ(s.is_valid({}, g), Validity::Valid);
  EXPECT_EQ(s.is_valid({}, g), Validity::Valid);
  EXPECT_EQ(s.num_queries(), 2u);
  EXPECT_EQ(s.num_cache_hits(), 1u);
}

// One context and one cache per thread (a compilation): a second IndexSolver,
// as the next primitive step makes, gets the answer without asking Z3.
TEST(IndexSolver, CacheIsSharedAcrossSolvers) {
  Sym i = Sym::fresh("i");
  Expr g = bin(BinOpKind::Le, var(i), bin(BinOpKind::Add, var(i), lit(2)));
  IndexSolver first;
  EXPECT_EQ(first.is_valid({}, g), Validity::Valid);
  IndexSolver second;
  EXPECT_EQ(&first.ctx(), &second.ctx());
  size_t hits = IndexSolver::totals().cache_hits;
  EXPECT_EQ(second.is_valid({}, g), Validity::Valid);
  EXPECT_EQ(second.num_cache_hits(), 1u);
  EXPECT_EQ(IndexSolver::totals().cache_hits, hits + 1);
}

// The limit is Z3's resource count, not time: a query past it is Unknown, the
// same query under the default limit is answered, and the two answers are
// cached apart. The default leaves room: this small query uses a few units.
TEST(IndexSolver, ResourceLimitIsDeterministicAndPartOfTheQuestion) {
  EXPECT_EQ(IndexSolver::default_rlimit(), IndexSolver::kDefaultRlimit);
  Sym i = Sym::fresh("i");
  Expr g = bin(BinOpKind::Lt, bin(BinOpKind::Mod, var(i), lit(7)), lit(7));
  for (int run = 0; run < 2; ++run) {
    IndexSolver tiny;
    tiny.set_rlimit(1);
    EXPECT_EQ(tiny.is_valid({}, g), Validity::Unknown);
    EXPECT_NE(tiny.last_unknown_reason(), "");
  }
  IndexSolver normal;
  EXPECT_EQ(normal.is_valid({}, g), Validity::Valid);
  EXPECT_LT(IndexSolver::totals().max_rlimit_used, uint64_t{IndexSolver::kDefaultRlimit} / 10);
}

// Bindings substitute a term for a Sym (callee parameters at a call site).
TEST(IndexSolver, BindingsSubstitute) {
  IndexSolver s;
  Sym n = Sym::fresh("n"), m = Sym::fresh("M");
  s.bind(n, s.var(m) * 2);
  Expr even = bin(BinOpKind::Eq, bin(BinOpKind::Mod, var(n, ValueType::Size), lit(2)), lit(0));
  EXPECT_EQ(s.is_valid({}, even), Validity::Valid);
  s.unbind(n);
  EXPECT_EQ(s.is_valid({}, even), Validity::Invalid);
}

// min, max and select translate exactly.
TEST(IndexSolver, Builtins) {
  IndexSolver s;
  Sym a = Sym::fresh("a"), b = Sym::fresh("b");
  Expr mn = Call::make("min", {var(a), var(b)}, {});
  EXPECT_EQ(s.is_valid({}, bin(BinOpKind::Le, mn, var(a))), Validity::Valid);
  Expr sel = Call::make("select", {var(a), var(b), lit(1), lit(2)}, {});
  EXPECT_EQ(s.is_valid({bin(BinOpKind::Lt, var(a), var(b))}, bin(BinOpKind::Eq, sel, lit(1))),
            Validity::Valid);
}

TEST(IndexSolver, Satisfiability) {
  IndexSolver s;
  z3::expr x = s.var(Sym::fresh("x"));
  EXPECT_EQ(s.is_satisfiable({x > 3, x < 2}), Validity::Invalid);
  Counterexample model;
  EXPECT_EQ(s.is_satisfiable({x > 3, x < 5}, &model), Validity::Valid);
  EXPECT_EQ(model.str(), "x = 4");
}

} // namespace
} // namespace exgc::analysis
