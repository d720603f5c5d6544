// effects_test.cpp - which buffer an access touches, through windows and calls.
#include "compiler/analysis/effects.h"

#include <gtest/gtest.h>

#include "test/unit/ir_build.h"

namespace exgc::analysis {
namespace {

using namespace exgc::testing;

Type tensor(int64_t n) { return Type::data(ValueType::F32, {lit(n)}, Expr(), false, {}); }
Type scalar() { return Type::data(ValueType::F32, {}, Expr(), false, {}); }

bool writes(const Effects &e, const Sym &buf) {
  for (const Access &a : e.accesses)
    if (a.buf == buf && a.kind != AccessKind::Read)
      return true;
  return false;
}

// w = y[0:1]; then w[0] reads y: the check "does this read y" must say yes.
TEST(Effects, TouchesThroughAWindow) {
  Sym y = Sym::fresh("y"), z = Sym::fresh("z"), w = Sym::fresh("w");
  ProcNode p;
  p.name = "f";
  p.args = {{y, tensor(1), {}}, {z, tensor(1), {}}};
  Stmt win = WindowStmt::make(w, WindowExpr::make(y, {WindowIdx::slice(lit(0), lit(1))}, ValueType::F32),
                              Expr());
  Stmt use = Assign::make(z, {lit(0)}, rd(w, {lit(0)}));
  p.body = {win, use};
  EffectCollector coll(p, nullptr);
  SrcLoc at;
  EXPECT_TRUE(coll.touches(rd(w, {lit(0)}), y, at));
  EXPECT_FALSE(coll.touches(rd(w, {lit(0)}), z, at));
  EXPECT_TRUE(coll.touches(Block{use}, y, at));
  EXPECT_EQ(coll.root_of(w), y);
}

// An unknown callee may write a data scalar passed by name (by pointer).
TEST(Effects, UnknownCalleeWritesScalarArguments) {
  Sym s = Sym::fresh("s");
  ProcNode p;
  p.name = "f";
  p.args = {{s, scalar(), {}}};
  Stmt call = CallStmt::make("g", {Var::make(s, ValueType::F32)}, {}, {});
  p.body = {call};
  EffectCollector coll(p, [](const std::string &) -> const ProcNode * { return nullptr; });
  EXPECT_TRUE(writes(coll.of(call), s));
}

// What a callee allocates is private to each call: two calls share no
// declaration, and the callee's buffer never shows as an access.
TEST(Effects, CalleeAllocationsArePrivateToTheCall) {
  Sym a = Sym::fresh("a"), t = Sym::fresh("t");
  auto g = std::make_shared<ProcNode>();
  g->name = "g";
  g->args = {{a, tensor(2), {}}};
  g->body = {Alloc::make(t, tensor(2)), Assign::make(t, {lit(0)}, rd(a, {lit(0)})),
             Assign::make(a, {lit(1)}, rd(t, {lit(0)}))};
  Sym x = Sym::fresh("x");
  ProcNode p;
  p.name = "f";
  p.args = {{x, tensor(2), {}}};
  Stmt c1 = CallStmt::make("g", {rd(x, {})}, {}, {}), c2 = CallStmt::make("g", {rd(x, {})}, {}, {});
  p.body = {c1, c2};
  EffectCollector coll(p, [g](const std::string &n) -> const ProcNode * { return n == "g" ? g.get() : nullptr; });
  Effects e1 = coll.of(c1), e2 = coll.of(c2);
  for (uint32_t d : e1.defs)
    EXPECT_FALSE(e2.mentioned.count(d));
  for (const Access &acc : e1.accesses)
    EXPECT_NE(acc.buf, t);
  EXPECT_TRUE(writes(e1, x)); // the callee's write of `a` is a write of x
}

} // namespace
} // namespace exgc::analysis
