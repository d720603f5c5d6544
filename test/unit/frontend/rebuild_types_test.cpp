// rebuild_types_test.cpp - rebuilt nodes carry the types a fresh build gives --//
// For every node kind in node_kinds.def: change the precision of every f32
// allocation of a program that holds every kind, rebuild every node of that
// kind (IRMutator plus `edited`), print the result, build the printed text
// afresh, and compare the type of every expression of the two trees, in
// walk order. A stale type (a Read that kept f32 under an f16 allocation, a
// BinOp that kept its operands' old type) fails here. The program must hold
// each kind, so a new kind added to node_kinds.def fails until it is covered.
#include <gtest/gtest.h>

#include <map>

#include "compiler/frontend/build.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"

using namespace exgc;

namespace {

const char *kProgram = R"(proc callee(n: size, dst: [f32][2] @ CudaRmem):
    pass

proc everything(n: size, flag: bool, a: f32, x: f32[n, 16] @ CudaGmemLinear, z: f32[n]):
    assert n % 16 == 0
    acc: f32
    acc = 0
    t: f32[4, 4] @ CudaRmem
    for i in seq(0, n, unroll=4):
        acc += x[i, 0] * -a + -2.5 - (a - (acc - 1.0))
        t[i % 4, 0] = select(i, n - 1, acc, max(a, min(acc, sqrt(relu(abs(t[0, 0]))))))
        if i == 0 and not flag or True:
            pass
        else:
            z[i] = t[0, 1] / 2.0 + acc
    v = t[0:4, 0]
    z[0] = v[1] * acc
    with CudaDeviceFunction(warps=[warp_role("producer", 1)], clusterDim=1):
        for task in cuda_tasks(0, n / 16):
            raw: barrier[n / 16 @ ring(4)] @ CudaMbarrier
            s: f32[4, 4] @ CudaSmemLinear
            Await(raw[task], cuda_temporal, 0)
            callee(2, s[0, 0:2]) >> raw[task]
            Arrive(cuda_in_order) >> raw[task]
            Fence(cuda_in_order, cuda_in_order)
            s[0, 0] = acc
)";

struct Built {
  SourceManager sm;
  DiagEngine diag{sm};
  std::optional<Module> m;
  Proc proc(const std::string &name) const { return m ? m->find_proc(name) : nullptr; }
};

std::unique_ptr<Built> build(const std::string &text) {
  auto b = std::make_unique<Built>();
  uint32_t f = b->sm.add("t.exg", text);
  b->m = parse_module(f, b->sm, b->diag);
  return b;
}

/// Every expression of a proc in walk order, with its kind and type, and how
/// many nodes of each kind it holds.
struct Census : IRVisitor {
  std::vector<std::pair<ExprKind, ValueType>> exprs;
  std::map<int, int> expr_kinds, stmt_kinds;
#define EXGC_EXPR(Name)                                                        \
  void visit_node(const Name *op) override {                                   \
    exprs.emplace_back(op->kind, op->type);                                    \
    ++expr_kinds[static_cast<int>(op->kind)];                                  \
    IRVisitor::visit_node(op);                                                 \
  }
#define EXGC_STMT(Name)                                                        \
  void visit_node(const Name *op) override {                                   \
    ++stmt_kinds[static_cast<int>(op->kind)];                                  \
    IRVisitor::visit_node(op);                                                 \
  }
#include "compiler/ir/node_kinds.def"
};

Census census(const ProcNode &p) {
  Census c;
  c.visit_proc(p);
  return c;
}

