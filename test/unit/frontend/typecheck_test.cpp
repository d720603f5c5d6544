// typecheck_test.cpp - typecheck and exact bounds checks on IR built by hand.
// The lit tests in test/lit/typecheck/ cover each diagnostic from source; these
// build IR directly so the checks can be tested apart from the parser.
#include "compiler/frontend/typecheck.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace exgc {
namespace {

SrcLoc at(uint32_t line, uint32_t col = 5) { return SrcLoc{1, line, col}; }
Expr lit(int64_t v) { return IntImm::make(v, at(90)); }
Expr v(const Sym &s, ValueType t = ValueType::Index) { return Var::make(s, t, at(91)); }
Expr bin(BinOpKind op, Expr a, Expr b, SrcLoc l = at(92)) { return BinOp::make(op, a, b, l); }
Expr rd(const Sym &s, std::vector<Expr> idx, SrcLoc l = at(93)) {
  return Read::make(s, std::move(idx), ValueType::F32, l);
}
Expr gmem() { return Var::make(Sym::global("CudaGmemLinear"), ValueType::Meta, at(94)); }

Arg size_arg(const Sym &s) { return Arg{s, Type::control(ValueType::Size, at(1)), at(1)}; }
Arg tensor_arg(const Sym &s, std::vector<Expr> shape, bool window = false) {
  return Arg{s, Type::data(ValueType::F32, std::move(shape), gmem(), window, at(1)), at(1)};
}

Stmt loop(const Sym &i, Expr lo, Expr hi, Block body, SrcLoc l = at(3)) {
  return For::make(i, lo, hi, LoopMode{}, std::move(body), l);
}

Proc make_proc(std::string name, std::vector<Arg> args, std::vector<Expr> preds, Block body,
               bool instr = false, std::vector<InstrAttr> attrs = {}) {
  auto p = std::make_shared<ProcNode>();
  p->name = std::move(name);
  p->args = std::move(args);
  p->preds = std::move(preds);
  p->body = std::move(body);
  p->is_instr = instr;
  p->attrs = std::move(attrs);
  p->loc = at(1, 1);
  return p;
}

struct Result {
  std::vector<Diagnostic> diags;
  bool ok;
  bool has(DiagKind k) const {
    return std::any_of(diags.begin(), diags.end(), [&](const Diagnostic &d) { return d.kind == k; });
  }
  const Diagnostic *first(DiagKind k) const {
    for (const Diagnostic &d : diags)
      if (d.kind == k)
        return &d;
    return nullptr;
  }
};

Result check(std::vector<Proc> procs) {
  SourceManager sm;
  sm.add("t.exg", std::string(100, '\n'));
  DiagEngine diag(sm);
  Program prog;
  auto lm = std::make_unique<LoadedModule>();
  for (const Proc &p : procs) {
    lm->module.decls.emplace_back(p);
    lm->scope[p->name] = p;
  }
  prog.modules.push_back(std::move(lm));
  bool ok = typecheck(prog, diag);
  return {diag.diagnostics(), ok};
}

// for i in seq(0, n): y[i] += x[i]
TEST(Typecheck, SaxpyPasses) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), y = Sym::fresh("y"), i = Sym::fresh("i");
  Proc p = make_proc("saxpy", {size_arg(n), tensor_arg(x, {v(n, ValueType::Size)}),
                               tensor_arg(y, {v(n, ValueType::Size)})},
                     {}, {loop(i, lit(0), v(n, ValueType::Size),
                               {Reduce::make(y, {v(i)}, rd(x, {v(i)}), at(4))})});
  Result r = check({p});
  EXPECT_TRUE(r.ok) << (r.diags.empty() ? "" : r.diags[0].message);
}

