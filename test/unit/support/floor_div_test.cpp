// floor_div_test.cpp - the one floor division of the compiler ------------------------//
#include "compiler/support/floor_div.h"

#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

namespace exgc {
namespace {

TEST(FloorDiv, RoundsTowardNegativeInfinity) {
  EXPECT_EQ(floor_div<int64_t>(-7, 2), -4);
  EXPECT_EQ(floor_div<int64_t>(7, 2), 3);
  EXPECT_EQ(floor_div<int64_t>(-8, 2), -4);
  EXPECT_EQ(floor_div<int64_t>(7, -2), -4);
  EXPECT_EQ(floor_div<int64_t>(-7, -2), 3);
  EXPECT_EQ(floor_div<int64_t>(0, 5), 0);
  for (int64_t a = -100; a <= 100; ++a)
    for (int64_t b : {int64_t(-7), int64_t(-1), int64_t(1), int64_t(3), int64_t(64)})
      EXPECT_EQ(floor_div(a, b), static_cast<int64_t>(std::floor(double(a) / double(b))))
          << a << " / " << b;
}

TEST(FloorDiv, ExtremesAndWideTypes) {
  EXPECT_EQ(floor_div<int64_t>(INT64_MIN, 1), INT64_MIN);
  EXPECT_EQ(floor_div<int64_t>(INT64_MIN + 1, 2), INT64_MIN / 2);
  EXPECT_EQ(floor_div<int64_t>(INT64_MAX, 2), INT64_MAX / 2);
  const __int128 big = __int128(INT64_MAX) * 4 + 1;
  EXPECT_TRUE(floor_div<__int128>(-big, 4) == -(__int128(INT64_MAX) + 1));
  EXPECT_TRUE(floor_div<__int128>(big, 4) == __int128(INT64_MAX));
  static_assert(floor_div(-7, 2) == -4, "usable in constant expressions");
}

} // namespace
} // namespace exgc
