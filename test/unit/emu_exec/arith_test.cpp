// test/unit/emu_exec/arith_test.cpp - integer, float and cvt edge cases vs C++ //
#include "harness.h"

#include <cmath>
#include <limits>

namespace emu::test {
namespace {

using P = std::pair<uint64_t, uint64_t>;

TEST(EmuExecArith, MulHiAndWide) {
  std::vector<P> in = {{0xffffffffu, 0xffffffffu}, {0x80000000u, 2}, {uint32_t(-7), 3}, {123456789, 987654321}};
  auto hi_u = run_pairs("mul.hi.u32 %r7, %r5, %r6;\ncvt.u64.u32 %rd7, %r7;", in);
  auto hi_s = run_pairs("mul.hi.s32 %r7, %r5, %r6;\ncvt.s64.s32 %rd7, %r7;", in);
  auto wide = run_pairs("mul.wide.s32 %rd7, %r5, %r6;", in);
  for (size_t i = 0; i < in.size(); ++i) {
    uint32_t a = uint32_t(in[i].first), b = uint32_t(in[i].second);
    EXPECT_EQ(hi_u[i], (uint64_t(a) * b) >> 32) << i;
    EXPECT_EQ(int64_t(hi_s[i]), (int64_t(int32_t(a)) * int32_t(b)) >> 32) << i;
    EXPECT_EQ(int64_t(wide[i]), int64_t(int32_t(a)) * int32_t(b)) << i;
  }
  auto hi64 = run_pairs("mul.hi.u64 %rd7, %rd5, %rd6;", {{~0ull, ~0ull}, {1ull << 63, 4}});
  EXPECT_EQ(hi64[0], ~0ull - 1);
  EXPECT_EQ(hi64[1], 2u);
}

TEST(EmuExecArith, BfeSignExtendsAndBfiInserts) {
  // bfe.s32 of bits [4, 8) of 0xf0 is -1 (the field's top bit is set); .u32 is 15.
  auto s = run_pairs("bfe.s32 %r7, %r5, 4, 4;\ncvt.s64.s32 %rd7, %r7;", {{0xf0, 0}, {0x70, 0}});
  EXPECT_EQ(int64_t(s[0]), -1);
  EXPECT_EQ(int64_t(s[1]), 7);
  auto u = run_pairs("bfe.u32 %r7, %r5, 4, 4;\ncvt.u64.u32 %rd7, %r7;", {{0xf0, 0}});
  EXPECT_EQ(u[0], 15u);
  // A field past bit 31 replicates the sign (s32) or is zero (u32).
  auto far = run_pairs("bfe.s32 %r7, %r5, 28, 8;\ncvt.s64.s32 %rd7, %r7;", {{0x80000000u, 0}});
  EXPECT_EQ(int64_t(far[0]), -8);
  auto bfi = run_pairs("bfi.b32 %r7, %r5, %r6, 8, 4;\ncvt.u64.u32 %rd7, %r7;", {{0xab, 0xffffffffu}});
  EXPECT_EQ(bfi[0], 0xfffffbffu);
}

TEST(EmuExecArith, PrmtModes) {
  const uint64_t a = 0x33221100u, b = 0x77665544u;
  auto def = run_pairs("prmt.b32 %r7, %r5, %r6, 0x7531;\ncvt.u64.u32 %rd7, %r7;", {{a, b}});
  EXPECT_EQ(def[0], 0x77553311u);
  auto sign = run_pairs("prmt.b32 %r7, %r5, %r6, 0x0008;\ncvt.u64.u32 %rd7, %r7;", {{0x80, 0}});
  EXPECT_EQ(sign[0], 0x808080ffu); // nibble 8: byte 0's sign replicated; nibbles 0: byte 0
  auto f4e = run_pairs("prmt.b32.f4e %r7, %r5, %r6, 1;\ncvt.u64.u32 %rd7, %r7;", {{a, b}});
  EXPECT_EQ(f4e[0], 0x44332211u);
  auto b4e = run_pairs("prmt.b32.b4e %r7, %r5, %r6, 0;\ncvt.u64.u32 %rd7, %r7;", {{a, b}});
  EXPECT_EQ(b4e[0], 0x55667700u);
  auto rc8 = run_pairs("prmt.b32.rc8 %r7, %r5, %r6, 2;\ncvt.u64.u32 %rd7, %r7;", {{a, b}});
  EXPECT_EQ(rc8[0], 0x22222222u);
  auto rc16 = run_pairs("prmt.b32.rc16 %r7, %r5, %r6, 1;\ncvt.u64.u32 %rd7, %r7;", {{a, b}});
  EXPECT_EQ(rc16[0], 0x33223322u);
}

TEST(EmuExecArith, DivisionShiftsAndCounts) {
  auto d = run_pairs("div.u32 %r7, %r5, %r6;\ncvt.u64.u32 %rd7, %r7;", {{7, 0}, {7, 2}});
  EXPECT_EQ(d[0], 0xffffffffu);
  EXPECT_EQ(d[1], 3u);
  auto ds = run_pairs("div.s32 %r7, %r5, %r6;\ncvt.s64.s32 %rd7, %r7;", {{uint32_t(-7), 2}, {0x80000000u, uint32_t(-1)}});
  EXPECT_EQ(int64_t(ds[0]), -3);
  EXPECT_EQ(int64_t(ds[1]), int64_t(INT32_MIN));
  auto shr = run_pairs("shr.s32 %r7, %r5, %r6;\ncvt.s64.s32 %rd7, %r7;", {{uint32_t(-16), 2}, {uint32_t(-16), 40}});
  EXPECT_EQ(int64_t(shr[0]), -4);
  EXPECT_EQ(int64_t(shr[1]), -1); // shifts past the width clamp
  auto shl = run_pairs("shl.b32 %r7, %r5, %r6;\ncvt.u64.u32 %rd7, %r7;", {{1, 33}});
  EXPECT_EQ(shl[0], 0u);
  auto cnt = run_pairs("popc.b32 %r7, %r5;\nclz.b32 %r8, %r5;\nbfind.u32 %r9, %r5;\nbrev.b32 %r10, %r5;\n"
                       "cvt.u64.u32 %rd7, %r7;\ncvt.u64.u32 %rd10, %r8;\nshl.b64 %rd10, %rd10, 8;\nor.b64 %rd7, %rd7, %rd10;\n"
                       "cvt.u64.u32 %rd10, %r9;\nshl.b64 %rd10, %rd10, 16;\nor.b64 %rd7, %rd7, %rd10;\n"
                       "cvt.u64.u32 %rd10, %r10;\nshl.b64 %rd10, %rd10, 32;\nor.b64 %rd7, %rd7, %rd10;",
                       {{0x00f00001u, 0}});
  EXPECT_EQ(cnt[0] & 0xff, 5u);
  EXPECT_EQ((cnt[0] >> 8) & 0xff, 8u);
  EXPECT_EQ((cnt[0] >> 16) & 0xff, 23u);
  EXPECT_EQ(cnt[0] >> 32, 0x80000f00u);
  auto sat = run_pairs("add.sat.s32 %r7, %r5, %r6;\ncvt.s64.s32 %rd7, %r7;", {{0x7fffffffu, 5}});
  EXPECT_EQ(int64_t(sat[0]), INT32_MAX);
  auto lop = run_pairs("lop3.b32 %r7, %r5, %r6, 0xff00ff00, 0xe8;\ncvt.u64.u32 %rd7, %r7;", {{0xf0f0f0f0u, 0xcccccccc}});
  uint32_t A = 0xf0f0f0f0u, B = 0xcccccccc, C = 0xff00ff00u; // 0xe8: majority
  EXPECT_EQ(lop[0], uint64_t((A & B) | (A & C) | (B & C)));
}

TEST(EmuExecArith, CarryChain) {
  // 64-bit add from 32-bit halves: 0xffffffff + 1 carries into the high word.
  auto r = run_pairs("add.cc.u32 %r7, %r5, %r6;\naddc.u32 %r8, 0, 0;\ncvt.u64.u32 %rd7, %r8;", {{0xffffffffu, 1}, {1, 1}});
  EXPECT_EQ(r[0], 1u);
  EXPECT_EQ(r[1], 0u);
}

TEST(EmuExecArith, SetpCombinesAndUnorderedCompares) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<P> in = {{fbits(1.0f), fbits(2.0f)}, {fbits(nan), fbits(1.0f)}, {fbits(2.0f), fbits(2.0f)}};
  auto lt = run_pairs("setp.lt.f32 %p1, %f5, %f6;\nselp.u64 %rd7, 1, 0, %p1;", in);
  auto ltu = run_pairs("setp.ltu.f32 %p1, %f5, %f6;\nselp.u64 %rd7, 1, 0, %p1;", in);
  auto pair = run_pairs("setp.ge.and.f32 %p1|%p2, %f5, %f6, 1;\nselp.u64 %rd7, 1, 0, %p1;\nselp.u64 %rd10, 2, 0, %p2;\nor.b64 %rd7, %rd7, %rd10;", in);
  EXPECT_EQ(lt, (std::vector<uint64_t>{1, 0, 0}));
  EXPECT_EQ(ltu, (std::vector<uint64_t>{1, 1, 0}));
  EXPECT_EQ(pair, (std::vector<uint64_t>{2, 2, 1})); // q = !(a >= b) and true: true for NaN
}

TEST(EmuExecArith, FloatMinMaxAndFtz) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto mn = run_pairs("min.f32 %f7, %f5, %f6;\nmov.b32 %r7, %f7;\ncvt.u64.u32 %rd7, %r7;", {{fbits(nan), fbits(3.0f)}, {fbits(-0.0f), fbits(0.0f)}});
  EXPECT_EQ(bitsf(mn[0]), 3.0f);
  EXPECT_TRUE(std::signbit(bitsf(mn[1])));
  auto mnn = run_pairs("min.NaN.f32 %f7, %f5, %f6;\nmov.b32 %r7, %f7;\ncvt.u64.u32 %rd7, %r7;", {{fbits(nan), fbits(3.0f)}});
  EXPECT_TRUE(std::isnan(bitsf(mnn[0])));
  float sub = std::numeric_limits<float>::denorm_min() * 4;
  auto ftz = run_pairs("add.ftz.f32 %f7, %f5, %f6;\nmov.b32 %r7, %f7;\ncvt.u64.u32 %rd7, %r7;", {{fbits(sub), fbits(0.0f)}});
  EXPECT_EQ(bitsf(ftz[0]), 0.0f);
  auto sat = run_pairs("mul.sat.f32 %f7, %f5, %f6;\nmov.b32 %r7, %f7;\ncvt.u64.u32 %rd7, %r7;", {{fbits(3.0f), fbits(2.0f)}, {fbits(-1.0f), fbits(2.0f)}});
  EXPECT_EQ(bitsf(sat[0]), 1.0f);
  EXPECT_EQ(bitsf(sat[1]), 0.0f);
  auto fma = run_pairs("fma.rn.f32 %f7, %f5, %f6, 0f3F800000;\nmov.b32 %r7, %f7;\ncvt.u64.u32 %rd7, %r7;", {{fbits(1.5f), fbits(2.0f)}});
  EXPECT_EQ(bitsf(fma[0]), 4.0f);
}

