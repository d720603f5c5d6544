// test/unit/emu_exec/occupancy_test.cpp - CTAs per SM (cudaOccupancy*) --------//
#include "harness.h"

namespace emu::test {
namespace {

std::string entry(const std::string &directives, const std::string &body = "") {
  return ".version 8.7\n.target sm_90a\n.address_size 64\n"
         ".visible .entry k()\n" + directives + "\n{\n" + body + "ret;\n}\n";
}

TEST(EmuOccupancy, RegistersOfTheLaunchModelBindFirst) {
  // No bounds: ptxas may use the most registers that fit one CTA (248 of 256 threads).
  auto dev = device_with(entry(""));
  EXPECT_EQ(dev->max_active_blocks("k", 256, 0), 1);
  EXPECT_EQ(dev->max_active_blocks("nope", 256, 0), -1);
  EXPECT_EQ(dev->max_active_blocks("k", 0, 0), 0);
}

TEST(EmuOccupancy, LaunchBoundsAllowTheirBlocksPerSm) {
  // __launch_bounds__(256, 4): 64 registers a thread, so 4 CTAs (8 by threads).
  auto dev = device_with(entry(".maxntid 256, 1, 1\n.minnctapersm 4"));
  EXPECT_EQ(dev->max_active_blocks("k", 256, 0), 4);
}

TEST(EmuOccupancy, ThreadsAndSharedMemoryLimit) {
  // 32 registers: 16 CTAs of 128 threads by registers and by threads (64 warps a SM).
  auto dev = device_with(entry(".maxnreg 32"));
  EXPECT_EQ(dev->max_active_blocks("k", 128, 0), 16);
  EXPECT_EQ(dev->max_active_blocks("k", 32, 0), 32) << "at most 32 CTAs an SM";
  // 100 KiB of dynamic shared memory and the 1 KiB reserved: 2 CTAs of 228 KiB.
  EXPECT_EQ(dev->max_active_blocks("k", 128, 100 * 1024), 2);
  EXPECT_EQ(dev->max_active_blocks("k", 128, 227 * 1024), 1);
  // Static shared memory counts too.
  auto dev2 = device_with(".version 8.7\n.target sm_90a\n.address_size 64\n"
                          ".visible .entry k()\n.maxnreg 32\n{\n.shared .align 16 .b8 s[120000];\n"
                          ".reg .b32 %r<2>;\nmov.u32 %r1, s;\nret;\n}\n");
  EXPECT_EQ(dev2->max_active_blocks("k", 128, 0), 1);
}

} // namespace
} // namespace emu::test
