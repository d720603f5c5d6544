// test/unit/emu_exec/async_hazard_test.cpp - async-proxy and wgmma register hazards //
// One warpgroup runs wgmma.mma_async.m64n8k8.f32.tf32.tf32 on operands its
// threads wrote to shared memory (A at smem, B 2 KiB later, no swizzle);
// each test changes one step of the correct sequence and expects the
// located report with exit code 104 (Hazard::AsyncHazard).
#include "harness.h"

namespace emu::test {
namespace {

struct Steps {
  std::string after_store = "fence.proxy.async.shared::cta;"; ///< between the stores and bar.sync
  std::string before_fence;                                   ///< before wgmma.fence
  std::string fence = "wgmma.fence.sync.aligned;";
  std::string before_mma;                                     ///< after wgmma.fence
  std::string after_commit;                                   ///< before wgmma.wait_group
};

std::string wgmma_kernel(const Steps &s) {
  return kernel2(R"(
mov.u32 %r1, smem;
mov.u32 %r2, %tid.x;
shl.b32 %r3, %r2, 4;
add.u32 %r4, %r1, %r3;
cvt.rn.f32.u32 %f10, %r2;
st.shared.v4.f32 [%r4], {%f10, %f10, %f10, %f10};
st.shared.v4.f32 [%r4+2048], {%f10, %f10, %f10, %f10};
)" + s.after_store + R"(
bar.sync 0;
cvt.u64.u32 %rd3, %r1;
shr.u64 %rd3, %rd3, 4;
or.b64 %rd3, %rd3, 0x1000080000;
add.u64 %rd4, %rd3, 128;
mov.f32 %f1, 0f00000000;
mov.f32 %f2, 0f00000000;
mov.f32 %f3, 0f00000000;
mov.f32 %f4, 0f00000000;
setp.eq.u32 %p1, %r2, %r2;
)" + s.before_fence + "\n" + s.fence + "\n" + s.before_mma + R"(
wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f1, %f2, %f3, %f4}, %rd3, %rd4, %p1, 1, 1;
wgmma.commit_group.sync.aligned;
)" + s.after_commit + R"(
wgmma.wait_group.sync.aligned 0;
mul.wide.u32 %rd5, %r2, 16;
add.u64 %rd6, %rd1, %rd5;
st.global.v4.f32 [%rd6], {%f1, %f2, %f3, %f4};
)",
                 ".shared .align 1024 .b8 smem[4096];\n");
}

// Runs one warpgroup; a quantum long enough that a warp runs until it blocks,
// so the issuing warp's writes after the mma come before the operation lands.
void run_wgmma(const Steps &s, bool adversarial = true) {
  Options o = quiet_options(1, adversarial);
  o.quantum = 1000;
  auto dev = device_with(wgmma_kernel(s), o);
  Buf<float> out(*dev, 128 * 4), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  int rc = launch(*dev, {1, 1, 1}, {128, 1, 1}, {&po, &pi});
  // Row r of A is 8 copies of the value its writer thread r/2 stored... only
  // that the product ran matters here: every element is a finite sum.
  for (int i = 0; i < 128 * 4; ++i)
    if (!(out[i] == out[i]))
      std::exit(3);
  std::exit(rc);
}

