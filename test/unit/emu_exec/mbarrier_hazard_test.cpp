// test/unit/emu_exec/mbarrier_hazard_test.cpp - lapped parity waits, tx-count limits //
// Exit code 103 (Hazard::BarrierMisuse) with the thread, the PTX line and the
// mbarrier named; the correct sequences next to each run clean.
#include "harness.h"

namespace emu::test {
namespace {

const char *kBar = ".shared .align 8 .b8 bar[8];\n";

void run_one_thread(const std::string &body) {
  auto dev = device_with(kernel2("mov.u32 %r1, bar;\nmbarrier.init.shared::cta.b64 [%r1], 1;\n" + body, kBar));
  Buf<uint32_t> out(*dev, 4), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  std::exit(launch(*dev, {1, 1, 1}, {1, 1, 1}, {&po, &pi}));
}

// A parity wait (spinning on try_wait) for parity P, as label L.
std::string wait_parity(int p, const std::string &label) {
  return "$" + label + ":\nmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], " + std::to_string(p) +
         ";\n@!%p1 bra $" + label + ";\n";
}
const std::string kArrive = "mbarrier.arrive.shared::cta.b64 %rd3, [%r1];\n";

TEST(EmuExecMbarrierHazardDeathTest, ParityWaitsInStepRunClean) {
  // A fresh barrier counts phase -1 (parity 1) as complete; then phases 0, 1, 2.
  EXPECT_EXIT(run_one_thread(wait_parity(1, "A") + kArrive + wait_parity(0, "B") + kArrive + wait_parity(1, "C") +
                             kArrive + wait_parity(0, "D")),
              testing::ExitedWithCode(0), "");
}

TEST(EmuExecMbarrierHazardDeathTest, ParityWaitLappedByTwoPhases) {
  // Phases 0, 1 and 2 complete before the thread's first wait for parity 0
  // (phase 0): the wait returns, but for phase 2.
  EXPECT_EXIT(run_one_thread(kArrive + kArrive + kArrive + wait_parity(0, "A")),
              testing::ExitedWithCode(103),
              "barrier misuse: a parity wait was lapped: this thread had not waited on this mbarrier before, "
              "so its wait for parity 0 is for phase 0, but phases up to 2 have completed(.|\n)*mbarrier at shared "
              "0x400(.|\n)*thread \\(0, 0, 0\\)(.|\n)*PTX line 21: mbarrier.try_wait.parity");
  // After seeing phase 0, the next parity-0 wait is for phase 2; phases 1-4 lap it.
  EXPECT_EXIT(run_one_thread(kArrive + wait_parity(0, "A") + kArrive + kArrive + kArrive + kArrive +
                             wait_parity(0, "B")),
              testing::ExitedWithCode(103), "saw phase 0 complete, so its wait for parity 0 is for phase 2, but "
                                            "phases up to 4");
  // Skipping exactly one phase (parity 0 after phase 0 with phase 1 and 2 done) is in step.
  EXPECT_EXIT(run_one_thread(kArrive + wait_parity(0, "A") + kArrive + kArrive + wait_parity(0, "B")),
              testing::ExitedWithCode(0), "");
}

TEST(EmuExecMbarrierHazardDeathTest, TxCountOverflow) {
  EXPECT_EXIT(run_one_thread("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 1048575;\n"
                             "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 1;\n"),
              testing::ExitedWithCode(103), "barrier misuse(.|\n)*PTX line 18: mbarrier.expect_tx");
}

TEST(EmuExecMbarrierHazardDeathTest, TxCountUnderflow) {
  EXPECT_EXIT(run_one_thread("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 1048575;\n"
                             "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 1;\n"),
              testing::ExitedWithCode(103), "barrier misuse(.|\n)*PTX line 18: mbarrier.complete_tx");
}

TEST(EmuExecMbarrierHazardDeathTest, ArrivalCountOverTheExpected) {
  EXPECT_EXIT(run_one_thread("mbarrier.arrive.shared::cta.b64 %rd3, [%r1], 2;\n"), testing::ExitedWithCode(103),
              "barrier misuse: mbarrier.arrive of 2 is an over-arrival(.|\n)*PTX line 17");
}

} // namespace
} // namespace emu::test
