// tma_test.cpp - tiled TMA boxes against the ISA's swizzle tables (PTX ISA
// 5.5.7), a brute-force reference written from the tensor-map definition, and
// exg/sm90_layout.h's host view of the same boxes.
#include "emu/sm90/tma.h"

#include "emu/sm90/convert.h"
#include "../../../runtime/include/exg/sm90_layout.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace emu::sm90;

namespace {

// The ISA's tables: row l of the destination lists the source 16-byte chunk
// held at each of the 8 chunk positions of a 128-byte shared-memory line.
const int kTable32[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}};
const int kTable64[4][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6},
                            {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4}};
const int kTable128[8][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6},
                             {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4},
                             {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2},
                             {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}};

// Global memory for the tests: a byte vector at a fake device address.
struct Global {
  uint64_t base = 0x7000000000ull;
  std::vector<uint8_t> bytes;
  GlobalRead reader() {
    return [this](uint64_t a, void *dst, uint32_t n) {
      if (a < base || a + n > base + bytes.size())
        return false;
      std::memcpy(dst, bytes.data() + (a - base), n);
      return true;
    };
  }
  GlobalWrite writer() {
    return [this](uint64_t a, const void *src, uint32_t n) {
      if (a < base || a + n > base + bytes.size())
        return false;
      std::memcpy(bytes.data() + (a - base), src, n);
      return true;
    };
  }
};

TensorMap dense_map(TmaType type, uint32_t rank, const uint64_t *dims, const uint32_t *box,
                    uint64_t base, TmaSwizzle s = TmaSwizzle::None) {
  TensorMap m;
  m.type = type;
  m.rank = rank;
  m.global_address = base;
  m.swizzle = s;
  uint64_t pitch = tma_type_bytes(type);
  for (uint32_t d = 0; d < rank; ++d) {
    m.global_dim[d] = dims[d];
    m.global_stride[d] = pitch;
    m.box_dim[d] = box[d];
    m.element_stride[d] = 1;
    pitch *= dims[d];
    if (d == 0)
      pitch = (pitch + 15) / 16 * 16; // rows padded to 16 bytes, as the driver needs
  }
  return m;
}

// The ISA's line/chunk statement of the swizzle, independent of the bit trick.
uint32_t swizzle_by_table(TmaSwizzle s, uint32_t addr) {
  uint32_t line = addr / 128, chunk = (addr / 16) % 8, byte = addr % 16;
  int pos = int(chunk);
  for (int p = 0; p < 8; ++p) {
    int src = s == TmaSwizzle::B32    ? kTable32[line % 2][p]
              : s == TmaSwizzle::B64  ? kTable64[line % 4][p]
              : s == TmaSwizzle::B128 ? kTable128[line % 8][p]
                                      : p;
    if (src == int(chunk))
      pos = p;
  }
  return line * 128 + uint32_t(pos) * 16 + byte;
}

} // namespace

TEST(Sm90Tma, SwizzleMatchesTheIsaTables) {
  for (TmaSwizzle s : {TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128})
    for (uint32_t a = 0; a < 4096; ++a)
      ASSERT_EQ(tma_swizzle_address(s, a), swizzle_by_table(s, a)) << int(s) << " " << a;
}

TEST(Sm90Tma, SharedAlignment) {
  uint64_t dims[2] = {64, 64};
  uint32_t box[2] = {32, 8};
  TensorMap m = dense_map(TmaType::Float32, 2, dims, box, 0x1000, TmaSwizzle::B128);
  int32_t c[2] = {0, 0};
  TmaBox b;
  EXPECT_EQ(tma_box(m, c, 0x480, &b), ""); // 128-aligned, off the 1024 repeat: allowed
  EXPECT_NE(tma_box(m, c, 0x440, &b).find("not 128-byte aligned"), std::string::npos);
  m.swizzle = TmaSwizzle::None;
  EXPECT_EQ(tma_box(m, c, 0x410, &b), "");
  EXPECT_NE(tma_box(m, c, 0x408, &b).find("not 16-byte aligned"), std::string::npos);
}

TEST(Sm90Tma, OffRepeatDestinationShiftsThePatternByTheBaseOffset) {
  // ISA 5.5.7: at dstMem off the 1024-byte boundary the 128B pattern starts at
  // row (dstMem / 128) % 8; the programming guide writes it smem[y][((y+o)%8)^x].
  uint64_t dims[2] = {32, 8};
  uint32_t box[2] = {32, 8};
  TensorMap m = dense_map(TmaType::Float32, 2, dims, box, 0x1000, TmaSwizzle::B128);
  int32_t c[2] = {0, 0};
  TmaBox b;
  const uint32_t dst = 0x2000 + 3 * 128;
  ASSERT_EQ(tma_box(m, c, dst, &b), "");
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) // 16-byte chunk x of row y
      EXPECT_EQ(b.elements[y * 32 + x * 4].smem_offset, y * 128 + (((y + 3) % 8) ^ x) * 16);
}

