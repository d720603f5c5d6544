// test/unit/emu_exec/cluster_exit_test.cpp - shared memory of an exited CTA --//
// A CTA's shared memory is gone once all its threads have exited: a peer's
// remote arrive into it is Hazard::OutOfBounds (101); the same arrive before a
// closing cluster barrier runs clean.
#include "harness.h"

namespace emu::test {
namespace {

const char *kBar = ".shared .align 8 .b8 bar[8];\n";

// Two 1-thread CTAs in a cluster; CTA 0 initializes its mbarrier, the cluster
// barrier publishes it, then `tail` runs (%p1: this is CTA 1; %r2: the
// mbarrier's shared::cta address).
void run_pair(const std::string &tail, Options o = quiet_options()) {
  auto dev = device_with(kernel2(R"(
mov.u32 %r1, %cluster_ctarank;
mov.u32 %r2, bar;
setp.ne.u32 %p1, %r1, 0;
@%p1 bra $PUBLISH;
mbarrier.init.shared::cta.b64 [%r2], 1;
fence.mbarrier_init.release.cluster;
$PUBLISH:
barrier.cluster.arrive.release.aligned;
barrier.cluster.wait.acquire.aligned;
)" + tail,
                                 kBar),
                         o);
  Buf<uint32_t> out(*dev, 4), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  std::exit(launch(*dev, {2, 1, 1}, {1, 1, 1}, {&po, &pi}, 0, {2, 1, 1}));
}

// CTA 0 raises a flag in global memory and exits; CTA 1 waits for the flag,
// spins a while, then arrives on CTA 0's mbarrier.
const char *kArriveAfterExit = R"(
@%p1 bra $PEER;
mov.u32 %r3, 1;
st.global.u32 [%rd1], %r3;
exit;
$PEER:
ld.volatile.global.u32 %r4, [%rd1];
setp.eq.u32 %p2, %r4, 0;
@%p2 bra $PEER;
mov.u32 %r5, 0;
$SPIN:
add.u32 %r5, %r5, 1;
setp.lt.u32 %p3, %r5, 200;
@%p3 bra $SPIN;
mapa.shared::cluster.u32 %r6, %r2, 0;
mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r6];
)";

TEST(EmuExecClusterExitDeathTest, RemoteArriveIntoAnExitedCta) {
  EXPECT_EXIT(run_pair(kArriveAfterExit), testing::ExitedWithCode(101),
              "out-of-bounds access: read of 8 bytes at shared::cluster address 0x1000400 \\(CTA rank 0 of the "
              "cluster has exited; its shared memory is gone\\)(.|\n)*CTA \\(1, 0, 0\\)(.|\n)*mbarrier.arrive");
}

TEST(EmuExecClusterExitDeathTest, RemoteArriveBeforeAClosingClusterBarrierRunsClean) {
  EXPECT_EXIT(run_pair(R"(
@!%p1 bra $CLOSE;
mapa.shared::cluster.u32 %r6, %r2, 0;
mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r6];
$CLOSE:
barrier.cluster.arrive.release.aligned;
barrier.cluster.wait.acquire.aligned;
)"),
              testing::ExitedWithCode(0), "");
}

TEST(EmuExecClusterExitDeathTest, AllowedExitedCtaGoesOnAndSaysSoOnce) {
  Options o = quiet_options();
  o.allow |= 1u << unsigned(Detector::ExitedCta);
  EXPECT_EXIT(run_pair(kArriveAfterExit, o), testing::ExitedWithCode(0),
              "^exg-emu: allowed exited-cta: read of 8 bytes at shared::cluster address 0x1000400 \\(CTA rank 0 "
              "of the cluster has exited; its shared memory is gone\\)(.|\n)*\\(first of 1\\)\n$");
}

} // namespace
} // namespace emu::test