// x[i + 1] leaves x at i = n - 1: the counterexample names n and i.
TEST(Typecheck, OutOfBoundsWithCounterexample) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i");
  Expr idx = bin(BinOpKind::Add, v(i), lit(1), at(4, 11));
  Proc p = make_proc("shift", {size_arg(n), tensor_arg(x, {v(n, ValueType::Size)})}, {},
                     {loop(i, lit(0), v(n, ValueType::Size), {Assign::make(x, {idx}, lit(0), at(4))})});
  Result r = check({p});
  ASSERT_FALSE(r.ok);
  const Diagnostic *d = r.first(DiagKind::OutOfBounds);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->loc.col, 11u);
  EXPECT_EQ(d->message, "index 'i + 1' of 'x' may be out of bounds in dimension 0 (extent 'n')");
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_NE(d->notes[0].message.find("for example n = "), std::string::npos);
  EXPECT_NE(d->notes[0].message.find("i = "), std::string::npos);
}

// assert n % 4 == 0; for i in seq(0, n / 4): x[4 * i + 3] is in bounds only
// thanks to the assert.
TEST(Typecheck, AssertsMakeAccessesProvable) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i");
  Expr nv = v(n, ValueType::Size);
  auto body = [&] {
    return Block{loop(i, lit(0), bin(BinOpKind::Div, nv, lit(4)),
                      {Assign::make(x, {bin(BinOpKind::Add, bin(BinOpKind::Mul, lit(4), v(i)), lit(3))},
                                    lit(0), at(4))})};
  };
  Expr pred = bin(BinOpKind::Eq, bin(BinOpKind::Mod, nv, lit(4)), lit(0));
  EXPECT_TRUE(check({make_proc("a", {size_arg(n), tensor_arg(x, {nv})}, {pred}, body())}).ok);
  // Without the assert it holds too: floor division keeps 4 * (n / 4) <= n.
  EXPECT_TRUE(check({make_proc("b", {size_arg(n), tensor_arg(x, {nv})}, {}, body())}).ok);
  // With x of extent n - 1 it fails for n = 4.
  Expr small = bin(BinOpKind::Sub, nv, lit(1));
  Result r = check({make_proc("c", {size_arg(n), tensor_arg(x, {small})}, {pred}, body())});
  EXPECT_TRUE(r.has(DiagKind::OutOfBounds));
}

TEST(Typecheck, DataDecidesNoControlFlow) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x");
  Expr cond = bin(BinOpKind::Lt, rd(x, {lit(0)}, at(3, 8)), lit(0));
  Proc p = make_proc("p", {size_arg(n), tensor_arg(x, {v(n, ValueType::Size)})}, {},
                     {If::make(cond, {Pass::make(at(4))}, {}, at(3))});
  Result r = check({p});
  const Diagnostic *d = r.first(DiagKind::DataInControl);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->loc.col, 8u);
  EXPECT_EQ(d->message, "data value 'x[0]' used in a condition; data never decides control flow");
}

TEST(Typecheck, IndexValueIntoDataIsRejected) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i");
  Proc p = make_proc("p", {size_arg(n), tensor_arg(x, {v(n, ValueType::Size)})}, {},
                     {loop(i, lit(0), v(n, ValueType::Size), {Assign::make(x, {v(i)}, v(i), at(4))})});
  EXPECT_TRUE(check({p}).has(DiagKind::ControlInData));
}

TEST(Typecheck, NonAffineIndex) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i"), j = Sym::fresh("j");
  Expr nv = v(n, ValueType::Size);
  Proc p = make_proc("p", {size_arg(n), tensor_arg(x, {nv})}, {},
                     {loop(i, lit(0), nv, {loop(j, lit(0), nv,
                          {Assign::make(x, {bin(BinOpKind::Mul, v(i), v(j))}, lit(0), at(5))})})});
  Result r = check({p});
  EXPECT_TRUE(r.has(DiagKind::NonAffineIndex));
  EXPECT_FALSE(r.has(DiagKind::OutOfBounds)); // no bounds check on ill-typed procs
}

