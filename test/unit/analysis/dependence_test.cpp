// dependence_test.cpp - access summaries and the exact dependence queries.
#include "compiler/analysis/dependence.h"

#include <gtest/gtest.h>

#include "compiler/analysis/simplify.h"
#include "test/unit/ir_build.h"

namespace exgc::analysis {
namespace {

using namespace exgc::testing;

struct Fixture {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i");
  std::shared_ptr<ProcNode> proc = std::make_shared<ProcNode>();
  Fixture() {
    proc->name = "f";
    proc->args.push_back({n, Type::control(ValueType::Size, {}), {}});
    proc->args.push_back(
        {x, Type::data(ValueType::F32, {bin(BinOpKind::Add, var(n, ValueType::Size), lit(1))}, Expr(), false, {}), {}});
  }
  Expr nv() { return var(n, ValueType::Size); }
  Context ctx() {
    Context c;
    c.facts.push_back(bin(BinOpKind::Ge, nv(), lit(1)));
    return c;
  }
  // Is there a conflict between iteration i of `body` and a later iteration i' > i?
  Answer carried(const Block &body, Conflict *c) {
    proc->body = {For::make(i, lit(0), nv(), LoopMode{}, body)};
    IndexSolver s;
    DependenceAnalyzer dep(s);
    EffectCollector coll(*proc, nullptr);
    Effects e = coll.of(body);
    auto rel = [](const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) { return a[0] < b[0]; };
    return dep.conflict(ctx(), {{i, lit(0), nv()}}, e, e, rel, c);
  }
};

// x[i + 1] = x[i]: iteration i writes what iteration i + 1 reads.
TEST(Dependence, CarriedDependenceWithCounterexample) {
  Fixture f;
  Conflict c;
  Block body = {Assign::make(f.x, {bin(BinOpKind::Add, var(f.i), lit(1))}, rd(f.x, {var(f.i)}))};
  ASSERT_EQ(f.carried(body, &c), Answer::Conflict);
  EXPECT_EQ(c.first.buf, f.x);
  EXPECT_NE(c.cex.value_of("i"), "");
  EXPECT_NE(c.cex.value_of("i'"), "");
  int64_t a = std::stoll(c.cex.value_of("i")), b = std::stoll(c.cex.value_of("i'"));
  EXPECT_LT(a, b);
}

// x[i] = x[i] * 2: every iteration touches only its own element.
TEST(Dependence, IndependentIterations) {
  Fixture f;
  Conflict c;
  Block body = {Assign::make(f.x, {var(f.i)}, bin(BinOpKind::Mul, rd(f.x, {var(f.i)}), FloatImm::make(2.0)))};
  EXPECT_EQ(f.carried(body, &c), Answer::NoConflict);
}

// x[0] += ...: reductions into the same element commute with each other.
TEST(Dependence, ReductionsCommute) {
  Fixture f;
  Conflict c;
  Block body = {Reduce::make(f.x, {lit(0)}, FloatImm::make(1.0))};
  EXPECT_EQ(f.carried(body, &c), Answer::NoConflict);
  // ... but not with a read of that element.
  Block body2 = {Reduce::make(f.x, {lit(0)}, FloatImm::make(1.0)),
                 Assign::make(f.x, {bin(BinOpKind::Add, var(f.i), lit(1))}, rd(f.x, {lit(0)}))};
  EXPECT_EQ(f.carried(body2, &c), Answer::Conflict);
}

// Accesses through a window are in the root buffer's coordinates.
TEST(Dependence, WindowsResolveToTheirBuffer) {
  Fixture f;
  Sym w = Sym::fresh("w");
  Stmt win = WindowStmt::make(
      w, WindowExpr::make(f.x, {WindowIdx::slice(lit(1), bin(BinOpKind::Add, f.nv(), lit(1)))}, ValueType::F32),
      Expr());
  // w[i] = x[i]: w[i] is x[i + 1], so iteration i writes what i + 1 reads.
  Block body = {Assign::make(w, {var(f.i)}, rd(f.x, {var(f.i)}))};
  f.proc->body = {win, For::make(f.i, lit(0), f.nv(), LoopMode{}, body)};
  IndexSolver s;
  DependenceAnalyzer dep(s);
  EffectCollector coll(*f.proc, nullptr);
  Effects e = coll.of(body);
  ASSERT_EQ(e.accesses.size(), 2u);
  EXPECT_EQ(e.accesses[1].buf, f.x);
  auto rel = [](const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) { return a[0] < b[0]; };
  Conflict c;
  EXPECT_EQ(dep.conflict(f.ctx(), {{f.i, lit(0), f.nv()}}, e, e, rel, &c), Answer::Conflict);
}

// A call contributes its callee's accesses, with parameters bound to arguments.
TEST(Dependence, CallsUseTheCalleeBody) {
  Fixture f;
  Sym m = Sym::fresh("m"), y = Sym::fresh("y");
  auto callee = std::make_shared<ProcNode>();
  callee->name = "g";
  callee->args.push_back({m, Type::control(ValueType::Index, {}), {}});
  callee->args.push_back({y, Type::data(ValueType::F32, {lit(4)}, Expr(), true, {}), {}});
  callee->body = {Assign::make(y, {var(m)}, FloatImm::make(1.0))};
  // g(2, x[i:i + 4]) writes x[i + 2].
  Stmt call = CallStmt::make(
      "g", {lit(2), WindowExpr::make(f.x, {WindowIdx::slice(var(f.i), bin(BinOpKind::Add, var(f.i), lit(4)))}, ValueType::F32)},
      {}, {});
  EffectCollector coll(*f.proc, [&](const std::string &name) -> const ProcNode * {
    return name == "g" ? callee.get() : nullptr;
  });
  Effects e = coll.of(call);
  ASSERT_EQ(e.accesses.size(), 1u);
  EXPECT_EQ(e.accesses[0].kind, AccessKind::Write);
  IndexSolver s;
  DependenceAnalyzer dep(s);
  Context ctx = f.ctx();
  ctx.scopes.push_back(Scope{true, f.i, lit(0), f.nv(), Expr(), false});
  Effects r = coll.of_expr(rd(f.x, {bin(BinOpKind::Add, var(f.i), lit(2))}));
  Conflict c;
  EXPECT_EQ(dep.conflict(ctx, {}, e, r, nullptr, &c), Answer::Conflict);
  Effects r2 = coll.of_expr(rd(f.x, {bin(BinOpKind::Add, var(f.i), lit(1))}));
  EXPECT_EQ(dep.conflict(ctx, {}, e, r2, nullptr, &c), Answer::NoConflict);
}

// Sync statements and `with` have no sequential effect of their own.
TEST(Dependence, SyncHasNoEffect) {
  Fixture f;
  EffectCollector coll(*f.proc, nullptr);
  Effects e = coll.of(Block{Fence::make("cuda_in_order", "cuda_in_order"), Pass::make()});
  EXPECT_TRUE(e.accesses.empty());
}

// Buffers the blocks allocate are private to each run.
TEST(Dependence, PrivateAllocationsNeverConflict) {
  Fixture f;
  Sym t = Sym::fresh("t");
  Block body = {Alloc::make(t, Type::data(ValueType::F32, {}, Expr(), false, {})),
                Assign::make(t, {}, rd(f.x, {var(f.i)})), Assign::make(f.x, {var(f.i)}, rd(t, {}))};
  Conflict c;
  EXPECT_EQ(f.carried(body, &c), Answer::NoConflict);
}

// An answer Z3 cannot give is Unknown, never "no conflict".
TEST(Dependence, UnknownIsReported) {
  Fixture f;
  Block body = {Assign::make(f.x, {bin(BinOpKind::Add, var(f.i), lit(1))}, rd(f.x, {var(f.i)}))};
  f.proc->body = {For::make(f.i, lit(0), f.nv(), LoopMode{}, body)};
  IndexSolver s;
  s.set_rlimit(1);
  DependenceAnalyzer dep(s);
  EffectCollector coll(*f.proc, nullptr);
  Effects e = coll.of(body);
  auto rel = [](const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) { return a[0] < b[0]; };
  Conflict c;
  EXPECT_EQ(dep.conflict(f.ctx(), {{f.i, lit(0), f.nv()}}, e, e, rel, &c), Answer::Unknown);
}

TEST(Simplify, FoldsDecidedIfs) {
  Sym n = Sym::fresh("n"), i = Sym::fresh("i"), x = Sym::fresh("x");
  auto p = std::make_shared<ProcNode>();
  p->name = "f";
  p->args.push_back({n, Type::control(ValueType::Size, {}), {}});
  p->args.push_back({x, Type::data(ValueType::F32, {var(n, ValueType::Size)}, Expr(), false, {}), {}});
  Stmt inner = Assign::make(x, {var(i)}, FloatImm::make(1.0));
  p->body = {For::make(i, lit(0), var(n, ValueType::Size), LoopMode{},
                       {If::make(bin(BinOpKind::Lt, var(i), var(n, ValueType::Size)), {inner}, {})})};
  IndexSolver s;
  Proc out = simplify_proc(p, s);
  const auto *f = out->body[0].as<For>();
  ASSERT_TRUE(f);
  ASSERT_EQ(f->body.size(), 1u);
  EXPECT_TRUE(f->body[0].as<Assign>());
}

} // namespace
} // namespace exgc::analysis
