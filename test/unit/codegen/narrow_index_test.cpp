// narrow_index_test.cpp - kernel index arithmetic in 32 bits where it fits.
// The texts the CUDA backend writes under narrow_index, and an attack: random
// control expressions over names of random intervals, compiled with UBSan
// (signed overflow aborts) and run at the intervals' corners and inside,
// must compute exactly what the language's unbounded integers do.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "compiler/codegen/expr_emitter.h"
#include "compiler/codegen/prelude.h"
#include "compiler/support/source_manager.h"
#include "test/unit/index_eval.h"

namespace exgc::codegen {
namespace {

using analysis::IndexRange;

struct NarrowFixture : ::testing::Test {
  SourceManager sources;
  DiagEngine diag{sources};
  Env env;
  ExprEmitter ex{env, diag, "CUDA"};
  std::vector<Sym> syms{Sym::fresh("i"), Sym::fresh("n"), Sym::fresh("d")};
  std::vector<IndexRange> ranges;
  NarrowFixture() { ex.narrow_index = true; }
  /// Binds each name with its interval: int32_t when it fits, as kernels do.
  void bind(std::vector<IndexRange> rs) {
    ranges = std::move(rs);
    env = Env();
    for (size_t k = 0; k < syms.size(); ++k) {
      CxxBinding b;
      b.sym = syms[k];
      b.type = ValueType::Index;
      b.range = ranges[k];
      b.ctype = analysis::fits_int32(ranges[k]) ? "int32_t" : "int64_t";
      b.expr = syms[k].name;
      env.bind(syms[k], b);
    }
  }
  Expr v(size_t k) { return Var::make(syms[k], ValueType::Index); }
};

Expr c(int64_t v) { return IntImm::make(v); }
Expr bin(BinOpKind k, Expr l, Expr r) { return BinOp::make(k, std::move(l), std::move(r)); }

TEST_F(NarrowFixture, FitsIn32BitsOrWidensWhereItMayNot) {
  // i: a tile row below 2^24, n: a size, d: an index argument (64-bit).
  bind({{0, (int64_t(1) << 24) - 1}, {1, INT32_MAX}, {-(int64_t(1) << 40), int64_t(1) << 40}});
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Add, bin(BinOpKind::Mul, v(0), c(128)), c(127))), "i * 128 + 127");
  // i * n may pass 2^31: computed in 64 bits from i on.
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Mul, v(0), v(1))), "static_cast<int64_t>(i) * n");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Add, v(1), c(31))), "static_cast<int64_t>(n) + 31");
  // (n + 31) / 32 fits again: C's division (dividend >= 0), back to 32 bits.
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Div, bin(BinOpKind::Add, v(1), c(31)), c(32))),
            "static_cast<int32_t>((static_cast<int64_t>(n) + 31) / 32)");
  // A dividend that may be negative keeps the floor helper.
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Div, v(2), c(4))), "exg_floordiv(d, 4)");
  // Its remainder lies in [0, 3]: 32 bits again.
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Mod, bin(BinOpKind::Sub, v(0), c(1)), c(4))),
            "static_cast<int32_t>(exg_floormod(i - 1, 4))");
  EXPECT_EQ(ex.ctrl(Call::make("min", {v(0), v(1)}, {})), "exg_min<int32_t>(i, n)");
  EXPECT_EQ(ex.ctrl(Call::make("max", {v(0), v(2)}, {})), "exg_max<int64_t>(i, d)");
  // Offsets into global memory: every name 64-bit, one induction variable.
  EXPECT_EQ(ex.ctrl_wide(bin(BinOpKind::Add, bin(BinOpKind::Mul, c(32), v(0)), v(1))),
            "32 * static_cast<int64_t>(i) + static_cast<int64_t>(n)");
  std::optional<IndexRange> r;
  EXPECT_EQ(ex.iterator_ctype(c(0), bin(BinOpKind::Div, v(1), c(32)), &r), "int32_t");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->hi, INT32_MAX / 32 - 1);
  EXPECT_EQ(ex.iterator_ctype(c(0), bin(BinOpKind::Add, v(1), c(1)), &r), "int64_t");
  EXPECT_EQ(ex.iterator_ctype(c(0), v(2), &r), "int64_t");
  EXPECT_FALSE(ex.failed());
  ex.narrow_index = false; // host and CPU code: as before
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Mul, v(0), v(1))), "i * n");
  EXPECT_EQ(ex.ctrl(bin(BinOpKind::Div, v(1), c(32))), "exg_floordiv(n, 32)");
}


