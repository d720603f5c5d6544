// convert_test.cpp - the number formats of emu/sm90/convert.h at their edges:
// subnormals, the largest finite values, infinities, NaN, and ties.
#include "emu/sm90/convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace emu::sm90;

TEST(Sm90Convert, Tf32TruncatesTheLow13Bits) {
  // PTX ISA 9.7.15.5.2: truncation, so 1 + 2^-11 (bit 12) reads as 1 and
  // 1 + 2^-10 + 2^-11 as 1 + 2^-10, where rounding would give 1 + 2^-9.
  EXPECT_EQ(tf32_truncate(1.0f + 0x1p-11f), 1.0f);
  EXPECT_EQ(tf32_truncate(1.0f + 0x1p-10f), 1.0f + 0x1p-10f);
  EXPECT_EQ(tf32_truncate(1.0f + 0x1p-10f + 0x1p-11f), 1.0f + 0x1p-10f);
  EXPECT_EQ(tf32_truncate(-(1.0f + 0x1p-11f)), -1.0f);
  EXPECT_EQ(tf32_truncate(0x1p-149f), 0.0f);              // smallest subnormal: bit 0
  EXPECT_EQ(tf32_truncate(0x1p-136f), 0x1p-136f);         // bit 13 survives
  EXPECT_EQ(tf32_truncate(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(tf32_truncate(f32_from_bits(0x7F800001u)))); // payload only in dropped bits
  EXPECT_TRUE(std::isnan(tf32_truncate(NAN)));
}

TEST(Sm90Convert, F16DecodesExactly) {
  EXPECT_EQ(f16_to_f32(0x3C00), 1.0f);
  EXPECT_EQ(f16_to_f32(0x0001), 0x1p-24f);
  EXPECT_EQ(f16_to_f32(0x03FF), 1023 * 0x1p-24f);
  EXPECT_EQ(f16_to_f32(0x0400), 0x1p-14f);
  EXPECT_EQ(f16_to_f32(0x7BFF), 65504.0f);
  EXPECT_EQ(f16_to_f32(0x7C00), INFINITY);
  EXPECT_EQ(f16_to_f32(0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(f16_to_f32(0x7E00)));
  EXPECT_TRUE(std::isnan(f16_to_f32(0x7C01)));
  EXPECT_TRUE(std::signbit(f16_to_f32(0x8000)));
}

TEST(Sm90Convert, Bf16DecodesExactly) {
  EXPECT_EQ(bf16_to_f32(0x3F80), 1.0f);
  EXPECT_EQ(bf16_to_f32(0x0001), 0x1p-133f);
  EXPECT_EQ(bf16_to_f32(0x7F7F), 0x1.FEp127f);
  EXPECT_EQ(bf16_to_f32(0xFF80), -INFINITY);
  EXPECT_TRUE(std::isnan(bf16_to_f32(0x7FC0)));
}

TEST(Sm90Convert, Fp8DecodesExactly) {
  EXPECT_EQ(e4m3_to_f32(0x38), 1.0f);
  EXPECT_EQ(e4m3_to_f32(0x7E), 448.0f);      // largest finite: E4M3 has no infinity
  EXPECT_TRUE(std::isnan(e4m3_to_f32(0x7F)));
  EXPECT_TRUE(std::isnan(e4m3_to_f32(0xFF)));
  EXPECT_EQ(e4m3_to_f32(0x78), 256.0f);      // exponent 15 is an ordinary binade
  EXPECT_EQ(e4m3_to_f32(0x01), 0x1p-9f);     // smallest subnormal
  EXPECT_EQ(e4m3_to_f32(0x07), 7 * 0x1p-9f);
  EXPECT_EQ(e4m3_to_f32(0x08), 0x1p-6f);     // smallest normal
  EXPECT_EQ(e4m3_to_f32(0xB8), -1.0f);
  EXPECT_EQ(e5m2_to_f32(0x3C), 1.0f);
  EXPECT_EQ(e5m2_to_f32(0x7B), 57344.0f);
  EXPECT_EQ(e5m2_to_f32(0x7C), INFINITY);
  EXPECT_EQ(e5m2_to_f32(0xFC), -INFINITY);
  EXPECT_TRUE(std::isnan(e5m2_to_f32(0x7D)));
  EXPECT_EQ(e5m2_to_f32(0x01), 0x1p-16f);
  EXPECT_EQ(e5m2_to_f32(0x04), 0x1p-14f);
}

TEST(Sm90Convert, F16RoundsToNearestEven) {
  EXPECT_EQ(f32_to_f16_rn(1.0f), 0x3C00);
  EXPECT_EQ(f32_to_f16_rn(1.0f + 0x1p-11f), 0x3C00);       // tie, to even
  EXPECT_EQ(f32_to_f16_rn(1.0f + 3 * 0x1p-11f), 0x3C02);   // tie, to even (up)
  EXPECT_EQ(f32_to_f16_rn(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
  EXPECT_EQ(f32_to_f16_rn(65504.0f), 0x7BFF);
  EXPECT_EQ(f32_to_f16_rn(65519.0f), 0x7BFF);
  EXPECT_EQ(f32_to_f16_rn(65520.0f), 0x7C00);              // the tie above the max: infinity
  EXPECT_EQ(f32_to_f16_rn(-1e9f), 0xFC00);
  EXPECT_EQ(f32_to_f16_rn(0x1p-24f), 0x0001);
  EXPECT_EQ(f32_to_f16_rn(0x1p-25f), 0x0000);              // tie between 0 and 2^-24
  EXPECT_EQ(f32_to_f16_rn(3 * 0x1p-25f), 0x0002);
  EXPECT_EQ(f32_to_f16_rn(0x1p-14f - 0x1p-26f), 0x0400);   // rounds up into the normals
  EXPECT_EQ(f32_to_f16_rn(-0.0f), 0x8000);
  EXPECT_EQ(f32_to_f16_rn(NAN) & 0x7E00, 0x7E00);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = f16_to_f32(uint16_t(h));
    if (!std::isnan(f))
      ASSERT_EQ(f32_to_f16_rn(f), h) << std::hex << h;
  }
}

TEST(Sm90Convert, Bf16RoundsToNearestEven) {
  EXPECT_EQ(f32_to_bf16_rn(1.0f + 0x1p-8f), 0x3F80);        // tie, to even
  EXPECT_EQ(f32_to_bf16_rn(1.0f + 3 * 0x1p-8f), 0x3F82);
  EXPECT_EQ(f32_to_bf16_rn(1.0f + 0x1p-8f + 0x1p-20f), 0x3F81);
  EXPECT_EQ(f32_to_bf16_rn(f32_from_bits(0x7F7FFFFFu)), 0x7F80); // FLT_MAX rounds to infinity
  EXPECT_EQ(f32_to_bf16_rn(0x1p-133f), 0x0001);
  EXPECT_EQ(f32_to_bf16_rn(-INFINITY), 0xFF80);
  EXPECT_EQ(f32_to_bf16_rn(NAN) & 0x7FC0, 0x7FC0);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = bf16_to_f32(uint16_t(h));
    if (!std::isnan(f))
      ASSERT_EQ(f32_to_bf16_rn(f), h) << std::hex << h;
  }
}