TEST(Sm90Tma, InnerExtentBelowTheSwizzleSpanIsRefused) {
  uint64_t dims[2] = {64, 64};
  uint32_t box[2] = {16, 8}; // 64 bytes in a 128-byte swizzle
  TensorMap m = dense_map(TmaType::Float32, 2, dims, box, 0x1000, TmaSwizzle::B128);
  int32_t c[2] = {0, 0};
  TmaBox b;
  EXPECT_NE(tma_box(m, c, 0, &b).find("narrower than the 128-byte swizzle span"), std::string::npos);
}

TEST(Sm90Tma, BoxAgreesWithSm90LayoutHeader) {
  // exg/sm90_layout.h's box_element_offset is what exgc's kernels index TMA
  // tiles with; the emulator's independent reading must agree on 1024-byte
  // aligned tiles, for each element size and swizzle.
  struct Case {
    TmaType t;
    uint32_t esize;
    TmaSwizzle s;
    exg::sm90::Swizzle hs;
  } cases[] = {{TmaType::Float32, 4, TmaSwizzle::B128, exg::sm90::Swizzle::B128},
               {TmaType::BFloat16, 2, TmaSwizzle::B128, exg::sm90::Swizzle::B128},
               {TmaType::Float16, 2, TmaSwizzle::B64, exg::sm90::Swizzle::B64},
               {TmaType::Float32, 4, TmaSwizzle::B32, exg::sm90::Swizzle::B32},
               {TmaType::Float32, 4, TmaSwizzle::None, exg::sm90::Swizzle::None}};
  for (const Case &cs : cases) {
    uint32_t row_bytes = cs.s == TmaSwizzle::None ? 64 : 16u << uint32_t(cs.s);
    uint32_t cols = row_bytes / cs.esize;
    uint64_t dims[3] = {cols * 3, 40, 3};
    uint32_t box[3] = {cols, 24, 2};
    TensorMap m = dense_map(cs.t, 3, dims, box, 0x1000, cs.s);
    int32_t c[3] = {int32_t(cols), 5, 1};
    TmaBox b;
    ASSERT_EQ(tma_box(m, c, 0x4000, &b), "");
    for (uint32_t i = 0; i < b.elements.size(); ++i) {
      uint32_t row = i / cols, col = i % cols;
      ASSERT_EQ(b.elements[i].smem_offset,
                exg::sm90::box_element_offset(cs.hs, row_bytes, row, col, cs.esize))
          << "type " << int(cs.t) << " element " << i;
    }
  }
}

TEST(Sm90Tma, LoadMatchesBruteForceWithOobAndStrides) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const uint32_t rank = 1 + trial % 5;
    const TmaSwizzle sw = TmaSwizzle(trial % 4);
    const uint32_t esize = trial % 3 == 0 ? 2 : 4;
    const TmaType type = esize == 2 ? TmaType::Float16 : TmaType::Float32;
    const uint32_t span = sw == TmaSwizzle::None ? 16u * (1 + rng() % 3) : 16u << uint32_t(sw);
    uint64_t dims[5];
    uint32_t box[5];
    box[0] = span / esize;
    dims[0] = box[0] + rng() % 9;
    for (uint32_t d = 1; d < rank; ++d) {
      dims[d] = 1 + rng() % 6;
      box[d] = 1 + rng() % 5;
    }
    Global g;
    TensorMap m = dense_map(type, rank, dims, box, g.base + 256, sw);
    for (uint32_t d = 1; d < rank; ++d)
      m.element_stride[d] = 1 + rng() % 3;
    m.element_stride[0] = 1 + rng() % 3; // ignored without interleave
    g.bytes.resize(256 + m.global_stride[rank - 1] * dims[rank - 1]);
    for (auto &byte : g.bytes)
      byte = uint8_t(rng());
    int32_t coords[5];
    for (uint32_t d = 0; d < rank; ++d)
      coords[d] = int32_t(rng() % (dims[d] + 4)) - 2;
    const uint32_t smem = 0x1000 + (sw == TmaSwizzle::None ? 16 * (rng() % 8) : 128 * (rng() % 8));
    std::vector<uint8_t> image;
    TmaBox b;
    ASSERT_EQ(tma_load(m, coords, smem, g.reader(), &image, &b), "");

    // Brute force: walk the traversed elements, innermost fastest.
    uint32_t n[5] = {1, 1, 1, 1, 1}, total = 1;
    for (uint32_t d = 0; d < rank; ++d) {
      n[d] = d == 0 ? box[0] : (box[d] + m.element_stride[d] - 1) / m.element_stride[d];
      total *= n[d];
    }
    ASSERT_EQ(b.bytes, total * esize) << "complete_tx counts every traversed element";
    ASSERT_EQ(image.size(), b.bytes);
    for (uint32_t linear = 0; linear < total; ++linear) {
      uint32_t rest = linear;
      bool inside = true;
      uint64_t off = 256;
      for (uint32_t d = 0; d < rank; ++d) {
        int64_t c = coords[d] + int64_t(rest % n[d]) * (d == 0 ? 1 : m.element_stride[d]);
        rest /= n[d];
        inside = inside && c >= 0 && c < int64_t(dims[d]);
        off += uint64_t(c) * m.global_stride[d];
      }
      uint32_t at = swizzle_by_table(sw, smem + linear * esize) - smem;
      for (uint32_t k = 0; k < esize; ++k)
        ASSERT_EQ(image[at + k], inside ? g.bytes[off + k] : 0)
            << "trial " << trial << " element " << linear;
    }
  }
}

