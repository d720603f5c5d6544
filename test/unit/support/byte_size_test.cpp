// byte_size_test.cpp - byte counts on the command line (--max-*-size) -------//
#include <gtest/gtest.h>

#include "compiler/support/byte_size.h"

namespace {

using exgc::byte_size_string;
using exgc::parse_byte_size;

TEST(ByteSize, ParsesDigitsAndPowerOf1024Suffixes) {
  uint64_t b = 0;
  ASSERT_TRUE(parse_byte_size("1048576", b));
  EXPECT_EQ(b, 1048576u);
  ASSERT_TRUE(parse_byte_size("4G", b));
  EXPECT_EQ(b, uint64_t(4) << 30);
  ASSERT_TRUE(parse_byte_size("512m", b));
  EXPECT_EQ(b, uint64_t(512) << 20);
  ASSERT_TRUE(parse_byte_size("0", b));
  EXPECT_EQ(b, 0u);
  ASSERT_TRUE(parse_byte_size("16777215T", b));
  EXPECT_EQ(b, uint64_t(16777215) << 40);
}

TEST(ByteSize, RejectsOtherTextAndOverflow) {
  uint64_t b = 7;
  for (const char *bad : {"", "G", "4GB", "-1", "1.5G", "4 G", "16777216T",
                          "18446744073709551616", "99999999999999999999999"})
    EXPECT_FALSE(parse_byte_size(bad, b)) << bad;
  EXPECT_EQ(b, 7u);
}

TEST(ByteSize, PrintsTheLargestExactUnit) {
  EXPECT_EQ(byte_size_string(uint64_t(4) << 30), "4 GiB");
  EXPECT_EQ(byte_size_string(uint64_t(1536) << 20), "1536 MiB");
  EXPECT_EQ(byte_size_string(1024), "1 KiB");
  EXPECT_EQ(byte_size_string(1000), "1000 bytes");
  EXPECT_EQ(byte_size_string(uint64_t(3) << 50), "3072 TiB");
}

} // namespace
