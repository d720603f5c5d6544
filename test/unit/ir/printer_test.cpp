// printer_test.cpp - canonical text of IR built through make() --------------//
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "test/unit/ir_build.h"

using namespace exgc;
using namespace exgc::testing;

TEST(Printer, ParenthesizesOnlyWhereNeeded) {
  Sym a = Sym::fresh("a"), b = Sym::fresh("b"), c = Sym::fresh("c");
  // (a + b) * c, a + b * c, a - (b - c), (a - b) - c
  EXPECT_EQ(print_expr(BinOp::make(BinOpKind::Mul, BinOp::make(BinOpKind::Add, var(a), var(b)), var(c))),
            "(a + b) * c");
  EXPECT_EQ(print_expr(BinOp::make(BinOpKind::Add, var(a), BinOp::make(BinOpKind::Mul, var(b), var(c)))),
            "a + b * c");
  EXPECT_EQ(print_expr(BinOp::make(BinOpKind::Sub, var(a), BinOp::make(BinOpKind::Sub, var(b), var(c)))),
            "a - (b - c)");
  EXPECT_EQ(print_expr(BinOp::make(BinOpKind::Sub, BinOp::make(BinOpKind::Sub, var(a), var(b)), var(c))),
            "a - b - c");
  // Floor division binds like *: (a + 31) / 32.
  EXPECT_EQ(print_expr(BinOp::make(BinOpKind::Div, BinOp::make(BinOpKind::Add, var(a), lit(31)), lit(32))),
            "(a + 31) / 32");
  // not binds looser than comparisons, tighter than and.
  Expr cmp = BinOp::make(BinOpKind::Lt, var(a), var(b));
  EXPECT_EQ(print_expr(BinOp::make(BinOpKind::And, UnOp::make(UnOpKind::Not, cmp), cmp)),
            "not a < b and a < b");
  EXPECT_EQ(print_expr(UnOp::make(UnOpKind::Neg, BinOp::make(BinOpKind::Add, var(a), var(b)))),
            "-(a + b)");
}

TEST(Printer, FloatsStayFloats) {
  EXPECT_EQ(print_expr(FloatImm::make(1.0)), "1.0");
  EXPECT_EQ(print_expr(FloatImm::make(0.1)), "0.1");
  EXPECT_EQ(print_expr(FloatImm::make(1e30)), "1e+30");
}

TEST(Printer, ProcWithTypesLoopsAndSync) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i"), bar = Sym::fresh("raw");
  Expr mem = Var::make(Sym::global("CudaGmemLinear"), ValueType::Meta);
  auto p = std::make_shared<ProcNode>();
  p->name = "k";
  p->args = {{n, Type::control(ValueType::Size, {}), {}},
             {x, Type::data(ValueType::F32, {var(n, ValueType::Size)}, mem, false, {}), {}}};
  p->preds = {BinOp::make(BinOpKind::Eq, BinOp::make(BinOpKind::Mod, var(n, ValueType::Size), lit(4)), lit(0))};
  Expr ring = lit(4);
  Stmt alloc = Alloc::make(bar, Type::barrier({var(n, ValueType::Size)}, {ring},
                                              Var::make(Sym::global("CudaMbarrier"), ValueType::Meta), {}));
  LoopMode seq;
  seq.kwargs.push_back({"unroll", lit(4), {}});
  Stmt body = Assign::make(x, {var(i)}, FloatImm::make(0.5));
  Stmt arrive = Arrive::make("cuda_temporal", {Read::make(bar, {var(i)}, ValueType::Meta)});
  p->body = {alloc, For::make(i, lit(0), var(n, ValueType::Size), seq, {body, arrive}),
             If::make(BoolImm::make(true), {}, {If::make(BoolImm::make(false), {Pass::make()}, {Pass::make()})})};
  EXPECT_EQ(print_proc(*p), "proc k(n: size, x: f32[n] @ CudaGmemLinear):\n"
                            "    assert n % 4 == 0\n"
                            "    raw: barrier[(n) @ ring(4)] @ CudaMbarrier\n"
                            "    for i in seq(0, n, unroll=4):\n"
                            "        x[i] = 0.5\n"
                            "        Arrive(cuda_temporal) >> raw[i]\n"
                            "    if True:\n"
                            "        pass\n"
                            "    elif False:\n"
                            "        pass\n"
                            "    else:\n"
                            "        pass\n");
}

TEST(Printer, ScriptsAndModules) {
  using namespace exgc::script;
  Module m;
  m.decls.push_back(ImportDecl{{"cuda", "sm90a"}, "sm90", {}});
  ScheduleDecl s;
  s.name = "g2";
  s.from = "g";
  script::Expr find = call(attr(name("p"), "find"), {str_lit("for k in _: _")}, {});
  s.body = {assign("c", index(call(attr(find, "body"), {}, {}), slice(int_lit(0), int_lit(4)))),
            assign("p", call(name("divide_loop"), {name("p"), str_lit("m"), int_lit(4)},
                             {{"perfect", bool_lit(true), {}}})),
            if_stmt(binop("==", binop("+", int_lit(1), int_lit(2)), int_lit(3)), {pass_stmt()}, {})};
  m.decls.push_back(s);
  m.decls.push_back(ExportDecl{{"a", "b"}, {{}, {}}, {}});
  EXPECT_EQ(print_module(m), "import cuda.sm90a as sm90\n"
                             "\n"
                             "schedule g2 from g:\n"
                             "    c = p.find(\"for k in _: _\").body()[0:4]\n"
                             "    p = divide_loop(p, \"m\", 4, perfect=True)\n"
                             "    if 1 + 2 == 3:\n"
                             "        pass\n"
                             "\n"
                             "export a, b\n");
}