TEST(Sm90Tma, OobNanFillAndItsBits) {
  uint64_t dims[2] = {8, 2};
  uint32_t box[2] = {8, 2};
  Global g;
  g.bytes.assign(64, 0);
  TensorMap m = dense_map(TmaType::Float32, 2, dims, box, g.base);
  m.oob_fill = TmaOobFill::NanRequestZeroFma;
  int32_t c[2] = {-1, 1};
  std::vector<uint8_t> image;
  TmaBox b;
  ASSERT_EQ(tma_load(m, c, 0, g.reader(), &image, &b), "");
  uint32_t first, second;
  std::memcpy(&first, image.data(), 4);      // (-1, 1): outside
  std::memcpy(&second, image.data() + 4, 4); // (0, 1): inside, zero
  EXPECT_EQ(first, 0x7FFFFFFFu);
  EXPECT_EQ(second, 0u);
  std::memcpy(&first, image.data() + 32, 4); // row 2: outside
  EXPECT_EQ(first, 0x7FFFFFFFu);
}

TEST(Sm90Tma, StoreWritesInBoundsElementsOnly) {
  uint64_t dims[2] = {10, 3};
  uint32_t box[2] = {8, 4};
  Global g;
  TensorMap m = dense_map(TmaType::Float32, 2, dims, box, g.base, TmaSwizzle::B32);
  g.bytes.assign(m.global_stride[1] * 3, 0xAB);
  std::vector<uint8_t> image(8 * 4 * 4);
  for (size_t i = 0; i < image.size(); ++i)
    image[i] = uint8_t(i);
  int32_t c[2] = {4, 1};
  TmaBox b;
  ASSERT_EQ(tma_store(m, c, 0x100, image.data(), g.writer(), &b), "");
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 10; ++x) {
      bool written = y >= 1 && x >= 4;
      uint32_t linear = (y - 1) * 8 + (x - 4);
      uint32_t at = written ? swizzle_by_table(TmaSwizzle::B32, 0x100 + linear * 4) - 0x100 : 0;
      EXPECT_EQ(g.bytes[y * m.global_stride[1] + x * 4], written ? image[at] : 0xAB) << x << "," << y;
    }
  int32_t negative[2] = {-1, 0};
  EXPECT_NE(tma_store(m, negative, 0x100, image.data(), g.writer(), &b).find("non-negative"),
            std::string::npos);
}

