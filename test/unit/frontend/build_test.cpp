// build_test.cpp - what parse_module guarantees the stages after it --------//
// Sym resolution (fresh bindings, innermost use, globals), the shapes of
// whole buffers, barrier references and descriptors, literal folding, the
// attrs / preds / body split, elif nesting, locations, and the script AST.
#include <gtest/gtest.h>

#include "compiler/frontend/build.h"
#include "compiler/ir/printer.h"

using namespace exgc;

namespace {

struct Built {
  SourceManager sm;
  DiagEngine diag{sm};
  std::optional<Module> m;
  Proc proc(size_t i = 0) const {
    size_t k = 0;
    for (const Decl &d : m->decls)
      if (const Proc *p = std::get_if<Proc>(&d))
        if (k++ == i)
          return *p;
    return nullptr;
  }
  std::string diags() const {
    std::string s;
    for (const Diagnostic &d : diag.diagnostics())
      s += std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message + "\n";
    return s;
  }
};

std::unique_ptr<Built> build(const std::string &text) {
  auto b = std::make_unique<Built>();
  uint32_t f = b->sm.add("t.exg", text);
  b->m = parse_module(f, b->sm, b->diag);
  return b;
}

} // namespace

TEST(Build, EachBindingIsFreshAndUsesResolveToTheInnermost) {
  auto b = build("proc f(n: size, x: f32[n]):\n"
                 "    for i in seq(0, n):\n"
                 "        for i in seq(0, i):\n"
                 "            x[i] = 0.0\n");
  ASSERT_TRUE(b->m) << b->diags();
  Proc p = b->proc();
  const Sym &n = p->args[0].name;
  const auto *outer = p->body[0].as<For>();
  const auto *inner = outer->body[0].as<For>();
  ASSERT_TRUE(outer && inner);
  EXPECT_NE(outer->iter.id, inner->iter.id);
  EXPECT_FALSE(outer->iter.is_global());
  EXPECT_EQ(outer->hi.as<Var>()->name, n);
  EXPECT_EQ(outer->hi->type, ValueType::Size);
  EXPECT_EQ(inner->hi.as<Var>()->name, outer->iter); // the bound sees the outer i
  const auto *a = inner->body[0].as<Assign>();
  EXPECT_EQ(a->buf, p->args[1].name);
  EXPECT_EQ(a->idx[0].as<Var>()->name, inner->iter); // the body sees the inner i
  EXPECT_EQ(a->idx[0]->type, ValueType::Index);
  EXPECT_EQ(a->rhs->type, ValueType::R);
}

TEST(Build, ArgumentTypesMayNameLaterArguments) {
  auto b = build("proc f(x: f32[n, 4] @ CudaGmemLinear, n: size):\n    pass\n");
  ASSERT_TRUE(b->m) << b->diags();
  Proc p = b->proc();
  EXPECT_EQ(p->args[0].type.shape[0].as<Var>()->name, p->args[1].name);
  EXPECT_EQ(print_type(p->args[0].type), "f32[n, 4] @ CudaGmemLinear");
}

TEST(Build, DescriptorsAreGlobalNamesOfTypeMeta) {
  auto b = build("proc f(n: size):\n"
                 "    with CudaDeviceFunction(blockDim=32):\n"
                 "        for t in cuda_threads(0, 32, unit=8 * cuda_thread):\n"
                 "            pass\n");
  ASSERT_TRUE(b->m) << b->diags();
  const auto *w = b->proc()->body[0].as<With>();
  const auto *ctx = w->ctx.as<Call>();
  ASSERT_TRUE(ctx);
  EXPECT_EQ(ctx->func, "CudaDeviceFunction");
  EXPECT_EQ(ctx->type, ValueType::Meta);
  EXPECT_EQ(ctx->kwargs[0].key, "blockDim");
  const auto *f = w->body[0].as<For>();
  EXPECT_EQ(f->mode.name, "cuda_threads");
  const Expr *unit = f->mode.kwarg("unit");
  ASSERT_TRUE(unit);
  const auto *mul = unit->as<BinOp>();
  const auto *u = mul->b.as<Var>();
  EXPECT_TRUE(u->name.is_global());
  EXPECT_EQ(u->name.name, "cuda_thread");
  EXPECT_EQ((*unit)->type, ValueType::Meta);
}

