// backend_test.cpp - both backends on IR built in C++ ---------------------//
// Checks the shape of generated code for constructs whose .exg form is
// covered by lit tests too, plus what has no source form of its own: the
// order of kernel parameters, the ABI of written scalars, and diagnostics
// raised on IR a later pass could produce.
#include <gtest/gtest.h>

#include <sstream>

#include "compiler/codegen/cpp_backend.h"
#include "compiler/codegen/cuda_backend.h"
#include "test/unit/ir_build.h"

namespace exgc {
namespace {

using namespace exgc::testing;

SrcLoc at(uint32_t line, uint32_t col = 5) { return SrcLoc{0, line, col}; }
Expr idx(const Sym &s) { return Var::make(s, ValueType::Index); }
Expr sz(const Sym &s) { return Var::make(s, ValueType::Size); }
Arg size_arg(const Sym &s) { return Arg{s, Type::control(ValueType::Size, at(1)), at(1)}; }
Arg tensor_arg(const Sym &s, std::vector<Expr> shape, const char *mem = nullptr,
               bool window = false) {
  return Arg{s, Type::data(ValueType::F32, std::move(shape), mem ? global(mem) : Expr(), window,
                           at(1)),
             at(1)};
}

struct Fixture : ::testing::Test {
  SourceManager sources;
  DiagEngine diag{sources};
  Program program;
  Fixture() { program.modules.push_back(std::make_unique<LoadedModule>()); }
  Proc add(std::shared_ptr<ProcNode> p) {
    program.modules[0]->module.decls.push_back(Proc(p));
    program.modules[0]->scope[p->name] = p;
    return p;
  }
  std::string cpp(const Proc &p) {
    std::ostringstream os;
    EXPECT_TRUE(emit_cpp(program, {p}, os, diag));
    return os.str();
  }
  bool cuda(const Proc &p, std::string &cu, std::string &h) {
    std::ostringstream c, hh;
    bool ok = emit_cuda(program, {p}, "k.h", c, hh, diag);
    cu = c.str();
    h = hh.str();
    return ok;
  }
  bool has(DiagKind k) const {
    for (const Diagnostic &d : diag.diagnostics())
      if (d.kind == k)
        return true;
    return false;
  }
};

// scale(n, a, x): x[i] = a * x[i] + 1, a written back as 0 through a callee.
TEST_F(Fixture, WrittenScalarIsAPointerAndCalleesAreInternal) {
  Sym a = Sym::fresh("a");
  auto zero = std::make_shared<ProcNode>();
  zero->name = "zero";
  zero->args = {Arg{a, Type::data(ValueType::F32, {}, Expr(), false, at(1)), at(1)}};
  zero->body = {Assign::make(a, {}, lit(0), at(2))};
  add(zero);

  Sym n = Sym::fresh("n"), s = Sym::fresh("s"), x = Sym::fresh("x"), i = Sym::fresh("i");
  auto p = std::make_shared<ProcNode>();
  p->name = "scale";
  p->args = {size_arg(n), Arg{s, Type::data(ValueType::F32, {}, Expr(), false, at(1)), at(1)},
             tensor_arg(x, {sz(n)})};
  Expr rhs = bin(BinOpKind::Add, bin(BinOpKind::Mul, Var::make(s, ValueType::F32),
                                     Read::make(x, {idx(i)}, ValueType::F32)),
                 lit(1));
  p->body = {For::make(i, lit(0), sz(n), LoopMode{}, {Assign::make(x, {idx(i)}, rhs, at(3))}),
             CallStmt::make("zero", {Var::make(s, ValueType::F32)}, {}, {}, at(4))};
  std::string out = cpp(add(p));
  EXPECT_NE(out.find("int scale([[maybe_unused]] int64_t n, [[maybe_unused]] float *s, [[maybe_unused]] float *x)"), std::string::npos) << out;
  EXPECT_NE(out.find("x[i] = (*s) * x[i] + 1.0f;"), std::string::npos) << out;
  EXPECT_NE(out.find("if (int exg_rc = exg_impl::zero(&(*s))) return exg_rc;"), std::string::npos) << out;
  // Only the requested proc is extern "C".
  size_t ext = out.find("extern \"C\" {");
  ASSERT_NE(ext, std::string::npos);
  EXPECT_EQ(out.find("int zero(", ext), std::string::npos);
}

// An instruction's behavior is inlined with its parameters bound to the
// caller's window; R becomes the argument's type.
TEST_F(Fixture, InstructionBehaviorIsInlined) {
  Sym d = Sym::fresh("d"), k = Sym::fresh("k");
  auto instr = std::make_shared<ProcNode>();
  instr->name = "zero4";
  instr->is_instr = true;
  instr->args = {Arg{d, Type::data(ValueType::R, {lit(4)}, Expr(), true, at(1)), at(1)}};
  instr->body = {For::make(k, lit(0), lit(4), LoopMode{},
                           {Assign::make(d, {idx(k)}, lit(0), at(2))})};
  add(instr);
  Sym y = Sym::fresh("y"), j = Sym::fresh("j");
  auto p = std::make_shared<ProcNode>();
  p->name = "clear";
  p->args = {tensor_arg(y, {lit(8), lit(4)})};
  Expr win = WindowExpr::make(y, {WindowIdx::point(idx(j)), WindowIdx::slice(Expr(), Expr())},
                              ValueType::F32);
  p->body = {For::make(j, lit(0), lit(8), LoopMode{},
                       {CallStmt::make("zero4", {win}, {}, {}, at(5))})};
  std::string out = cpp(add(p));
  EXPECT_NE(out.find("// zero4 (instruction behavior)"), std::string::npos) << out;
  EXPECT_NE(out.find("(y + (j * 4))[k] = 0.0f;"), std::string::npos) << out;
}

// Kernel parameters are the host names the body uses, in order of first use.
TEST_F(Fixture, KernelCapturesWhatItUses) {
  Sym n = Sym::fresh("n"), a = Sym::fresh("a"), x = Sym::fresh("x"), t = Sym::fresh("t"),
      u = Sym::fresh("u");
  auto p = std::make_shared<ProcNode>();
  p->name = "fill";
  p->args = {size_arg(n), Arg{a, Type::data(ValueType::F32, {}, Expr(), false, at(1)), at(1)},
             tensor_arg(x, {sz(n)}, "CudaGmemLinear")};
  Expr e = bin(BinOpKind::Add, bin(BinOpKind::Mul, idx(t), lit(32)), idx(u));
  Stmt store = Assign::make(x, {e}, Var::make(a, ValueType::F32), at(6));
  LoopMode threads{"cuda_threads", {KwArg{"unit", global("cuda_thread"), at(5)}}};
  Stmt inner = For::make(u, lit(0), lit(32), threads, {store}, at(5));
  Stmt tasks = For::make(t, lit(0), bin(BinOpKind::Div, sz(n), lit(32)),
                         LoopMode{"cuda_tasks", {}}, {inner}, at(4));
  Expr ctx = Call::make("CudaDeviceFunction", {}, {KwArg{"blockDim", lit(64), at(3)}}, at(3));
  p->body = {With::make(ctx, {tasks}, at(3))};
  std::string cu, h;
  ASSERT_TRUE(cuda(add(p), cu, h));
  EXPECT_NE(h.find("cudaError_t fill(cudaStream_t stream, int64_t n, float a, float *x);"),
            std::string::npos)
      << h;
  EXPECT_NE(cu.find("fill_kernel0(int64_t exg_ntasks, int64_t exg_lo0, int64_t exg_n0, "
                    "float *x, float a)"),
            std::string::npos)
      << cu;
  EXPECT_NE(cu.find("if (exg_t < 32) {"), std::string::npos) << cu; // 32 of 64 threads
  // An offset into global memory is 64-bit from each name on (docs/abi.md).
  EXPECT_NE(cu.find("x[static_cast<int64_t>(t) * 32 + static_cast<int64_t>(u)] = a;"),
            std::string::npos)
      << cu;
  EXPECT_NE(cu.find("<<<exg_grid, 64, 0, exg_stream>>>(exg_ntasks, exg_lo, exg_n, x, a);"),
            std::string::npos)
      << cu;
}

TEST_F(Fixture, WarpWideStoreIsReported) {
  Sym x = Sym::fresh("x"), t = Sym::fresh("t"), w = Sym::fresh("w");
  auto p = std::make_shared<ProcNode>();
  p->name = "bad";
  p->args = {tensor_arg(x, {lit(64)}, "CudaGmemLinear")};
  LoopMode warps{"cuda_threads", {KwArg{"unit", global("cuda_warp"), at(5)}}};
  Stmt store = Assign::make(x, {idx(w)}, lit(1), at(6));
  Stmt loop = For::make(w, lit(0), lit(2), warps, {store}, at(5));
  Stmt tasks = For::make(t, lit(0), lit(1), LoopMode{"cuda_tasks", {}}, {loop}, at(4));
  Expr ctx = Call::make("CudaDeviceFunction", {}, {KwArg{"blockDim", lit(64), at(3)}}, at(3));
  p->body = {With::make(ctx, {tasks}, at(3))};
  std::string cu, h;
  EXPECT_FALSE(cuda(add(p), cu, h));
  EXPECT_TRUE(has(DiagKind::CollectiveWrite));
}

TEST_F(Fixture, HostStoreToDeviceMemoryIsReported) {
  Sym x = Sym::fresh("x");
  auto p = std::make_shared<ProcNode>();
  p->name = "bad";
  p->args = {tensor_arg(x, {lit(4)}, "CudaGmemLinear")};
  p->body = {Assign::make(x, {lit(0)}, lit(1), at(2))};
  std::string cu, h;
  EXPECT_FALSE(cuda(add(p), cu, h));
  EXPECT_TRUE(has(DiagKind::HostAccessesDeviceMemory));
  // The CPU reference has no memories: the same proc is fine there.
  EXPECT_NE(cpp(p).find("x[0] = 1.0f;"), std::string::npos);
}

TEST_F(Fixture, RecursionIsReported) {
  auto p = std::make_shared<ProcNode>();
  p->name = "loop";
  p->body = {CallStmt::make("loop", {}, {}, {}, at(2))};
  std::ostringstream os;
  EXPECT_FALSE(emit_cpp(program, {add(p)}, os, diag));
  EXPECT_TRUE(has(DiagKind::RecursiveCall));
}

} // namespace
} // namespace exgc