TEST(Sm90Tma, ReduceOperations) {
  uint64_t dims[1] = {8};
  uint32_t box[1] = {8};
  Global g;
  g.bytes.assign(64, 0);
  TmaBox b;
  int32_t c[1] = {0};
  auto run = [&](TmaType t, TmaReduceOp op, const void *old, const void *src, uint32_t esize) {
    TensorMap m = dense_map(t, 1, dims, box, g.base);
    m.box_dim[0] = 16 / esize;
    std::memcpy(g.bytes.data(), old, 16);
    std::string why = tma_reduce(m, op, c, 0, static_cast<const uint8_t *>(src), g.reader(),
                                 g.writer(), &b);
    EXPECT_EQ(why, "");
  };
  float fo[4] = {1.0f, -2.0f, 0x1p-140f, 1e30f}, fs[4] = {0.5f, 2.0f, 0x1p-140f, 1e30f};
  run(TmaType::Float32, TmaReduceOp::Add, fo, fs, 4);
  float fr[4];
  std::memcpy(fr, g.bytes.data(), 16);
  EXPECT_EQ(fr[0], 1.5f);
  EXPECT_EQ(fr[1], 0.0f);
  EXPECT_EQ(fr[2], 0x1p-139f); // subnormals kept
  EXPECT_EQ(fr[3], 2e30f);
  uint16_t ho[8] = {0x3C00, 0x7BFF, 0x3C00}, hs[8] = {0x1400, 0x7BFF, 0x0001};
  run(TmaType::Float16, TmaReduceOp::Add, ho, hs, 2);
  uint16_t hr[8];
  std::memcpy(hr, g.bytes.data(), 16);
  EXPECT_EQ(hr[0], 0x3C01);   // 1 + 2^-10
  EXPECT_EQ(hr[1], 0x7C00);   // 65504 + 65504 overflows
  EXPECT_EQ(hr[2], 0x3C00);   // 1 + 2^-24 rounds back to 1
  uint16_t bo[8] = {0x3F80}, bs[8] = {0x3B80}; // 1 + 2^-8: the tie rounds to even, 1
  run(TmaType::BFloat16, TmaReduceOp::Add, bo, bs, 2);
  std::memcpy(hr, g.bytes.data(), 16);
  EXPECT_EQ(hr[0], 0x3F80);
  uint16_t mo[8] = {0x3C00, 0x7E00}, ms[8] = {0x4000, 0x3C00};
  run(TmaType::Float16, TmaReduceOp::Max, mo, ms, 2);
  std::memcpy(hr, g.bytes.data(), 16);
  EXPECT_EQ(hr[0], 0x4000);
  EXPECT_EQ(hr[1], 0x3C00); // NaN gives way to the number
  uint32_t uo[4] = {5, 0, 7, 0xF0}, us[4] = {5, 9, 3, 0x3C};
  run(TmaType::UInt32, TmaReduceOp::Inc, uo, us, 4);
  uint32_t ur[4];
  std::memcpy(ur, g.bytes.data(), 16);
  EXPECT_EQ(ur[0], 0u); // old >= src wraps to 0
  EXPECT_EQ(ur[1], 1u);
  run(TmaType::UInt32, TmaReduceOp::Dec, uo, us, 4);
  std::memcpy(ur, g.bytes.data(), 16);
  EXPECT_EQ(ur[0], 4u);
  EXPECT_EQ(ur[1], 9u); // 0 becomes src
  EXPECT_EQ(ur[2], 3u); // old > src becomes src
  run(TmaType::UInt32, TmaReduceOp::Xor, uo, us, 4);
  std::memcpy(ur, g.bytes.data(), 16);
  EXPECT_EQ(ur[3], 0xCCu);
  int32_t io[4] = {-5, 3}, is[4] = {2, -7};
  run(TmaType::Int32, TmaReduceOp::Min, io, is, 4);
  int32_t ir[4];
  std::memcpy(ir, g.bytes.data(), 16);
  EXPECT_EQ(ir[0], -5);
  EXPECT_EQ(ir[1], -7);
  TensorMap m = dense_map(TmaType::Float32, 1, dims, box, g.base);
  EXPECT_NE(tma_reduce(m, TmaReduceOp::Min, c, 0, g.bytes.data(), g.reader(), g.writer(), &b)
                .find("does not support"),
            std::string::npos);
}

TEST(Sm90Tma, GlobalFaultsAreReported) {
  uint64_t dims[1] = {8};
  uint32_t box[1] = {8};
  Global g;
  g.bytes.assign(16, 0); // the tensor claims 32 bytes
  TensorMap m = dense_map(TmaType::Float32, 1, dims, box, g.base);
  int32_t c[1] = {0};
  std::vector<uint8_t> image;
  TmaBox b;
  EXPECT_NE(tma_load(m, c, 0, g.reader(), &image, &b).find("outside every allocation"),
            std::string::npos);
}

TEST(Sm90Tma, MulticastMask) {
  EXPECT_EQ(multicast_ranks(0x8005), (std::vector<uint32_t>{0, 2, 15}));
  EXPECT_TRUE(multicast_ranks(0).empty());
  EXPECT_EQ(multicast_ranks(0xFFFF).size(), 16u);
}
