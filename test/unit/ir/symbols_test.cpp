// symbols_test.cpp - ProcSymbols finds every declaration of a proc ----------//
#include "compiler/ir/symbols.h"

#include <gtest/gtest.h>

using namespace exgc;

namespace {

TEST(ProcSymbols, FindsArgumentsAllocationsWindowsAndIterators) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i"), t = Sym::fresh("t"),
      w = Sym::fresh("w");
  auto p = std::make_shared<ProcNode>();
  p->name = "f";
  Expr vn = Var::make(n, ValueType::Size), vi = Var::make(i, ValueType::Index);
  p->args = {Arg{n, Type::control(ValueType::Size, {}), {}},
             Arg{x, Type::data(ValueType::F32, {vn}, Expr(), false, {}), {}}};
  Stmt alloc = Alloc::make(t, Type::data(ValueType::F16, {IntImm::make(4)}, Expr(), false, {}));
  Stmt win = WindowStmt::make(
      w, WindowExpr::make(t, {WindowIdx::slice(Expr(), Expr())}, ValueType::F16), Expr());
  Stmt store = Assign::make(x, {vi}, Read::make(w, {IntImm::make(0)}, ValueType::F16));
  p->body = {For::make(i, IntImm::make(0), vn, LoopMode{}, {alloc, win, store})};
  ProcSymbols syms(*p);

  ASSERT_TRUE(syms.find(n));
  EXPECT_EQ(syms.find(n)->kind, SymDecl::Kind::Arg);
  EXPECT_EQ(syms.find(n)->elem, ValueType::Size);
  EXPECT_EQ(syms.type_of(x)->shape.size(), 1u);
  ASSERT_TRUE(syms.find(t));
  EXPECT_EQ(syms.find(t)->kind, SymDecl::Kind::Alloc);
  EXPECT_EQ(syms.find(t)->elem, ValueType::F16);
  ASSERT_TRUE(syms.find(w));
  EXPECT_EQ(syms.find(w)->kind, SymDecl::Kind::Window);
  EXPECT_EQ(syms.find(w)->elem, ValueType::F16);
  EXPECT_EQ(syms.type_of(w), nullptr); // a window has no Type of its own
  EXPECT_EQ(syms.find(i)->elem, ValueType::Index);
  EXPECT_EQ(syms.find(std::string("t")), syms.find(t));
  EXPECT_EQ(syms.find(Sym::global("CudaGmemLinear")), nullptr);
  EXPECT_EQ(syms.find(Sym::fresh("t")), nullptr); // same name, another binding
}

} // namespace