TEST(Build, WholeBuffersScalarsAndBarriers) {
  auto b = build("proc g(n: size, a: f32, x: f32[n]):\n    pass\n"
                 "proc f(n: size, a: f32, x: f32[n]):\n"
                 "    acc: f32\n"
                 "    acc = a\n"
                 "    raw: barrier[n] @ CudaMbarrier\n"
                 "    cs: barrier @ CudaClusterSync\n"
                 "    g(n, acc, x) >> raw[0] >> raw[1:]\n"
                 "    Arrive(cuda_in_order) >> cs\n"
                 "    Await(raw[n - 1], cuda_temporal, 0)\n"
                 "    Fence(cuda_in_order, wgmma_fence_1)\n");
  ASSERT_TRUE(b->m) << b->diags();
  Proc p = b->proc(1);
  const auto *assign = p->body[1].as<Assign>();
  EXPECT_TRUE(assign->idx.empty());
  EXPECT_EQ(assign->rhs.as<Var>()->name, p->args[1].name); // a scalar argument is a Var
  EXPECT_EQ(assign->rhs->type, ValueType::F32);
  const auto *call = p->body[4].as<CallStmt>();
  ASSERT_TRUE(call);
  EXPECT_EQ(call->callee, "g");
  const auto *acc = call->args[1].as<Read>(); // a scalar buffer is a Read
  ASSERT_TRUE(acc);
  EXPECT_TRUE(acc->idx.empty());
  const auto *whole = call->args[2].as<Read>(); // a whole tensor too
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->buf, p->args[2].name);
  EXPECT_EQ(whole->type, ValueType::F32);
  const Sym &raw = p->body[2].as<Alloc>()->name;
  ASSERT_EQ(call->barriers.size(), 2u);
  EXPECT_EQ(call->barriers[0].as<Read>()->buf, raw);
  EXPECT_EQ(call->barriers[0]->type, ValueType::Meta);
  EXPECT_EQ(call->barriers[1].as<WindowExpr>()->buf, raw);
  const auto *arrive = p->body[5].as<Arrive>();
  EXPECT_EQ(arrive->timeline, "cuda_in_order");
  EXPECT_EQ(arrive->barriers[0].as<Read>()->buf, p->body[3].as<Alloc>()->name);
  const auto *await = p->body[6].as<Await>();
  EXPECT_EQ(await->bar.as<Read>()->buf, raw);
  EXPECT_EQ(await->timeline, "cuda_temporal");
  const auto *fence = p->body[7].as<Fence>();
  EXPECT_EQ(fence->first, "cuda_in_order");
  EXPECT_EQ(fence->second, "wgmma_fence_1");
}

TEST(Build, BarrierRings) {
  auto b = build("proc f(K: size):\n"
                 "    war: barrier[2, ((K + 31) / 32 + 4) @ ring(4)] @ CudaMbarrier(pre_arrive=4)\n"
                 "    pass\n");
  ASSERT_TRUE(b->m) << b->diags();
  const Type &t = b->proc()->body[0].as<Alloc>()->type;
  EXPECT_EQ(t.kind, Type::Kind::Barrier);
  ASSERT_EQ(t.ring.size(), 2u);
  EXPECT_FALSE(t.ring[0]);
  EXPECT_EQ(t.ring[1].as<IntImm>()->value, 4);
  EXPECT_EQ(print_type(t), "barrier[2, ((K + 31) / 32 + 4) @ ring(4)] @ CudaMbarrier(pre_arrive=4)");
}

TEST(Build, WindowStatementsBindANewName) {
  auto b = build("proc f(n: size, A: f32[n, n] @ CudaGmemLinear):\n"
                 "    m = A[:, :] @ Sm90_tensorMap(128, 16, 4)\n"
                 "    row = A[0, 2:n]\n"
                 "    row[0] = m[1, 1]\n");
  ASSERT_TRUE(b->m) << b->diags();
  Proc p = b->proc();
  const auto *m = p->body[0].as<WindowStmt>();
  ASSERT_TRUE(m && m->mem);
  EXPECT_EQ(m->rhs.as<WindowExpr>()->rank(), 2u);
  const auto *row = p->body[1].as<WindowStmt>();
  ASSERT_TRUE(row && !row->mem);
  const auto *w = p->body[2].as<Assign>();
  EXPECT_EQ(w->buf, row->name);
  EXPECT_EQ(w->rhs.as<Read>()->buf, m->name);
  EXPECT_EQ(w->rhs->type, ValueType::F32);
}

