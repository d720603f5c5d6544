// fold_test.cpp - the one constant folder: floor division, checked overflow -//
#include <gtest/gtest.h>

#include <cstdint>

#include "compiler/ir/fold.h"
#include "test/unit/ir_build.h"

using namespace exgc;
using namespace exgc::testing;

namespace {

Expr neg(Expr a) { return UnOp::make(UnOpKind::Neg, std::move(a)); }
Expr size_var(const char *name) { return Var::make(Sym::fresh(name), ValueType::Size); }

TEST(ConstInt, FoldsIndexArithmeticWithFloorSemantics) {
  int64_t v = 0;
  EXPECT_TRUE(const_int(bin(BinOpKind::Div, lit(-7), lit(2)), v));
  EXPECT_EQ(v, -4);
  EXPECT_TRUE(const_int(bin(BinOpKind::Mod, lit(-7), lit(2)), v));
  EXPECT_EQ(v, 1);
  EXPECT_TRUE(const_int(neg(bin(BinOpKind::Sub, lit(3), lit(10))), v));
  EXPECT_EQ(v, 7);
  EXPECT_FALSE(const_int(size_var("n"), v));
  // Never folds division by a non-positive constant (the language forbids it).
  EXPECT_FALSE(const_int(bin(BinOpKind::Div, lit(7), lit(0)), v));
  EXPECT_FALSE(const_int(bin(BinOpKind::Mod, lit(7), lit(-2)), v));
}

TEST(ConstInt, LargeValuesFoldWhileInsideInt64) {
  int64_t v = 0;
  // 2^40 * 2^20: beyond int32, inside int64, computed exactly.
  EXPECT_TRUE(const_int(bin(BinOpKind::Mul, lit(int64_t(1) << 40), lit(int64_t(1) << 20)), v));
  EXPECT_EQ(v, int64_t(1) << 60);
  EXPECT_TRUE(const_int(bin(BinOpKind::Add, lit(INT64_MAX - 1), lit(1)), v));
  EXPECT_EQ(v, INT64_MAX);
}

TEST(ConstInt, AStepLeavingInt64IsNotAConstant) {
  int64_t v = 0;
  EXPECT_FALSE(const_int(bin(BinOpKind::Add, lit(INT64_MAX), lit(1)), v));
  EXPECT_FALSE(const_int(bin(BinOpKind::Sub, lit(INT64_MIN), lit(1)), v));
  EXPECT_FALSE(const_int(bin(BinOpKind::Mul, lit(int64_t(1) << 32), lit(int64_t(1) << 31)), v));
  EXPECT_FALSE(const_int(neg(lit(INT64_MIN)), v));
  // An overflow inside is not hidden by a later step that would bring the value back.
  EXPECT_FALSE(const_int(bin(BinOpKind::Sub, bin(BinOpKind::Add, lit(INT64_MAX), lit(1)), lit(1)), v));
}

TEST(ConstantFolder, FoldsControlArithmetic) {
  Expr x = size_var("x");
  Expr s = fold_constants(bin(BinOpKind::Add, bin(BinOpKind::Add, bin(BinOpKind::Mul, lit(1), x), lit(2)),
                              lit(3)));
  const auto *b = s.as<BinOp>();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->op, BinOpKind::Add);
  EXPECT_TRUE(b->a.same_as(x));
  ASSERT_TRUE(b->b.as<IntImm>());
  EXPECT_EQ(b->b.as<IntImm>()->value, 5);
  EXPECT_EQ(fold_constants(bin(BinOpKind::Mod, lit(-7), lit(2))).as<IntImm>()->value, 1);
  EXPECT_EQ(fold_constants(bin(BinOpKind::Div, lit(-7), lit(2))).as<IntImm>()->value, -4);
  EXPECT_EQ(fold_constants(bin(BinOpKind::Lt, lit(2), lit(3))).as<BoolImm>()->value, true);
}

TEST(ConstantFolder, LeavesAnOverflowingStepAsWritten) {
  Expr e = bin(BinOpKind::Add, lit(INT64_MAX), lit(1));
  EXPECT_TRUE(fold_constants(e).same_as(e));
  Expr x = size_var("x");
  // (x + MAX) + 1: the gathered constant would leave int64.
  Expr sum = bin(BinOpKind::Add, bin(BinOpKind::Add, x, lit(INT64_MAX)), lit(1));
  EXPECT_TRUE(fold_constants(sum).same_as(sum));
}

TEST(ConstantFolder, LeavesDataArithmeticAlone) {
  Expr d = Var::make(Sym::fresh("d"), ValueType::F32);
  Expr e = bin(BinOpKind::Mul, d, lit(1));
  EXPECT_TRUE(fold_constants(e).same_as(e));
}

} // namespace
