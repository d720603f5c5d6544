// test/unit/emu_exec/allow_test.cpp - detectors a run allows (exg-emu --allow) //
// An allowed detector's hazards are counted and the kernel goes on; one line
// per detector reaches stderr at exit with the first report and the count.
// Other detectors still stop the run.
#include "harness.h"

namespace emu::test {
namespace {

Options allowing(std::initializer_list<Detector> ds) {
  Options o = quiet_options();
  for (Detector d : ds)
    o.allow |= 1u << unsigned(d);
  return o;
}

void run_kernel(const std::string &body, Options o, const std::string &decls = "") {
  auto dev = device_with(kernel2(body, decls), o);
  Buf<uint32_t> out(*dev, 32), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  std::exit(launch(*dev, {1, 1, 1}, {32, 1, 1}, {&po, &pi}));
}

// __shfl_xor_sync(1u << lane, lane, 1): all 32 lanes read outside their masks.
const std::string kShflOwnLane = "mov.u32 %r2, %laneid;\nshl.b32 %r3, 1, %r2;\n"
                                 "shfl.sync.bfly.b32 %r20, %r2, 1, 31, %r3;\n";

TEST(EmuExecAllowDeathTest, AllowedShflMaskWarnsOnceWithTheCount) {
  EXPECT_EXIT(run_kernel(kShflOwnLane, allowing({Detector::ShflMask})), testing::ExitedWithCode(0),
              "^exg-emu: allowed shfl-mask: lane 0 shuffles from lane 1, which is not in its member mask "
              "0x00000001 \\(the PTX ISA leaves the value undefined\\) \\[kernel k, CTA \\(0, 0, 0\\), thread "
              "\\(0, 0, 0\\), PTX line [0-9]+: shfl.sync.bfly.b32 %r20, %r2, 1, 31, %r3;\\] \\(first of 32\\)\n$");
}

TEST(EmuExecAllowDeathTest, OtherDetectorsStillStop) {
  EXPECT_EXIT(run_kernel(kShflOwnLane, allowing({Detector::AsyncProxy, Detector::AliasedPhase})),
              testing::ExitedWithCode(103), "barrier misuse: lane 0 shuffles from lane 1");
}

TEST(EmuExecAllowDeathTest, AllowedLinesComeBeforeALaterReport) {
  // A lapped parity wait (allowed), then a read outside every allocation.
  EXPECT_EXIT(run_kernel(R"(
mov.u32 %r1, bar;
mov.u32 %r2, %laneid;
setp.ne.u32 %p3, %r2, 0;
@%p3 bra $END;
mbarrier.init.shared::cta.b64 [%r1], 1;
mbarrier.arrive.shared::cta.b64 %rd3, [%r1];
mbarrier.arrive.shared::cta.b64 %rd3, [%r1];
mbarrier.arrive.shared::cta.b64 %rd3, [%r1];
$W:
mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
@!%p1 bra $W;
mov.u64 %rd4, 0;
ld.global.u32 %r5, [%rd4];
$END:
)",
                         allowing({Detector::AliasedPhase}), ".shared .align 8 .b8 bar[8];\n"),
              testing::ExitedWithCode(101),
              "^exg-emu: allowed aliased-phase: a parity wait was lapped(.|\n)*\\(first of 1\\)\n"
              "exg-emu: out-of-bounds access");
}

} // namespace
} // namespace emu::test