// A callee's asserts are checked at the call, with a counterexample.
TEST(Typecheck, PreconditionAtCallSite) {
  Sym m = Sym::fresh("m"), cn = Sym::fresh("n");
  Proc callee = make_proc("needs_even", {size_arg(cn)},
                          {bin(BinOpKind::Eq, bin(BinOpKind::Mod, v(cn, ValueType::Size), lit(2)), lit(0), at(2))},
                          {Pass::make(at(3))});
  Proc ok = make_proc("ok", {size_arg(m)}, {},
                      {CallStmt::make("needs_even", {bin(BinOpKind::Mul, lit(2), v(m, ValueType::Size))}, {}, {}, at(10))});
  Proc bad = make_proc("bad", {size_arg(m)}, {},
                       {CallStmt::make("needs_even", {v(m, ValueType::Size)}, {}, {}, at(12))});
  EXPECT_TRUE(check({callee, ok}).ok);
  Result r = check({callee, bad});
  const Diagnostic *d = r.first(DiagKind::PreconditionFailed);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->loc.line, 12u);
  ASSERT_EQ(d->notes.size(), 2u);
  EXPECT_EQ(d->notes[0].message.rfind("for example m = ", 0), 0u) << d->notes[0].message;
  EXPECT_EQ(d->notes[1].loc.line, 2u);
}

// A window that overhangs its tensor is accepted when every access of the
// callee's behavior through it is guarded (the GEMM epilogue), and refused otherwise.
TEST(Typecheck, WindowCheckedThroughBehavior) {
  Sym dst = Sym::fresh("dst"), end = Sym::fresh("end"), k = Sym::fresh("k");
  auto store = [&](bool guarded) {
    Stmt w = Assign::make(dst, {v(k)}, lit(0), at(4));
    Block body = guarded ? Block{If::make(bin(BinOpKind::Lt, v(k), v(end)), {w}, {}, at(3))} : Block{w};
    return make_proc("store8", {tensor_arg(dst, {lit(8)}, true),
                                Arg{end, Type::control(ValueType::Index, at(1)), at(1)}},
                     {}, {loop(k, lit(0), lit(8), body, at(2))}, true);
  };
  Sym n = Sym::fresh("N"), c = Sym::fresh("C"), t = Sym::fresh("t");
  Expr nv = v(n, ValueType::Size);
  Expr lo = bin(BinOpKind::Mul, lit(8), v(t));
  Expr win = WindowExpr::make(c, {WindowIdx::slice(lo, bin(BinOpKind::Add, lo, lit(8)))},
                              ValueType::F32, at(20, 16));
  Proc caller = make_proc("caller", {size_arg(n), tensor_arg(c, {nv})}, {},
                          {loop(t, lit(0), bin(BinOpKind::Div, bin(BinOpKind::Add, nv, lit(7)), lit(8)),
                                {CallStmt::make("store8", {win, bin(BinOpKind::Sub, nv, lo)}, {}, {}, at(20))})});
  Result good = check({store(true), caller});
  EXPECT_TRUE(good.ok) << (good.diags.empty() ? "" : good.diags[0].message);
  Result bad = check({store(false), caller});
  const Diagnostic *d = bad.first(DiagKind::WindowOutOfBounds);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->loc.col, 16u);
  ASSERT_GE(d->notes.size(), 1u);
  EXPECT_EQ(d->notes[0].loc.line, 4u); // the callee's access
}

TEST(Typecheck, UnknownMemory) {
  Sym x = Sym::fresh("x");
  Expr mem = Var::make(Sym::global("CudaSmem"), ValueType::Meta, at(2, 20));
  Proc p = make_proc("p", {}, {}, {Alloc::make(x, Type::data(ValueType::F32, {lit(4)}, mem, false, at(2)), at(2))});
  Result r = check({p}); // d points into r.diags: r must outlive it
  const Diagnostic *d = r.first(DiagKind::UnknownMemory);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->loc.col, 20u);
}

} // namespace
} // namespace exgc
