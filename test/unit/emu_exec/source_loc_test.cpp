// test/unit/emu_exec/source_loc_test.cpp - where a report points in the .cu //
// nvcc writes `.loc F 0 C` for code it generates: a report then names the
// last earlier real line of the function, or the file alone.
#include "harness.h"

namespace emu::test {
namespace {

void run_fault(const std::string &body) {
  auto dev = device_with(kernel2(body + "\nmov.u64 %rd3, 0;\nld.global.u32 %r3, [%rd3];\n",
                                 ".file 1 \"/src/k.cu\"\n"));
  Buf<uint32_t> out(*dev, 4), in(*dev, 4);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(in.p));
  std::exit(launch(*dev, {1, 1, 1}, {1, 1, 1}, {&po, &pi}));
}

TEST(EmuExecSourceLocDeathTest, GeneratedCodeNamesTheLastRealLine) {
  EXPECT_EXIT(run_fault(".loc 1 7 5\nmov.u32 %r1, 1;\n.loc 1 0 3\n"), testing::ExitedWithCode(101),
              "out-of-bounds access(.|\n)*\n  source /src/k.cu:7:5\n");
  EXPECT_EXIT(run_fault(".loc 1 9 2\n"), testing::ExitedWithCode(101), "\n  source /src/k.cu:9:2\n");
}

TEST(EmuExecSourceLocDeathTest, NoRealLineNamesTheFileAlone) {
  EXPECT_EXIT(run_fault(".loc 1 0 3\n"), testing::ExitedWithCode(101), "\n  source /src/k.cu\n");
}

} // namespace
} // namespace emu::test
