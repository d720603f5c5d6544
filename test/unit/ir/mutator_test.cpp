// mutator_test.cpp - unchanged trees keep their nodes ------------------------//
#include <gtest/gtest.h>

#include "compiler/ir/mutator.h"
#include "compiler/ir/visitor.h"

using namespace exgc;

namespace {

/// Replaces every use of one variable by an integer.
struct Substitute : IRMutator {
  Sym from;
  int64_t to;
  Expr mutate_node(const Var *op, const Expr &self) override {
    return op->name == from ? IntImm::make(to, op->loc) : self;
  }
};

struct CountReads : IRVisitor {
  int reads = 0;
  void visit_node(const Read *op) override {
    ++reads;
    IRVisitor::visit_node(op);
  }
};

Block sample(const Sym &i, const Sym &j, const Sym &x) {
  Expr ri = Var::make(i, ValueType::Index), rj = Var::make(j, ValueType::Index);
  Stmt inner = Reduce::make(x, {ri}, Read::make(x, {rj}, ValueType::F32));
  Stmt other = Assign::make(x, {IntImm::make(0)}, FloatImm::make(1.0));
  return {For::make(j, IntImm::make(0), IntImm::make(8), LoopMode{}, {inner}), other};
}

} // namespace

TEST(Mutator, NoChangeKeepsEveryHandle) {
  Sym i = Sym::fresh("i"), j = Sym::fresh("j"), x = Sym::fresh("x"), k = Sym::fresh("k");
  Block b = sample(i, j, x);
  Substitute s;
  s.from = k; // not used in b
  s.to = 3;
  Block out = s.mutate(b);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].same_as(b[0]));
  EXPECT_TRUE(out[1].same_as(b[1]));
}

TEST(Mutator, ChangeRebuildsOnlyThePath) {
  Sym i = Sym::fresh("i"), j = Sym::fresh("j"), x = Sym::fresh("x");
  Block b = sample(i, j, x);
  Substitute s;
  s.from = i;
  s.to = 3;
  Block out = s.mutate(b);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_FALSE(out[0].same_as(b[0]));
  EXPECT_EQ(out[0]->id, b[0]->id); // rebuilt, but the same statement
  EXPECT_TRUE(out[1].same_as(b[1])); // untouched sibling
  const auto *loop = out[0].as<For>();
  ASSERT_NE(loop, nullptr);
  const auto *red = loop->body[0].as<Reduce>();
  ASSERT_NE(red, nullptr);
  ASSERT_NE(red->idx[0].as<IntImm>(), nullptr);
  EXPECT_EQ(red->idx[0].as<IntImm>()->value, 3);
  // The rhs did not mention i: the same node is reused.
  EXPECT_TRUE(red->rhs.same_as(b[0].as<For>()->body[0].as<Reduce>()->rhs));
}

TEST(Mutator, ProcUnchangedIsSameProc) {
  auto p = std::make_shared<ProcNode>();
  p->name = "f";
  Sym i = Sym::fresh("i"), j = Sym::fresh("j"), x = Sym::fresh("x");
  p->body = sample(i, j, x);
  Proc proc = p;
  Substitute s;
  s.from = Sym::fresh("unused");
  s.to = 1;
  EXPECT_EQ(s.mutate_proc(proc), proc);
}

TEST(Visitor, VisitsNestedReads) {
  Sym i = Sym::fresh("i"), j = Sym::fresh("j"), x = Sym::fresh("x");
  CountReads c;
  c.visit(sample(i, j, x));
  EXPECT_EQ(c.reads, 1);
}
