// test/unit/emu_exec/hazard_test.cpp - located reports and their exit codes //
#include "harness.h"

namespace emu::test {
namespace {

void run_kernel(const std::string &ptx, uint32_t threads, size_t dsmem = 0) {
  auto dev = device_with(ptx);
  Buf<uint32_t> out(*dev, 4), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  launch(*dev, {1, 1, 1}, {threads, 1, 1}, {&po, &pi}, dsmem);
  std::exit(0);
}

TEST(EmuExecHazardDeathTest, NamedBarrierThatTooFewThreadsReachDeadlocks) {
  // Only warp 0 reaches bar.sync 1, 64: the other warp exits.
  std::string k = kernel2(R"(
mov.u32 %r1, %tid.x;
setp.ge.u32 %p1, %r1, 32;
@%p1 bra $END;
bar.sync 1, 64;
$END:
)");
  EXPECT_EXIT(run_kernel(k, 64), testing::ExitedWithCode(102), "deadlock(.|\n)*named barrier 1(.|\n)*PTX line");
}

// Two warpgroups fit 248 registers a thread, but ptxas compiles a kernel that
// uses setmaxnreg to its largest count (232 here, as exgc's GPU stage
// assumes): the consumers' inc to 232 raises nothing and the producers' dec to
// 40 frees registers. Starting from 248 the emulator refused the inc (found
// by examples/attention_sm90a.exg).
TEST(EmuExecHazardDeathTest, SetmaxnregCountsStartAtTheKernelsLargestCount) {
  std::string k = kernel2(R"(
mov.u32 %r1, %tid.x;
setp.ge.u32 %p1, %r1, 128;
@%p1 bra $INC;
setmaxnreg.dec.sync.aligned.u32 40;
bra $END;
$INC:
setmaxnreg.inc.sync.aligned.u32 232;
$END:
)");
  EXPECT_EXIT(run_kernel(k, 256), testing::ExitedWithCode(0), "");
}

TEST(EmuExecHazardDeathTest, MbarrierWaitThatNothingCompletesDeadlocks) {
  std::string k = kernel2(R"(
mov.u32 %r1, bar;
mbarrier.init.shared::cta.b64 [%r1], 2;
mbarrier.arrive.shared::cta.b64 %rd3, [%r1];
$W:
mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
@!%p1 bra $W;
)",
                          ".shared .align 8 .b8 bar[8];\n");
  EXPECT_EXIT(run_kernel(k, 1), testing::ExitedWithCode(102), "deadlock(.|\n)*mbarrier");
}

TEST(EmuExecHazardDeathTest, DeadlockReportGroupsWarpsByWhatTheyWaitFor) {
  // The barrier expects two arrivals; the second (a producer's) is missing.
  // Every warp waits on it: one line for all eight, with the barrier's state.
  std::string k = kernel2(R"(
mov.u32 %r1, bar;
mov.u32 %r2, %tid.x;
setp.ne.u32 %p2, %r2, 0;
@%p2 bra $INIT;
mbarrier.init.shared::cta.b64 [%r1], 2;
$INIT:
bar.sync 0;
@%p2 bra $W;
mbarrier.arrive.shared::cta.b64 %rd3, [%r1];
$W:
mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
@!%p1 bra $W;
)",
                          ".shared .align 8 .b8 bar[8];\n");
  EXPECT_EXIT(run_kernel(k, 256), testing::ExitedWithCode(102),
              "deadlock: nothing can run and no asynchronous operation is pending; waiting:\n"
              "    CTA \\(0,0,0\\) warps 0-7 \\(lanes 0-31\\) wait at PTX line 26 on mbarrier 0x400 \\(CTA rank 0\\), "
              "phase parity 0 \\(current phase 0, pending arrivals 1 of 2, tx-count 0, current parity 0\\): "
              "mbarrier.try_wait.parity.shared::cta.b64 %p1, \\[%r1\\], 0;\n  kernel k");
}

TEST(EmuExecHazardDeathTest, MbarrierOverArrivalIsMisuse) {
  std::string k = kernel2(R"(
mov.u32 %r1, bar;
mbarrier.init.shared::cta.b64 [%r1], 1;
mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 16;
mbarrier.arrive.shared::cta.b64 %rd3, [%r1];
mbarrier.arrive.shared::cta.b64 %rd3, [%r1];
)",
                          ".shared .align 8 .b8 bar[8];\n");
  EXPECT_EXIT(run_kernel(k, 1), testing::ExitedWithCode(103), "barrier misuse");
}

TEST(EmuExecHazardDeathTest, GlobalReadPastTheAllocation) {
  std::string k = kernel2("ld.global.u32 %r1, [%rd2+16];");
  EXPECT_EXIT(run_kernel(k, 1), testing::ExitedWithCode(101), "out-of-bounds(.|\n)*outside every live allocation(.|\n)*PTX line");
}

TEST(EmuExecHazardDeathTest, MisalignedGlobalWrite) {
  std::string k = kernel2("st.global.u32 [%rd1+2], 1;");
  EXPECT_EXIT(run_kernel(k, 1), testing::ExitedWithCode(101), "misaligned");
}

TEST(EmuExecHazardDeathTest, SharedAccessPastTheCtaSharedMemory) {
  std::string k = kernel2("mov.u32 %r1, dyn;\nld.shared.u32 %r2, [%r1+256];",
                          ".extern .shared .align 16 .b8 dyn[];\n");
  EXPECT_EXIT(run_kernel(k, 1, 256), testing::ExitedWithCode(101), "outside the CTA's shared memory");
}

TEST(EmuExecHazardDeathTest, UnsupportedInstructionReportsOnlyWhenExecuted) {
  // tex is not emulated: skipped, the kernel runs; executed, it reports.
  std::string skipped = kernel2("bra $E;\nbrkpt;\n$E:");
  EXPECT_EXIT(run_kernel(skipped, 1), testing::ExitedWithCode(0), "");
  std::string run = kernel2("brkpt;");
  EXPECT_EXIT(run_kernel(run, 1), testing::ExitedWithCode(106), "unsupported(.|\n)*brkpt");
}

TEST(EmuExecLaunch, ConfigurationErrorsReturnTheRuntimeCodes) {
  auto dev = device_with(kernel2(""));
  uint64_t z = 0;
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {1025, 1, 1}, {&z, &z}), 9);     // cudaErrorInvalidConfiguration
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {1, 1, 65}, {&z, &z}), 9);
  EXPECT_EQ(launch(*dev, {3, 1, 1}, {32, 1, 1}, {&z, &z}, 0, {2, 1, 1}), 912); // grid not a multiple
  EXPECT_EQ(launch(*dev, {32, 1, 1}, {32, 1, 1}, {&z, &z}, 0, {32, 1, 1}), 912);
  EXPECT_EQ(launch(*dev, {16, 1, 1}, {32, 1, 1}, {&z, &z}, 0, {16, 1, 1}), 0); // non-portable
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {32, 1, 1}, {&z, &z}, 64 * 1024), 1); // over the 48 KiB default
  dev->set_max_dynamic_smem("k", 100 * 1024);
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {32, 1, 1}, {&z, &z}, 64 * 1024), 0);
  EXPECT_EQ(launch(*dev, {1, 1, 1}, {32, 1, 1}, {&z, &z}, 0, {1, 1, 1}, "nope"), 98);
}

} // namespace
} // namespace emu::test