TEST(EmuExecArith, CvtRoundingAndSaturation) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<P> in = {{fbits(2.5f), 0}, {fbits(-2.5f), 0}, {fbits(1e10f), 0}, {fbits(nan), 0}, {fbits(-3.7f), 0}};
  auto rni = run_pairs("cvt.rni.s32.f32 %r7, %f5;\ncvt.s64.s32 %rd7, %r7;", in);
  auto rzi = run_pairs("cvt.rzi.s32.f32 %r7, %f5;\ncvt.s64.s32 %rd7, %r7;", in);
  auto rmi = run_pairs("cvt.rmi.s32.f32 %r7, %f5;\ncvt.s64.s32 %rd7, %r7;", in);
  auto u8 = run_pairs("cvt.rni.u8.f32 %h1, %f5;\ncvt.u64.u16 %rd7, %h1;", in);
  EXPECT_EQ(std::vector<int64_t>(rni.begin(), rni.end()), (std::vector<int64_t>{2, -2, INT32_MAX, 0, -4}));
  EXPECT_EQ(std::vector<int64_t>(rzi.begin(), rzi.end()), (std::vector<int64_t>{2, -2, INT32_MAX, 0, -3}));
  EXPECT_EQ(std::vector<int64_t>(rmi.begin(), rmi.end()), (std::vector<int64_t>{2, -3, INT32_MAX, 0, -4}));
  EXPECT_EQ(u8, (std::vector<uint64_t>{2, 0, 255, 0, 0}));
  // Integer narrowing: plain truncates, .sat clamps.
  auto tr = run_pairs("cvt.u8.u32 %h1, %r5;\ncvt.u64.u16 %rd7, %h1;", {{0x1ff, 0}});
  auto st = run_pairs("cvt.sat.s8.s32 %h1, %r5;\ncvt.s64.s16 %rd7, %h1;", {{0x1ff, 0}, {uint32_t(-300), 0}});
  EXPECT_EQ(tr[0], 0xffu);
  EXPECT_EQ(int64_t(st[0]), 127);
  EXPECT_EQ(int64_t(st[1]), -128);
  // f32 -> f16 rounds to nearest even; .rz truncates; packing puts a high.
  auto h = run_pairs("cvt.rn.f16.f32 %h1, %f5;\ncvt.u64.u16 %rd7, %h1;", {{fbits(1.0f + 1.0f / 2048), 0}, {fbits(65520.0f), 0}});
  EXPECT_EQ(h[0], 0x3c00u);  // a tie: to even
  EXPECT_EQ(h[1], 0x7c00u);  // rounds to infinity
  auto hz = run_pairs("cvt.rz.f16.f32 %h1, %f5;\ncvt.u64.u16 %rd7, %h1;", {{fbits(65520.0f), 0}});
  EXPECT_EQ(hz[0], 0x7bffu);
  auto pk = run_pairs("cvt.rn.f16x2.f32 %r7, %f5, %f6;\ncvt.u64.u32 %rd7, %r7;", {{fbits(1.0f), fbits(2.0f)}});
  EXPECT_EQ(pk[0], 0x3c004000u);
  auto bf = run_pairs("cvt.rn.bf16x2.f32 %r7, %f5, %f6;\ncvt.u64.u32 %rd7, %r7;", {{fbits(1.0f), fbits(-2.0f)}});
  EXPECT_EQ(bf[0], 0x3f80c000u);
  auto tf = run_pairs("cvt.rna.tf32.f32 %r7, %f5;\ncvt.u64.u32 %rd7, %r7;", {{0x3f801000u, 0}});
  EXPECT_EQ(tf[0], 0x3f802000u); // the half-way bit rounds away from zero
  auto f2 = run_pairs("mov.b16 %h1, 0;\ncvt.f32.f16 %f7, %h1;\nmov.b32 %r7, %f7;\ncvt.u64.u32 %rd7, %r7;", {{0, 0}});
  EXPECT_EQ(bitsf(f2[0]), 0.0f);
  auto i2f = run_pairs("cvt.rz.f32.u32 %f7, %r5;\nmov.b32 %r7, %f7;\ncvt.u64.u32 %rd7, %r7;", {{0xffffffffu, 0}});
  EXPECT_EQ(bitsf(i2f[0]), 4294967040.0f);
}

} // namespace
} // namespace emu::test