TEST(Build, AttrsThenPredsThenBody) {
  auto b = build("instr i(N: size, D: [f32][N] @ CudaRmem):\n"
                 "    template: N\n"
                 "    collective: cuda_warpgroup\n"
                 "    distributed: D[cuda_thread]\n"
                 "    emit: \"f<{N}>({D});\"\n"
                 "    assert N % 8 == 0\n"
                 "    tmp: f32 @ CudaRmem\n"
                 "    for k in seq(0, N):\n"
                 "        D[k] = 0\n");
  ASSERT_TRUE(b->m) << b->diags();
  Proc p = b->proc();
  EXPECT_TRUE(p->is_instr);
  ASSERT_EQ(p->attrs.size(), 4u);
  EXPECT_EQ(p->attrs[0].values[0].as<Var>()->name, p->args[0].name);
  EXPECT_TRUE(p->attrs[1].values[0].as<Var>()->name.is_global());
  const auto *dist = p->attrs[2].values[0].as<Read>();
  EXPECT_EQ(dist->buf, p->args[1].name);
  EXPECT_EQ(p->attrs[3].values[0].as<StrImm>()->value, "f<{N}>({D});");
  ASSERT_EQ(p->preds.size(), 1u);
  ASSERT_EQ(p->body.size(), 2u); // an allocation with a type is not an attribute
  EXPECT_TRUE(p->body[0].as<Alloc>());
}

TEST(Build, LiteralsAndElif) {
  auto b = build("proc f(n: size, x: f32[n]):\n"
                 "    if n < 2:\n        x[0] = -1.5\n"
                 "    elif n < 4:\n        x[0] = -(2)\n"
                 "    else:\n        x[0] = -x[1]\n");
  ASSERT_TRUE(b->m) << b->diags();
  const auto *i = b->proc()->body[0].as<If>();
  EXPECT_EQ(i->then_body[0].as<Assign>()->rhs.as<FloatImm>()->value, -1.5);
  ASSERT_EQ(i->else_body.size(), 1u);
  const auto *elif = i->else_body[0].as<If>();
  ASSERT_TRUE(elif);
  EXPECT_EQ(elif->loc.line, 4u);
  EXPECT_EQ(elif->then_body[0].as<Assign>()->rhs.as<IntImm>()->value, -2);
  EXPECT_TRUE(elif->else_body[0].as<Assign>()->rhs.as<UnOp>());
}

TEST(Build, LocationsAreFirstTokens) {
  auto b = build("proc f(n: size, x: f32[n]):\n"
                 "    for i in seq(0, n, unroll=2):\n"
                 "        x[i] = (x[i] + 1.0) * 2.0\n");
  ASSERT_TRUE(b->m) << b->diags();
  Proc p = b->proc();
  EXPECT_EQ(p->loc.line, 1u);
  EXPECT_EQ(p->loc.col, 6u); // the name
  EXPECT_EQ(p->args[1].loc.col, 17u);
  const auto *f = p->body[0].as<For>();
  EXPECT_EQ(f->loc.col, 5u);
  EXPECT_EQ(f->mode.kwargs[0].loc.col, 24u);
  const auto *a = f->body[0].as<Assign>();
  EXPECT_EQ(a->loc.col, 9u);
  EXPECT_EQ(a->rhs->loc.col, 16u); // a binary operation: its left operand's first token
  EXPECT_EQ(a->rhs.as<BinOp>()->a->loc.col, 17u);
}

TEST(Build, ScriptAst) {
  auto b = build("proc f(n: size):\n    pass\n"
                 "def g(p, names):\n"
                 "    total = 0\n"
                 "    total += 2\n"
                 "    blk = p.find(\"for i in _: _\").body()[1:]\n"
                 "    if total > 1: return p\n"
                 "    elif not total: pass\n"
                 "    for nm in names:\n"
                 "        p = divide_loop(p, nm, 4, [nm + \"o\", nm + \"i\"], perfect=True)\n"
                 "    return p\n");
  ASSERT_TRUE(b->m) << b->diags();
  const auto *g = std::get_if<DefDecl>(&b->m->decls[1]);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->params, (std::vector<std::string>{"p", "names"}));
  EXPECT_EQ(print_script_block(g->body, 1),
            "    total = 0\n"
            "    total = total + 2\n"
            "    blk = p.find(\"for i in _: _\").body()[1:]\n"
            "    if total > 1:\n        return p\n"
            "    elif not total:\n        pass\n"
            "    for nm in names:\n"
            "        p = divide_loop(p, nm, 4, [nm + \"o\", nm + \"i\"], perfect=True)\n"
            "    return p\n");
}

TEST(Build, OneErrorPerDeclarationAndTheRestStillBuilt) {
  auto b = build("proc f(n: size):\n    x[0] = y\n    z = 1\n"
                 "proc g(n: size):\n    w = 2\n"
                 "proc h(n: size):\n    pass\n");
  EXPECT_FALSE(b->m);
  EXPECT_EQ(b->diags(), "2:5: 'x' is not declared here\n5:5: 'w' is not declared here\n");
}
