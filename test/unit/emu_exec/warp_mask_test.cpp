// test/unit/emu_exec/warp_mask_test.cpp - member masks of warp collectives ----//
// Exit code 103 (Hazard::BarrierMisuse) when a lane is not in its own member
// mask, when lanes meet with different masks, when a lane its mask names does
// not execute the instruction, and when a shuffle reads a lane outside the
// mask; masks that name exactly the lanes that shuffle together run clean.
#include "harness.h"

namespace emu::test {
namespace {

// out[tid] = %r20 after `body` (%r2 = %laneid), for `threads` threads.
void run_lanes(const std::string &body, uint32_t threads = 32) {
  auto dev = device_with(kernel2("mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\nmov.u32 %r20, 0;\n" + body + R"(
mul.wide.u32 %rd30, %r1, 4;
add.s64 %rd31, %rd1, %rd30;
st.global.u32 [%rd31], %r20;
)"));
  Buf<uint32_t> out(*dev, threads), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  int rc = launch(*dev, {1, 1, 1}, {threads, 1, 1}, {&po, &pi});
  if (rc != 0)
    std::exit(rc);
  for (uint32_t t = 0; t < threads; ++t) // the body leaves a value that says it ran right
    if (out[t] == 0xbad)
      std::exit(1);
  std::exit(0);
}

// __shfl_xor_sync(1u << lane, v, 1): each lane's mask names only itself, so
// its partner is outside it.
TEST(EmuExecWarpMaskDeathTest, ShuffleSourceOutsideTheMask) {
  EXPECT_EXIT(run_lanes("shl.b32 %r3, 1, %r2;\nshfl.sync.bfly.b32 %r20, %r2, 1, 31, %r3;"),
              testing::ExitedWithCode(103),
              "barrier misuse: lane 0 shuffles from lane 1, which is not in its member mask 0x00000001(.|\n)*"
              "thread \\(0, 0, 0\\)(.|\n)*shfl.sync.bfly");
}

// __shfl_xor_sync(0x0000ffff, v, 1) executed by all 32 lanes.
TEST(EmuExecWarpMaskDeathTest, LaneNotInItsOwnMask) {
  EXPECT_EXIT(run_lanes("shfl.sync.bfly.b32 %r20, %r2, 1, 31, 0xffff;"), testing::ExitedWithCode(103),
              "barrier misuse: lane 16 executes shfl.sync with member mask 0x0000ffff, which does not include "
              "the lane itself(.|\n)*thread \\(16, 0, 0\\)");
  EXPECT_EXIT(run_lanes("vote.sync.ballot.b32 %r20, %p1, 0xfffffffe;"), testing::ExitedWithCode(103),
              "lane 0 executes vote.sync with member mask 0xfffffffe");
  EXPECT_EXIT(run_lanes("bar.warp.sync 0x7fffffff;"), testing::ExitedWithCode(103),
              "lane 31 executes bar.warp.sync with member mask 0x7fffffff");
}

TEST(EmuExecWarpMaskDeathTest, LanesMeetWithDifferentMasks) {
  // Lane 0 names lanes 0-1; lane 1 names lanes 0-3.
  EXPECT_EXIT(run_lanes(R"(
setp.lt.u32 %p1, %r2, 4;
@!%p1 bra $END;
setp.eq.u32 %p2, %r2, 0;
selp.b32 %r3, 3, 15, %p2;
redux.sync.add.u32 %r20, %r2, %r3;
$END:
)"),
              testing::ExitedWithCode(103),
              "lanes 0 and 1 meet at this redux.sync with different member masks \\(0x00000003 and 0x0000000f\\)");
}

TEST(EmuExecWarpMaskDeathTest, NamedLaneWithItsGuardFalse) {
  EXPECT_EXIT(run_lanes("setp.lt.u32 %p1, %r2, 16;\n@%p1 shfl.sync.bfly.b32 %r20, %r2, 1, 31, -1;"),
              testing::ExitedWithCode(103),
              "lane 0's member mask 0xffffffff names lane 16, which reaches this shfl.sync with its guard "
              "predicate false");
}

TEST(EmuExecWarpMaskDeathTest, ShuffleFromAnExitedLaneInTheMask) {
  EXPECT_EXIT(run_lanes("setp.eq.u32 %p1, %r2, 5;\n@%p1 exit;\nshfl.sync.idx.b32 %r20, %r2, 5, 31, -1;"),
              testing::ExitedWithCode(103), "lane 0 shuffles from lane 5, which has exited or does not exist");
}

TEST(EmuExecWarpMaskDeathTest, MasksNamingExactlyTheLanesThatMeetRunClean) {
  // Inside `if (lane < 16)` with mask 0xffff, xor 1..8: every source is in the mask.
  EXPECT_EXIT(run_lanes(R"(
setp.lt.u32 %p1, %r2, 16;
@!%p1 bra $END;
shfl.sync.bfly.b32 %r4, %r2, 1, 31, 0xffff;
shfl.sync.bfly.b32 %r4, %r4, 2, 31, 0xffff;
shfl.sync.bfly.b32 %r4, %r4, 4, 31, 0xffff;
shfl.sync.bfly.b32 %r4, %r4, 8, 31, 0xffff;
xor.b32 %r5, %r2, 15;
setp.ne.u32 %p2, %r4, %r5;
@%p2 mov.u32 %r20, 0xbad;
$END:
)"),
              testing::ExitedWithCode(0), "");
  // Pairwise masks (lanes 2i and 2i+1 name each other: what exgc's warp
  // reductions pass), meeting in one group at one instruction.
  EXPECT_EXIT(run_lanes(R"(
and.b32 %r3, %r2, 30;
shl.b32 %r4, 3, %r3;
shfl.sync.bfly.b32 %r5, %r2, 1, 31, %r4;
xor.b32 %r6, %r2, 1;
setp.ne.u32 %p2, %r5, %r6;
@%p2 mov.u32 %r20, 0xbad;
vote.sync.ballot.b32 %r7, 1, %r4;
setp.ne.u32 %p3, %r7, %r4;
@%p3 mov.u32 %r20, 0xbad;
)"),
              testing::ExitedWithCode(0), "");
  // A clamped up-shuffle keeps the own value (pval false) without reading outside the mask.
  EXPECT_EXIT(run_lanes(R"(
setp.lt.u32 %p1, %r2, 8;
@!%p1 bra $END;
shfl.sync.up.b32 %r4|%p2, %r2, 2, 0, 0xff;
sub.u32 %r5, %r2, 2;
setp.lt.u32 %p3, %r2, 2;
selp.u32 %r5, %r2, %r5, %p3;
setp.ne.u32 %p4, %r4, %r5;
@%p4 mov.u32 %r20, 0xbad;
$END:
)"),
              testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace emu::test
