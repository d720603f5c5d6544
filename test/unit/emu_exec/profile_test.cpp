// test/unit/emu_exec/profile_test.cpp - --profile counts by class and warpgroup //
#include "harness.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace emu::test {
namespace {

std::string read_all(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Two CTAs of two warpgroups; the second warpgroup also divides in 64 bits.
// Every warp blocks at bar.sync but one; a blocked issue is not counted, its
// run after the wake is.
TEST(EmuProfile, CountsEachClassPerWarpgroupOverCtas) {
  std::string path = ::testing::TempDir() + "exg_emu_profile_test.json";
  std::remove(path.c_str());
  Options o = quiet_options();
  o.profile = path;
  auto dev = device_with(kernel2(R"(
mov.u32 %r1, %tid.x;
shr.u32 %r2, %r1, 7;
setp.eq.u32 %p1, %r2, 1;
bar.sync 0;
@!%p1 bra $L_done;
div.u64 %rd3, %rd1, 3;
add.s64 %rd4, %rd3, 1;
$L_done:
)"),
                         o);
  uint64_t out = 0, in = 0;
  ASSERT_EQ(launch(*dev, {2, 1, 1}, {256, 1, 1}, {&out, &in}), 0);
  std::string text = read_all(path);
  EXPECT_EQ(text, "{\"kernel\": \"k\", \"grid\": [2, 1, 1], \"block\": [256, 1, 1], \"cluster\": [1, 1, 1], "
                  "\"warpgroups\": [{\"sync\": 8, \"int32\": 16, \"move\": 8, \"branch\": 16, \"ld_other\": 16}, "
                  "{\"sync\": 8, \"int32\": 16, \"int64\": 8, \"div64\": 8, \"move\": 8, \"branch\": 16, "
                  "\"ld_other\": 16}]}\n");
  // A second launch appends a line.
  ASSERT_EQ(launch(*dev, {1, 1, 1}, {32, 1, 1}, {&out, &in}), 0);
  text = read_all(path);
  EXPECT_NE(text.find("\"block\": [32, 1, 1]"), std::string::npos) << text;
  std::remove(path.c_str());
}

// A wait that blocks runs again when the phase completes: the profile counts
// that run only, so the counts do not depend on the interleaving.
TEST(EmuProfile, BlockedWaitCountsOnceWhateverTheSchedule) {
  std::string path = ::testing::TempDir() + "exg_emu_profile_wait.json";
  const std::string body = R"(
mov.u32 %r1, %tid.x;
setp.eq.u32 %p1, %r1, 0;
@%p1 mbarrier.init.shared.b64 [bar], 1;
bar.sync 0;
setp.lt.u32 %p2, %r1, 32;
@%p2 bra $L_arrive;
$L_wait:
mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;
@!%p3 bra $L_wait;
bra $L_done;
$L_arrive:
@%p1 mbarrier.arrive.shared.b64 %rd3, [bar];
$L_done:
)";
  for (uint32_t quantum : {1u, 3u, 64u})
    for (uint64_t seed : {1, 2, 3}) {
      std::remove(path.c_str());
      Options o = quiet_options(seed, /*adversarial=*/false);
      o.quantum = quantum;
      o.profile = path;
      auto dev = device_with(kernel2(body, ".shared .align 8 .b64 bar;\n"), o);
      uint64_t out = 0, in = 0;
      ASSERT_EQ(launch(*dev, {1, 1, 1}, {64, 1, 1}, {&out, &in}), 0);
      EXPECT_NE(read_all(path).find("\"warpgroups\": [{\"sync\": 6, \"int32\": 4, \"move\": 2, "
                                    "\"branch\": 6, \"ld_other\": 4}]"),
                std::string::npos)
          << "quantum " << quantum << ", seed " << seed << ": " << read_all(path);
    }
  std::remove(path.c_str());
}

TEST(EmuProfile, ClassesOfHopperInstructions) {
  auto cls = [](const std::string &line) {
    ptx::Module m;
    ptx::ParseError err;
    std::string text = kernel2(line);
    EXPECT_TRUE(ptx::parse_module(text, "t.ptx", m, err)) << err.message;
    // the body's first instruction after the two parameter loads
    return std::string(exec::profile_class_name(exec::profile_class(m.functions[0].body[2])));
  };
  EXPECT_EQ(cls("wgmma.fence.sync.aligned;"), "tensor_sync");
  EXPECT_EQ(cls("mbarrier.arrive.shared::cta.b64 %rd3, [%rd1];"), "sync");
  EXPECT_EQ(cls("ld.shared.u32 %r1, [%rd1];"), "ld_shared");
  EXPECT_EQ(cls("st.global.f32 [%rd1], %f1;"), "st_global");
  EXPECT_EQ(cls("fma.rn.f32 %f1, %f2, %f3, %f4;"), "float");
  EXPECT_EQ(cls("rem.s64 %rd3, %rd1, %rd2;"), "div64");
  EXPECT_EQ(cls("shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;"), "warp");
  EXPECT_EQ(cls("cvt.rn.bf16x2.f32 %r1, %f1, %f2;"), "convert");
  EXPECT_EQ(cls("prefetch.param.tensormap [%rd1];"), "other");
}

} // namespace
} // namespace emu::test
