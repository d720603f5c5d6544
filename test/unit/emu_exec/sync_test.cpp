// test/unit/emu_exec/sync_test.cpp - divergence, warp collectives, barriers, seeds //
#include "harness.h"

#include <set>

namespace emu::test {
namespace {

// Each thread writes one u32 result: out[global tid] = %r20.
std::string per_thread(const std::string &body, const std::string &decls = "") {
  return kernel2(R"(
mov.u32 %r1, %tid.x;
mov.u32 %r2, %laneid;
)" + body + R"(
mov.u32 %r30, %tid.x;
mul.wide.u32 %rd30, %r30, 4;
add.s64 %rd31, %rd1, %rd30;
st.global.u32 [%rd31], %r20;
)",
                 decls);
}

std::vector<uint32_t> run(const std::string &ptx, uint32_t threads, Options o = quiet_options()) {
  auto dev = device_with(ptx, o);
  Buf<uint32_t> out(*dev, threads), in(*dev, 64);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {threads, 1, 1}, {&po, &pi}), 0);
  return std::vector<uint32_t>(out.p, out.p + threads);
}

TEST(EmuExecSync, DivergentLoopsReconvergeForAFullWarpShuffle) {
  // Odd lanes loop `lane` times, even lanes skip; all then shuffle with the full mask.
  auto r = run(per_thread(R"(
mov.u32 %r3, 0;
and.b32 %r4, %r2, 1;
setp.eq.u32 %p1, %r4, 0;
@%p1 bra $SKIP;
$LOOP:
add.u32 %r3, %r3, 1;
setp.lt.u32 %p2, %r3, %r2;
@%p2 bra $LOOP;
$SKIP:
shfl.sync.bfly.b32 %r20, %r3, 1, 31, -1;
)"),
               32);
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t partner = l ^ 1;
    EXPECT_EQ(r[l], partner & 1 ? partner : 0u) << l;
  }
}

TEST(EmuExecSync, ShuffleModesAndPartialMasks) {
  auto up = run(per_thread("shfl.sync.up.b32 %r20, %r2, 3, 0, -1;"), 32);
  auto down = run(per_thread("shfl.sync.down.b32 %r20, %r2, 5, 31, -1;"), 32);
  auto idx = run(per_thread("shfl.sync.idx.b32 %r20, %r2, 7, 31, -1;"), 32);
  // Segments of 8 (c = 0x1807: clamp 7, segmask 0x18): idx 2 reads lane 2 of its segment.
  auto seg = run(per_thread("shfl.sync.idx.b32 %r20, %r2, 2, 0x1807, -1;"), 32);
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(up[l], l >= 3 ? l - 3 : l);
    EXPECT_EQ(down[l], l + 5 <= 31 ? l + 5 : l);
    EXPECT_EQ(idx[l], 7u);
    EXPECT_EQ(seg[l], (l & ~7u) + 2);
  }
  // Only the low half takes part: the mask names exactly those lanes.
  auto half = run(per_thread(R"(
mov.u32 %r20, 99;
setp.lt.u32 %p1, %r2, 16;
@%p1 shfl.sync.bfly.b32 %r20, %r2, 8, 31, 0xffff;
)"),
                  32);
  for (uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(half[l], l < 16 ? (l ^ 8) : 99u);
}

TEST(EmuExecSync, VoteBallotAnyAllAndActivemask) {
  auto r = run(per_thread(R"(
and.b32 %r3, %r2, 3;
setp.eq.u32 %p1, %r3, 0;
vote.sync.ballot.b32 %r4, %p1, -1;
vote.sync.any.pred %p2, %p1, -1;
vote.sync.all.pred %p3, %p1, -1;
selp.u32 %r5, 1, 0, %p2;
selp.u32 %r6, 2, 0, %p3;
xor.b32 %r20, %r4, %r5;
xor.b32 %r20, %r20, %r6;
)"),
               32);
  for (uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(r[l], 0x11111111u ^ 1u);
  auto act = run(per_thread(R"(
mov.u32 %r20, 0;
setp.ge.u32 %p1, %r2, 20;
@%p1 bra $HI;
activemask.b32 %r20;
$HI:
)"),
                 32);
  EXPECT_EQ(act[0], 0x000fffffu);
  EXPECT_EQ(act[25], 0u);
}

TEST(EmuExecSync, BarSyncOrdersSharedMemoryAcrossWarps) {
  auto r = run(per_thread(R"(
shr.u32 %r3, %r1, 5;
shl.b32 %r4, %r3, 2;
mov.u32 %r5, buf;
add.u32 %r6, %r5, %r4;
setp.eq.u32 %p1, %r2, 0;
add.u32 %r7, %r3, 100;
@%p1 st.shared.u32 [%r6], %r7;
bar.sync 0;
add.u32 %r8, %r3, 1;
and.b32 %r8, %r8, 3;
shl.b32 %r8, %r8, 2;
add.u32 %r9, %r5, %r8;
ld.shared.u32 %r20, [%r9];
)",
                          ".shared .align 4 .b8 buf[16];\n"),
               128);
  for (uint32_t t = 0; t < 128; ++t)
    EXPECT_EQ(r[t], 100 + ((t / 32 + 1) % 4)) << t;
}

