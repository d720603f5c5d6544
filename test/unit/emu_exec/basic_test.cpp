// test/unit/emu_exec/basic_test.cpp - a first kernel runs: loads, stores, tid //
#include "harness.h"

namespace emu::test {
namespace {

TEST(EmuExecBasic, CopiesPlusThreadIndex) {
  auto dev = device_with(kernel2(R"(
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mad.lo.s32 %r4, %r2, %r3, %r1;
mul.wide.s32 %rd3, %r4, 4;
add.s64 %rd4, %rd2, %rd3;
ld.global.u32 %r5, [%rd4];
add.s32 %r6, %r5, %r4;
add.s64 %rd5, %rd1, %rd3;
st.global.u32 [%rd5], %r6;
)"));
  std::vector<uint32_t> in(256);
  for (int i = 0; i < 256; ++i)
    in[i] = 1000 + i * 3;
  Buf<uint32_t> a(*dev, in), out(*dev, 256);
  uint64_t po = uint64_t(uintptr_t(out.p)), pi = uint64_t(uintptr_t(a.p));
  ASSERT_EQ(launch(*dev, {4, 1, 1}, {64, 1, 1}, {&po, &pi}), 0);
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(out[i], in[i] + uint32_t(i)) << i;
}

} // namespace
} // namespace emu::test
