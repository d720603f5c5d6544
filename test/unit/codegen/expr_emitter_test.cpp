// expr_emitter_test.cpp - C++ text of expressions ---------------------------//
// Parentheses appear exactly where C++ precedence needs them, index division
// is floor division, and data arithmetic happens in the stored type.
#include "compiler/codegen/expr_emitter.h"

#include <gtest/gtest.h>

#include "compiler/support/source_manager.h"

namespace exgc::codegen {
namespace {

struct ExprFixture : ::testing::Test {
  SourceManager sources;
  DiagEngine diag{sources};
  Env env;
  ExprEmitter ex{env, diag, "C++"};
  Sym a = Sym::fresh("a"), b = Sym::fresh("b"), c = Sym::fresh("c"), x = Sym::fresh("x");
  ExprFixture() {
    for (const Sym &s : {a, b, c}) {
      CxxBinding v;
      v.sym = s;
      v.type = ValueType::Index;
      v.ctype = "int64_t";
      v.expr = s.name;
      env.bind(s, v);
    }
    CxxBinding t;
    t.kind = CxxBinding::Kind::View;
    t.sym = x;
    t.ctype = "float";
    t.expr = "x";
    t.strides = {"8", "1"};
    env.bind(x, t);
  }
  Expr v(const Sym &s) { return Var::make(s, ValueType::Index); }
  Expr bin(BinOpKind k, Expr l, Expr r) { return BinOp::make(k, std::move(l), std::move(r)); }
  Expr rd(Expr i, Expr j) { return Read::make(x, {std::move(i), std::move(j)}, ValueType::F32); }
};

TEST_F(ExprFixture, ParenthesizesOnlyWhereNeeded) {
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Add, bin(BinOpKind::Mul, v(a), v(b)), v(c))), "a * b + c");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Mul, bin(BinOpKind::Add, v(a), v(b)), v(c))), "(a + b) * c");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Sub, v(a), bin(BinOpKind::Sub, v(b), v(c)))), "a - (b - c)");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Sub, bin(BinOpKind::Sub, v(a), v(b)), v(c))), "a - b - c");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Lt, bin(BinOpKind::Add, v(a), v(b)), v(c))), "a + b < c");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Or, bin(BinOpKind::And, bin(BinOpKind::Eq, v(a), v(b)),
                                          bin(BinOpKind::Eq, v(b), v(c))),
                        bin(BinOpKind::Lt, v(a), v(c)))),
            "a == b && b == c || a < c");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::And, v(a),
                        bin(BinOpKind::Or, bin(BinOpKind::Lt, v(a), v(b)), v(c)))),
            "a && (a < b || c)");
  EXPECT_FALSE(ex.failed());
}

TEST_F(ExprFixture, IndexDivisionIsFloorDivision) {
  Expr e = bin(BinOpKind::Add, bin(BinOpKind::Div, bin(BinOpKind::Sub, v(a), IntImm::make(5)),
                                   IntImm::make(2)),
               bin(BinOpKind::Mod, v(b), IntImm::make(4)));
  EXPECT_EQ(ex.ctrl(e), "exg_floordiv(a - 5, 2) + exg_floormod(b, 4)");
}

TEST_F(ExprFixture, DataArithmeticIsInTheStoredType) {
  // Float sums keep their association: x[a, b] + (x[b, a] + 2) is not reassociated.
  Expr e = bin(BinOpKind::Add, rd(v(a), v(b)),
               bin(BinOpKind::Add, rd(v(b), v(a)), IntImm::make(2)));
  EXPECT_EQ(ex.data(e, "float"), "x[a * 8 + b] + (x[b * 8 + a] + 2.0f)");
  EXPECT_EQ(ex.data(e, "double"),
            "static_cast<double>(x[a * 8 + b]) + (static_cast<double>(x[b * 8 + a]) + 2.0)");
  // An index used as data is converted.
  EXPECT_EQ(ex.data(bin(BinOpKind::Mul, rd(v(a), v(b)), v(c)), "float"),
            "x[a * 8 + b] * static_cast<float>(c)");
}

TEST_F(ExprFixture, BuiltinsTakeTheirType) {
  Expr m = Call::make("max", {rd(v(a), v(b)), IntImm::make(0)}, {});
  EXPECT_EQ(ex.data(m, "float"), "exg_max<float>(x[a * 8 + b], 0.0f)");
  Expr s = Call::make("select", {v(a), v(b), rd(v(a), v(b)), FloatImm::make(1.5)}, {});
  EXPECT_EQ(ex.data(s, "float"), "(a < b ? x[a * 8 + b] : 1.5f)");
  Expr st = Call::make("stride", {Var::make(x, ValueType::F32), IntImm::make(0)}, {});
  EXPECT_EQ(ex.ctrl(st), "8");
}

TEST_F(ExprFixture, UnknownBuiltinIsReported) {
  Expr e = Call::make("sinh", {rd(v(a), v(b))}, {});
  ex.data(e, "float");
  EXPECT_TRUE(ex.failed());
  ASSERT_EQ(diag.diagnostics().size(), 1u);
  EXPECT_EQ(diag.diagnostics()[0].kind, DiagKind::CodegenNotSupported);
}

} // namespace
} // namespace exgc::codegen