TEST(EmuExecSync, ElectPicksOneFixedLeaderPerSeed) {
  std::set<uint32_t> leaders;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto r = run(per_thread(R"(
elect.sync %r3|%p1, -1;
elect.sync %r4|%p2, -1;
selp.u32 %r20, 1, 0, %p1;
shl.b32 %r5, %r3, 8;
or.b32 %r20, %r20, %r5;
setp.ne.u32 %p3, %r3, %r4;
@%p3 mov.u32 %r20, 0xdead;
)"),
                 32, quiet_options(seed));
    uint32_t lead = r[0] >> 8;
    int count = 0;
    for (uint32_t l = 0; l < 32; ++l) {
      EXPECT_EQ(r[l] >> 8, lead);
      count += r[l] & 1;
    }
    EXPECT_EQ(count, 1);
    leaders.insert(lead);
  }
  EXPECT_GT(leaders.size(), 1u);
}

// A racy counter: 8 warps each add 1 through a non-atomic load/store, 50 times.
uint32_t racy_count(uint64_t seed) {
  auto dev = device_with(kernel2(R"(
mov.u32 %r1, %laneid;
setp.ne.u32 %p1, %r1, 0;
@%p1 bra $END;
mov.u32 %r3, 0;
$LOOP:
ld.global.u32 %r4, [%rd1];
add.u32 %r4, %r4, 1;
st.global.u32 [%rd1], %r4;
add.u32 %r3, %r3, 1;
setp.lt.u32 %p2, %r3, 50;
@%p2 bra $LOOP;
$END:
)"),
                         quiet_options(seed));
  Buf<uint32_t> out(*dev, 1), in(*dev, 1);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {256, 1, 1}, {&po, &pi}), 0);
  return out[0];
}

TEST(EmuExecSync, DeterministicForASeedAndDifferentAcrossSeeds) {
  std::set<uint32_t> seen;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    uint32_t a = racy_count(seed), b = racy_count(seed);
    EXPECT_EQ(a, b) << "seed " << seed;
    EXPECT_LE(a, 400u);
    seen.insert(a);
  }
  EXPECT_GT(seen.size(), 1u) << "every seed gave the same interleaving";
}

TEST(EmuExecSync, AtomicsDoNotLoseUpdates) {
  auto dev = device_with(kernel2("atom.global.add.u32 %r1, [%rd1], 1;\nred.global.max.s32 [%rd1+4], %r1;"));
  Buf<uint32_t> out(*dev, 2), in(*dev, 1);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  ASSERT_EQ(launch(*dev, {3, 1, 1}, {96, 1, 1}, {&po, &pi}), 0);
  EXPECT_EQ(out[0], 288u);
  EXPECT_EQ(out[1], 287u);
}

} // namespace
} // namespace emu::test

namespace emu::test {
namespace {

// An 8x8 b16 matrix with element (r, c) = 8r + c in shared memory, rows 16 B apart.
std::string matrix_kernel(const std::string &op) {
  return per_thread(R"(
mov.u32 %r5, mat;
shl.b32 %r6, %r1, 2;
add.u32 %r7, %r5, %r6;
shl.b32 %r8, %r1, 1;
add.u32 %r9, %r8, 1;
shl.b32 %r9, %r9, 16;
or.b32 %r10, %r8, %r9;
st.shared.u32 [%r7], %r10;
and.b32 %r11, %r1, 7;
shl.b32 %r11, %r11, 4;
add.u32 %r12, %r5, %r11;
)" + op,
                    ".shared .align 16 .b8 mat[128];\n");
}

TEST(EmuExecSync, LdmatrixAndTransposedForm) {
  auto plain = run(matrix_kernel("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r12];"), 32);
  auto trans = run(matrix_kernel("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r20}, [%r12];"), 32);
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t r = t / 4, c = 2 * (t % 4);
    EXPECT_EQ(plain[t], (8 * r + c) | ((8 * r + c + 1) << 16)) << t;
    EXPECT_EQ(trans[t], (8 * c + r) | ((8 * (c + 1) + r) << 16)) << t;
  }
  // stmatrix.trans then ldmatrix.trans gives back the plain fragment.
  auto round = run(matrix_kernel("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r13}, [%r12];\n"
                                 "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%r12], {%r13};\n"
                                 "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r20}, [%r12];"),
                   32);
  EXPECT_EQ(round, plain);
}

} // namespace
} // namespace emu::test