TEST(EmuExecAsyncHazardDeathTest, CorrectWgmmaSequenceRuns) {
  EXPECT_EXIT(run_wgmma(Steps{}), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(run_wgmma(Steps{}, false), testing::ExitedWithCode(0), "");
}

TEST(EmuExecAsyncHazardDeathTest, GenericWritesReadByWgmmaWithoutProxyFence) {
  Steps s;
  s.after_store = "";
  EXPECT_EXIT(run_wgmma(s), testing::ExitedWithCode(104),
              "async hazard: wgmma.mma_async reads shared 0x[0-9a-f]+ .*which thread \\([0-9]+,0,0\\) of CTA "
              "rank 0 wrote with a generic store at PTX line 2[12] \\(st.shared.v4.f32(.|\n)*fence.proxy.async is "
              "missing(.|\n)*PTX line 37: wgmma.mma_async");
}

TEST(EmuExecAsyncHazardDeathTest, AProxyFenceBeforeTheLaterStoreDoesNotCount) {
  // The fence comes first, then the store: the store is still unfenced.
  Steps s;
  s.after_store = "fence.proxy.async.shared::cta;\nst.shared.f32 [%r4+2048], %f10;";
  EXPECT_EXIT(run_wgmma(s), testing::ExitedWithCode(104), "PTX line 24 \\(st.shared.f32");
}

TEST(EmuExecAsyncHazardDeathTest, AccumulatorReadWhileTheWgmmaIsInFlight) {
  Steps s;
  s.after_commit = "add.f32 %f20, %f2, 0f3F800000;";
  EXPECT_EXIT(run_wgmma(s), testing::ExitedWithCode(104),
              "async hazard: the instruction accesses %f2, an accumulator or A register of a "
              "wgmma.mma_async still in flight \\(PTX line 37(.|\n)*PTX line 39: add.f32");
}

TEST(EmuExecAsyncHazardDeathTest, AccumulatorWrittenAfterTheWgmmaFence) {
  Steps s;
  s.before_mma = "mov.f32 %f3, 0f3F800000;";
  EXPECT_EXIT(run_wgmma(s), testing::ExitedWithCode(104),
              "missing wgmma.fence: %f3, an accumulator register of this wgmma.mma_async, was accessed "
              "at PTX line 36 \\(mov.f32 %f3");
}

TEST(EmuExecAsyncHazardDeathTest, WgmmaWithoutAnyWgmmaFence) {
  Steps s;
  s.fence = "";
  EXPECT_EXIT(run_wgmma(s), testing::ExitedWithCode(104), "before any wgmma.fence");
}

TEST(EmuExecAsyncHazardDeathTest, WgmmaSourceWrittenBeforeTheWait) {
  // Every warp rewrites its part of A (and fences) after the mma: warps that
  // joined before the issue change the operand before it is read (fine); the
  // issuing warp changes it while the operation is in flight.
  Steps s;
  s.after_commit = "st.shared.f32 [%r4], 0f40490FDB;\nfence.proxy.async.shared::cta;";
  EXPECT_EXIT(run_wgmma(s), testing::ExitedWithCode(104),
              "the shared operand byte at 0x[0-9a-f]+ of this wgmma.mma_async changed between its issue "
              "and its completion(.|\n)*PTX line 37: wgmma.mma_async");
  EXPECT_EXIT(run_wgmma(s, false), testing::ExitedWithCode(104), "changed between its issue");
}

// A bulk copy to global memory from shared memory that the thread wrote.
void run_bulk_store(const std::string &fence) {
  auto dev = device_with(kernel2(R"(
mov.u32 %r1, smem;
st.shared.v4.u32 [%r1], {1, 2, 3, 4};
)" + fence + R"(
cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 16;
cp.async.bulk.commit_group;
cp.async.bulk.wait_group 0;
)",
                                 ".shared .align 128 .b8 smem[128];\n"));
  Buf<uint32_t> out(*dev, 4), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  int rc = launch(*dev, {1, 1, 1}, {1, 1, 1}, {&po, &pi});
  std::exit(rc ? rc : out[3] == 4 ? 0 : 3);
}

TEST(EmuExecAsyncHazardDeathTest, BulkCopyOfUnfencedSharedWrites) {
  EXPECT_EXIT(run_bulk_store(""), testing::ExitedWithCode(104),
              "a bulk copy to global memory reads shared 0x400 .*PTX line 17 \\(st.shared.v4.u32");
  EXPECT_EXIT(run_bulk_store("fence.proxy.async.shared::cta;"), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(run_bulk_store("fence.proxy.async;"), testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace emu::test
