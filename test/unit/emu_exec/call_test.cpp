// test/unit/emu_exec/call_test.cpp - .func calls, recursion, and printf -----//
#include "harness.h"

#include <fstream>
#include <sstream>

namespace emu::test {
namespace {

// fib(n) by double recursion: each activation keeps n and the first result
// in registers across the second call, so a lost save or restore shows.
const char *kFib = R"(.version 8.7
.target sm_90a
.address_size 64
.func (.param .b32 fib_r) fib(.param .b32 fib_n)
{
.reg .pred %p<2>;
.reg .b32 %r<8>;
ld.param.b32 %r1, [fib_n];
setp.lt.s32 %p1, %r1, 2;
@%p1 bra $BASE;
add.s32 %r2, %r1, -1;
{
.param .b32 a0;
.param .b32 r0;
st.param.b32 [a0], %r2;
call.uni (r0), fib, (a0);
ld.param.b32 %r3, [r0];
}
add.s32 %r4, %r1, -2;
{
.param .b32 a0;
.param .b32 r0;
st.param.b32 [a0], %r4;
call.uni (r0), fib, (a0);
ld.param.b32 %r5, [r0];
}
add.s32 %r6, %r3, %r5;
st.param.b32 [fib_r], %r6;
ret;
$BASE:
st.param.b32 [fib_r], %r1;
ret;
}
.func forever(.param .b32 f_n)
{
.reg .b32 %r<2>;
ld.param.b32 %r1, [f_n];
{
.param .b32 a0;
st.param.b32 [a0], %r1;
call.uni forever, (a0);
}
ret;
}
.visible .entry k(.param .u64 out, .param .u32 mode)
{
.reg .pred %p<2>;
.reg .b32 %r<8>;
.reg .b64 %rd<8>;
ld.param.u64 %rd1, [out];
ld.param.u32 %r7, [mode];
mov.u32 %r1, %tid.x;
setp.ne.u32 %p1, %r7, 0;
@%p1 bra $FOREVER;
{
.param .b32 a0;
.param .b32 r0;
st.param.b32 [a0], %r1;
call.uni (r0), fib, (a0);
ld.param.b32 %r2, [r0];
}
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r2;
ret;
$FOREVER:
{
.param .b32 a0;
st.param.b32 [a0], %r1;
call.uni forever, (a0);
}
ret;
}
)";

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

TEST(EmuExecCall, RecursiveFuncWithDivergentDepths) {
  for (uint64_t seed : {1, 2, 3}) {
    auto dev = device_with(kFib, quiet_options(seed));
    Buf<uint32_t> out(*dev, 40);
    uint64_t po = uint64_t(uintptr_t(out.p));
    uint32_t mode = 0;
    ASSERT_EQ(launch(*dev, {1, 1, 1}, {16, 1, 1}, {&po, &mode}), 0);
    for (int t = 0; t < 16; ++t)
      EXPECT_EQ(out[t], uint32_t(fib(t))) << "thread " << t << " seed " << seed;
  }
}

TEST(EmuExecCallDeathTest, UnboundedRecursionIsReported) {
  auto run = [] {
    auto dev = device_with(kFib);
    Buf<uint32_t> out(*dev, 4);
    uint64_t po = uint64_t(uintptr_t(out.p));
    uint32_t mode = 1;
    std::exit(launch(*dev, {1, 1, 1}, {1, 1, 1}, {&po, &mode}));
  };
  EXPECT_EXIT(run(), testing::ExitedWithCode(107),
              "bad program: call of forever nested 64 calls deep in this thread: unbounded "
              "recursion\\?(.|\n)*call.uni forever");
}

std::string data(const std::string &name) {
  std::ifstream f(std::string(EXGC_SOURCE_DIR) + "/test/unit/emu_exec/data/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// nvcc's own PTX (data/printf_calls.cu): two .func calls, one returning a
// struct, then printf; the host prints the same format and arguments.
TEST(EmuExecCall, NvccPrintfAndStructReturns) {
  auto dev = device_with(data("printf_calls.ptx"));
  Buf<int> out(*dev, 4);
  Buf<char> name(*dev, std::vector<char>{'k', 'e', 'r', 'n', 'e', 'l', 0});
  uint64_t po = uint64_t(uintptr_t(out.p)), pn = uint64_t(uintptr_t(name.p));
  double x = 2.5;
  std::fflush(stdout);
  testing::internal::CaptureStdout();
  int rc = launch(*dev, {1, 1, 1}, {4, 1, 1}, {&po, &pn, &x}, 0, {1, 1, 1}, "printf_calls");
  std::fflush(stdout);
  std::string got = testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0);
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(out[t], 2 * t + 3 * t) << t;
  std::string want;
  for (int t = 0; t < 3; ++t) {
    char b[512];
    std::snprintf(b, sizeof b,
                  "t=%d [%4i] [%-4d] u=%u x=%x X=%#X o=%o c=%c s=%s [%-8s|%.3s] f=%f [%8.3f] e=%e g=%g "
                  "p=%p ld=%ld lld=%lld hd=%hd hhx=%hhx [%*d] %% b=%.2f\n",
                  t, t, t, 42u + t, 255 + t, 255, 8, 'A' + t, "kernel", "pad", "kernel", x / 2, x, 12345.678,
                  0.0001, (void *)out.p, -5L, 1LL << 40, (short)-3, (unsigned char)0xff, 6, t, x / 3);
    want += b;
  }
  // Threads print whole lines in the order they run: compare as sorted lines.
  auto lines = [](const std::string &s) {
    std::vector<std::string> v;
    std::stringstream ss(s);
    for (std::string l; std::getline(ss, l);)
      v.push_back(l);
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(lines(got), lines(want));
}

} // namespace
} // namespace emu::test