/// Makes every f32 allocation f16, as set_precision does, and rebuilds every
/// node of one kind (with nothing changed but what `edited` derives again).
struct Rewriter : IRMutator {
  std::optional<ExprKind> expr_kind;
  std::optional<StmtKind> stmt_kind;
#define EXGC_EXPR(Name)                                                        \
  Expr mutate_node(const Name *op, const Expr &self) override {                \
    Expr e = IRMutator::mutate_node(op, self);                                 \
    if (expr_kind != ExprKind::Name)                                           \
      return e;                                                                \
    return e.as<Name>()->edited([](Name &) {});                                \
  }
#define EXGC_STMT(Name)                                                        \
  Block mutate_node(const Name *op, const Stmt &self) override {               \
    Block r = IRMutator::mutate_node(op, self);                                \
    for (Stmt &s : r) {                                                        \
      if (const auto *a = s.as<Alloc>(); a && a->type.scalar == ValueType::F32 && \
                                         a->type.kind == Type::Kind::Data)     \
        s = a->edited([](Alloc &n) { n.type.scalar = ValueType::F16; });      \
      if (stmt_kind == s->kind)                                                \
        s = s.as<Name>() ? s.as<Name>()->edited([](Name &) {}) : s;            \
    }                                                                          \
    return r;                                                                  \
  }
#include "compiler/ir/node_kinds.def"
};

void expect_fresh_types(Rewriter &rw, const std::string &what) {
  auto b = build(kProgram);
  Proc p = b->proc("everything");
  ASSERT_TRUE(p) << what;
  Proc out = rw.mutate_proc(p);
  std::string text = print_proc(*b->proc("callee")) + "\n" + print_proc(*out);
  auto fresh = build(text);
  ASSERT_TRUE(fresh->proc("everything")) << what << "\n" << text;
  Census got = census(*out), want = census(*fresh->proc("everything"));
  ASSERT_EQ(got.exprs.size(), want.exprs.size()) << what << "\n" << text;
  for (size_t i = 0; i < got.exprs.size(); ++i) {
    EXPECT_EQ(got.exprs[i].first, want.exprs[i].first) << what << ", expression " << i;
    EXPECT_EQ(value_type_name(got.exprs[i].second), std::string(value_type_name(want.exprs[i].second)))
        << what << ", expression " << i << " of kind " << static_cast<int>(got.exprs[i].first) << "\n"
        << text;
  }
}

TEST(RebuildTypes, TheProgramHoldsEveryNodeKind) {
  auto b = build(kProgram);
  ASSERT_TRUE(b->proc("everything"));
  Census c = census(*b->proc("everything"));
#define EXGC_EXPR(Name)                                                        \
  EXPECT_GT(c.expr_kinds[static_cast<int>(ExprKind::Name)], 0) << #Name " is not covered";
#define EXGC_STMT(Name)                                                        \
  EXPECT_GT(c.stmt_kinds[static_cast<int>(StmtKind::Name)], 0) << #Name " is not covered";
#include "compiler/ir/node_kinds.def"
}

TEST(RebuildTypes, ThePrecisionChangeIsSeen) {
  // Without a forced rebuild, the reads of the changed allocations alone
  // must be rebuilt, and their parents with them.
  Rewriter rw;
  expect_fresh_types(rw, "precision change only");
  auto b = build(kProgram);
  Proc out = rw.mutate_proc(b->proc("everything"));
  EXPECT_NE(print_proc(*out).find("acc: f16"), std::string::npos);
}

TEST(RebuildTypes, EveryKindRebuiltKeepsFreshTypes) {
  auto each = [](auto set_kind, const char *name) {
    Rewriter rw;
    set_kind(rw);
    expect_fresh_types(rw, std::string("rebuilding every ") + name);
  };
#define EXGC_EXPR(Name) each([](Rewriter &rw) { rw.expr_kind = ExprKind::Name; }, #Name);
#define EXGC_STMT(Name) each([](Rewriter &rw) { rw.stmt_kind = StmtKind::Name; }, #Name);
#include "compiler/ir/node_kinds.def"
}

TEST(RebuildTypes, AStaleTypeIsCaught) {
  // The check has teeth: a Read that keeps its old type differs.
  auto b = build(kProgram);
  Proc p = b->proc("everything");
  Census before = census(*p);
  Rewriter rw;
  Census after = census(*rw.mutate_proc(p));
  ASSERT_EQ(before.exprs.size(), after.exprs.size());
  EXPECT_NE(before.exprs, after.exprs);
}

} // namespace
