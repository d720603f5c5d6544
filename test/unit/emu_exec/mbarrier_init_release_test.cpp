// test/unit/emu_exec/mbarrier_init_release_test.cpp - inits another CTA uses //
// A remote arrive on an mbarrier whose init nothing released at cluster scope
// is Hazard::BarrierMisuse (103); fence.mbarrier_init, or a barrier.cluster.arrive
// with its default .release, makes it clean; same-CTA use needs neither.
#include "harness.h"

namespace emu::test {
namespace {

const char *kBar = ".shared .align 8 .b8 bar[8];\n";

// Two 1-thread CTAs in a cluster: CTA 0 initializes its mbarrier and runs
// `publish`, both meet at a cluster barrier (arrive `arrive`), then CTA 1
// arrives remotely on CTA 0's mbarrier and CTA 0 waits for that phase.
void run_pair(const std::string &publish, const std::string &arrive) {
  auto dev = device_with(kernel2(R"(
mov.u32 %r1, %cluster_ctarank;
mov.u32 %r2, bar;
setp.ne.u32 %p1, %r1, 0;
@%p1 bra $MEET;
mbarrier.init.shared::cta.b64 [%r2], 1;
)" + publish + R"(
$MEET:
)" + arrive + R"(
barrier.cluster.wait.acquire.aligned;
@!%p1 bra $WAIT;
mapa.shared::cluster.u32 %r6, %r2, 0;
mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r6];
bra $CLOSE;
$WAIT:
mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
@!%p2 bra $WAIT;
$CLOSE:
barrier.cluster.arrive.release.aligned;
barrier.cluster.wait.acquire.aligned;
)",
                                 kBar));
  Buf<uint32_t> out(*dev, 4), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  std::exit(launch(*dev, {2, 1, 1}, {1, 1, 1}, {&po, &pi}, 0, {2, 1, 1}));
}

const std::string kRelaxedArrive = "barrier.cluster.arrive.relaxed.aligned;\n";
const std::string kReleaseArrive = "barrier.cluster.arrive.aligned;\n";

TEST(EmuExecMbarrierInitReleaseDeathTest, RemoteArriveOnAnUnreleasedInit) {
  EXPECT_EXIT(run_pair("", kRelaxedArrive), testing::ExitedWithCode(103),
              "barrier misuse: a remote mbarrier operation of CTA rank 1 operates on the mbarrier at shared 0x400 "
              "of CTA rank 0, whose mbarrier.init \\(by thread 0 of that CTA\\) was not released to the cluster"
              "(.|\n)*CTA \\(1, 0, 0\\)(.|\n)*mbarrier.arrive.release.cluster.shared::cluster");
  // A fence at CTA scope releases nothing to the cluster.
  EXPECT_EXIT(run_pair("fence.acq_rel.cta;\n", kRelaxedArrive), testing::ExitedWithCode(103), "was not released");
}

TEST(EmuExecMbarrierInitReleaseDeathTest, ReleasedInitsRunClean) {
  // The ISA's pattern: fence.mbarrier_init, then a relaxed cluster arrive.
  EXPECT_EXIT(run_pair("fence.mbarrier_init.release.cluster;\n", kRelaxedArrive), testing::ExitedWithCode(0), "");
  // barrier.cluster.arrive releases by default; so does a cluster-scope fence.
  EXPECT_EXIT(run_pair("", kReleaseArrive), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(run_pair("fence.acq_rel.cluster;\n", kRelaxedArrive), testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace emu::test