/// Random index arithmetic of the kinds kernels compute: tile products,
/// offsets, ceilings, floor division and remainders by positive constants.
Expr random_expr(std::mt19937_64 &rng, NarrowFixture &f, int depth) {
  std::uniform_int_distribution<int> pick(0, depth > 0 ? 9 : 2);
  int k = pick(rng);
  if (k == 0) {
    static const int64_t constants[] = {0, 1, 3, 31, 32, 127, 128, 4096, 65536, 1 << 20};
    return c(constants[std::uniform_int_distribution<size_t>(0, 9)(rng)]);
  }
  if (k <= 2)
    return f.v(std::uniform_int_distribution<size_t>(0, 2)(rng));
  Expr a = random_expr(rng, f, depth - 1), b = random_expr(rng, f, depth - 1);
  std::uniform_int_distribution<int64_t> divisor(1, 200);
  switch (k) {
  case 3: return bin(BinOpKind::Add, a, b);
  case 4: return bin(BinOpKind::Sub, a, b);
  case 5: return bin(BinOpKind::Mul, a, b);
  case 6: return bin(BinOpKind::Div, a, c(divisor(rng)));
  case 7: return bin(BinOpKind::Mod, a, c(divisor(rng)));
  case 8: return UnOp::make(UnOpKind::Neg, a);
  default: return Call::make(k == 9 && (rng() & 1) ? "min" : "max", {a, b}, {});
  }
}

std::string i128(__int128 v) {
  // Values here stay within int64_t (checked by the caller).
  return "INT64_C(" + std::to_string(static_cast<int64_t>(v)) + ")";
}

TEST_F(NarrowFixture, RandomExpressionsComputeExactlyUnderUBSan) {
  std::mt19937_64 rng(2026);
  std::ostringstream src, calls;
  src << "#include <cstdint>\n#include <cstdio>\n#include <cmath>\n"
      << cpu_prelude() << "\nint failures = 0;\n"
      << "void expect(int64_t got, int64_t want, int k, int p) {\n"
      << "  if (got != want) { std::printf(\"expression %d point %d: got %lld, want %lld\\n\", k, p,"
      << " (long long)got, (long long)want); ++failures; }\n}\n";
  const std::vector<IndexRange> shapes = {
      {0, 0},          {0, 127},           {1, INT32_MAX},    {-1000, 1000},
      {0, (1 << 24) - 1}, {INT32_MIN, INT32_MAX}, {-(int64_t(1) << 40), int64_t(1) << 40}};
  int emitted = 0, narrow = 0;
  for (int k = 0; emitted < 600 && k < 5000; ++k) {
    std::vector<IndexRange> rs;
    for (size_t s = 0; s < syms.size(); ++s)
      rs.push_back(shapes[std::uniform_int_distribution<size_t>(0, shapes.size() - 1)(rng)]);
    bind(rs);
    Expr e = random_expr(rng, *this, 3);
    auto r = ex.range(e);
    if (!r) // its value may leave int64_t: the bounds check refuses such code
      continue;
    ExprEmitter::CtrlValue value = ex.ctrl_value(e);
    std::string wide = ex.ctrl_wide(e);
    ASSERT_FALSE(ex.failed());
    narrow += value.narrow;
    std::string params;
    for (size_t s = 0; s < syms.size(); ++s)
      params += std::string(s ? ", " : "") + env.lookup(syms[s])->ctype + " " + syms[s].name;
    src << "int64_t f" << emitted << "(" << params << ") { return " << value.text << "; }\n";
    src << "int64_t w" << emitted << "(" << params << ") { return " << wide << "; }\n";
    for (int p = 0; p < 12; ++p) {
      std::map<uint32_t, int64_t> at;
      std::string args;
      for (size_t s = 0; s < syms.size(); ++s) {
        int corner = p < 8 ? (p >> s) & 1 : 2;
        int64_t x = corner == 0   ? rs[s].lo
                    : corner == 1 ? rs[s].hi
                                  : std::uniform_int_distribution<int64_t>(rs[s].lo, rs[s].hi)(rng);
        at[syms[s].id] = x;
        args += std::string(s ? ", " : "") + i128(x);
      }
      __int128 want = exgc::testing::eval_index(e, at);
      ASSERT_TRUE(want >= r->lo && want <= r->hi);
      calls << "  expect(f" << emitted << "(" << args << "), " << i128(want) << ", " << emitted
            << ", " << p << ");\n";
      calls << "  expect(w" << emitted << "(" << args << "), " << i128(want) << ", " << emitted
            << ", " << p << ");\n";
    }
    ++emitted;
  }
  ASSERT_EQ(emitted, 600);
  EXPECT_GT(narrow, 100); // the attack reaches 32-bit texts, not only 64-bit ones
  src << "int main() {\n" << calls.str() << "  return failures ? 1 : 0;\n}\n";
  std::string dir = ::testing::TempDir();
  std::string cpp = dir + "/narrow_index_attack.cpp", bin = dir + "/narrow_index_attack";
  std::ofstream(cpp) << src.str();
  std::string cmd = "c++ -std=c++17 -O1 -fsanitize=undefined -fno-sanitize-recover=all -o " +
                    bin + " " + cpp + " 2>&1 && " + bin + " 2>&1";
  std::string out;
  FILE *f = popen(cmd.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[512];
  while (fgets(buf, sizeof buf, f))
    out += buf;
  int rc = pclose(f);
  EXPECT_EQ(rc, 0) << out;
}

} // namespace
} // namespace exgc::codegen
