// set_precision_types_test.cpp - a changed precision reaches every use ------//
// After set_precision, the reads of the buffer and the arithmetic over them
// carry the new type in the scheduled proc itself (IRMutator re-derives them),
// not only after the proc is printed and parsed again.
#include <gtest/gtest.h>

#include "compiler/ir/visitor.h"
#include "test/unit/schedule/run_script.h"

namespace exgc::schedule {
namespace {

/// The types of every read of buffer `name` and of every BinOp in a proc.
struct Types : IRVisitor {
  std::string name;
  std::vector<ValueType> reads, binops;
  void visit_node(const Read *op) override {
    if (op->buf.name == name)
      reads.push_back(op->type);
    IRVisitor::visit_node(op);
  }
  void visit_node(const BinOp *op) override {
    binops.push_back(op->type);
    IRVisitor::visit_node(op);
  }
};

TEST(SetPrecision, ReadsAndArithmeticTakeTheNewType) {
  auto r = run("proc f(n: size, x: f32[n], y: f32[n]):\n"
               "    for i in seq(0, n):\n"
               "        t: f32\n"
               "        t = x[i]\n"
               "        y[i] = t * t + t\n"
               "\n"
               "schedule g from f:\n"
               "    p = set_precision(p, \"t\", \"f16\")\n");
  ASSERT_TRUE(r->ok) << r->messages();
  Proc g = r->interp()->result("g");
  ASSERT_TRUE(g);
  Types t;
  t.name = "t";
  t.visit_proc(*g);
  ASSERT_EQ(t.reads.size(), 3u);
  for (ValueType v : t.reads)
    EXPECT_EQ(v, ValueType::F16);
  ASSERT_EQ(t.binops.size(), 2u); // t * t, then + t
  for (ValueType v : t.binops)
    EXPECT_EQ(v, ValueType::F16);
}

} // namespace
} // namespace exgc::schedule
