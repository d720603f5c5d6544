// sm90_layout_test.cpp - the Hopper address arithmetic of exg/sm90_layout.h
// against the PTX ISA's definitions, each restated here independently of the
// bit tricks the header uses, and against brute force where a property
// (a bijection, a barrier's phase) can be enumerated.
#include "exg/sm90_layout.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace exg::sm90;

namespace {

// The ISA's figure of the swizzle modes: memory is lines of 128 bytes made of
// 16-byte chunks; in a swizzle of S bytes, chunk c of line l moves to chunk
// c ^ (l mod S/16) (the XOR only reaches the chunk bits inside an S-byte row).
uint32_t swizzle_by_lines(Swizzle s, uint32_t addr) {
  uint32_t chunks = uint32_t(s) / 16u;
  if (chunks <= 1)
    return addr;
  uint32_t line = addr / 128u, chunk = (addr / 16u) % 8u, byte = addr % 16u;
  return line * 128u + (chunk ^ (line % chunks)) * 16u + byte;
}

const Swizzle kSwizzles[] = {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128};

} // namespace

TEST(Sm90Swizzle, MatchesTheIsaLineAndChunkDefinition) {
  for (Swizzle s : kSwizzles)
    for (uint32_t addr = 0; addr < 16384; ++addr)
      ASSERT_EQ(swizzle_address(s, addr), swizzle_by_lines(s, addr))
          << "swizzle " << uint32_t(s) << " at byte " << addr;
}

TEST(Sm90Swizzle, PermutesEachRepeatAndUndoesItself) {
  for (Swizzle s : kSwizzles) {
    uint32_t repeat = swizzle_alignment(s);
    for (uint32_t base = 0; base < 4 * repeat; base += repeat) {
      std::set<uint32_t> seen;
      for (uint32_t a = base; a < base + repeat; ++a) {
        uint32_t t = swizzle_address(s, a);
        EXPECT_GE(t, base);
        EXPECT_LT(t, base + repeat);
        EXPECT_EQ(swizzle_address(s, t), a);
        seen.insert(t);
      }
      EXPECT_EQ(seen.size(), repeat);
    }
  }
}

TEST(Sm90Swizzle, KnownAddressesOf128B) {
  // Row 1 (bytes 128..255) swaps chunk 0 with chunk 1; row 7 reverses the chunks.
  EXPECT_EQ(swizzle_address(Swizzle::B128, 128), 144u);
  EXPECT_EQ(swizzle_address(Swizzle::B128, 144 + 4), 128u + 4);
  EXPECT_EQ(swizzle_address(Swizzle::B128, 7 * 128), 7u * 128 + 7 * 16);
  EXPECT_EQ(swizzle_address(Swizzle::B128, 1024 + 5), 1024u + 5);
  EXPECT_EQ(swizzle_alignment(Swizzle::B128), 1024u);
}

TEST(Sm90Descriptor, FieldsSitWhereTheIsaPutsThem) {
  uint64_t d = make_smem_descriptor(0x12340, 0x40, 0x400, Swizzle::B128);
  EXPECT_EQ(d & 0x3FFF, 0x12340u >> 4 & 0x3FFF);      // bits 0-13: address >> 4
  EXPECT_EQ((d >> 16) & 0x3FFF, 0x40u >> 4);           // bits 16-29: LBO >> 4
  EXPECT_EQ((d >> 32) & 0x3FFF, 0x400u >> 4);          // bits 32-45: SBO >> 4
  EXPECT_EQ((d >> 49) & 0x7, 0u);                      // bits 49-51: base offset
  EXPECT_EQ(d >> 62, 1u);                              // bits 62-63: 1 = 128B
  EXPECT_EQ((d >> 14) & 0x3, 0u);                      // reserved bits stay clear
  EXPECT_EQ((d >> 30) & 0x3, 0u);
  EXPECT_EQ((d >> 46) & 0x7, 0u);
  EXPECT_EQ((d >> 52) & 0x3FF, 0u);
  EXPECT_EQ(make_smem_descriptor(0, 0, 0, Swizzle::B64) >> 62, 2u);
  EXPECT_EQ(make_smem_descriptor(0, 0, 0, Swizzle::B32) >> 62, 3u);
  EXPECT_EQ(make_smem_descriptor(0, 0, 0, Swizzle::None) >> 62, 0u);
}

TEST(Sm90Descriptor, KMajor128BTileOfTf32) {
  // Rows of 32 floats (one 128-byte swizzle row); 8-row core groups 1024 bytes apart.
  uint64_t d = kmajor_tile_descriptor(0x8000, Swizzle::B128);
  EXPECT_EQ(d & 0x3FFF, 0x800u);
  EXPECT_EQ((d >> 16) & 0x3FFF, 1u);
  EXPECT_EQ((d >> 32) & 0x3FFF, 64u);
  EXPECT_EQ(d >> 62, 1u);
  // Advancing K by 8 tf32 values inside the swizzle row moves the start by 32 bytes.
  EXPECT_EQ(kmajor_tile_descriptor(0x8000 + 32, Swizzle::B128) - d, 2u);
}

TEST(Sm90Descriptor, TheKLoopWordsEqualTheDescriptorAtEveryShared16ByteAddress) {
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
    for (uint32_t addr = 0; addr < (1u << 18); addr += 16) {
      DescriptorWords w = kmajor_tile_descriptor_words(addr, s);
      ASSERT_EQ(uint64_t(w.hi) << 32 | w.lo, kmajor_tile_descriptor(addr, s))
          << "address " << addr << ", swizzle " << uint32_t(s);
    }
}

TEST(Sm90Descriptor, KMajor128BTileOfBf16) {
  // PTX ISA 9.7.15.5 (K-major, 128B swizzle): the core matrices of a 16-bit
  // operand are 8 rows x 16 bytes (8 elements), and a swizzle row of 128
  // bytes holds 64 bf16, so the descriptor of a [rows, 64] bf16 tile is the
  // one of a [rows, 32] f32 tile: the same bytes, SBO = 8 rows x 128 bytes.
  // The tile of a BF16 GEMM (gemm_hopper.exg: [256, 64] bf16 slots, 1024-byte aligned).
  const uint32_t tile = 0x9000, row_bytes = 64 * 2;
  uint64_t d = kmajor_tile_descriptor(tile, Swizzle::B128);
  EXPECT_EQ(d & 0x3FFF, tile >> 4);
  EXPECT_EQ((d >> 16) & 0x3FFF, 1u);                  // LBO 16 bytes (unused when swizzled)
  EXPECT_EQ((d >> 32) & 0x3FFF, 8 * row_bytes >> 4);  // SBO: 8 rows of 128 bytes
  EXPECT_EQ((d >> 49) & 0x7, 0u);                     // base offset 0: the tile is on a repeat
  EXPECT_EQ(d >> 62, 1u);
  // One m64nNk16 step is 16 bf16 = 32 bytes of the row: the start moves by 2
  // (in 16-byte units); the 4 steps of a 64-wide K tile stay inside the row.
  for (uint32_t kk = 0; kk < 4; ++kk)
    EXPECT_EQ(kmajor_tile_descriptor(tile + kk * 16 * 2, Swizzle::B128) - d, 2u * kk);
  // The 64-row slab `ms` of a warpgroup (A rows 64 ms..) starts 64 * 128 bytes on.
  EXPECT_EQ(kmajor_tile_descriptor(tile + 64 * row_bytes, Swizzle::B128) - d,
            uint64_t(64 * row_bytes) >> 4);
}

TEST(Sm90Fragment, IsABijectionOntoTheTileForEveryN) {
  for (uint32_t n = 8; n <= 256; n += 8) {
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t i = 0; i < n / 2; ++i) {
        FragmentCoord c = accumulator_coord(t, i);
        ASSERT_LT(c.row, 64u);
        ASSERT_LT(c.col, n);
        seen.insert({c.row, c.col});
      }
    EXPECT_EQ(seen.size(), size_t(64) * n) << "N = " << n;
  }
}

TEST(Sm90Fragment, MatchesTheIsaFigure) {
  // The figure of the m64nNk8 D fragment: thread T0 holds d0, d1 at row 0,
  // columns 0 and 1, and d2, d3 at row 8; T1 starts at column 2; T4 at row 1;
  // the next 8 columns repeat the pattern with d4..d7; warp w owns rows 16w..16w+15.
  auto at = [](uint32_t t, uint32_t i) {
    FragmentCoord c = accumulator_coord(t, i);
    return std::make_pair(c.row, c.col);
  };
  EXPECT_EQ(at(0, 0), std::make_pair(0u, 0u));
  EXPECT_EQ(at(0, 1), std::make_pair(0u, 1u));
  EXPECT_EQ(at(0, 2), std::make_pair(8u, 0u));
  EXPECT_EQ(at(0, 3), std::make_pair(8u, 1u));
  EXPECT_EQ(at(0, 4), std::make_pair(0u, 8u));
  EXPECT_EQ(at(1, 0), std::make_pair(0u, 2u));
  EXPECT_EQ(at(3, 1), std::make_pair(0u, 7u));
  EXPECT_EQ(at(4, 0), std::make_pair(1u, 0u));
  EXPECT_EQ(at(31, 3), std::make_pair(15u, 7u));
  EXPECT_EQ(at(32, 0), std::make_pair(16u, 0u));
  EXPECT_EQ(at(127, 127), std::make_pair(63u, 255u));
}

// What the row operations of stdlib cuda.sm90a (wgmma_row_max_f32, ...) and
// their runtime functions rely on, for every N: a row's elements are held by
// the four lanes 4k .. 4k + 3 of one warp; value i of a thread is in its row
// half (i / 2) % 2 and in the column, mod 8, of value 2 ((i / 2) % 2) + i % 2
// of the thread's [64, 8] per-row tile; and a thread meets its row's columns
// in the order the row-sum body states: 8j + 2q, then 8j + 2q + 1, j rising.
TEST(Sm90Fragment, RowsLiveInOneQuadInTheOrderTheRowBodiesState) {
  for (uint32_t n = 8; n <= 256; n += 8) {
    std::map<uint32_t, std::set<uint32_t>> holders; // row -> threads
    for (uint32_t t = 0; t < 128; ++t) {
      uint32_t q = t % 4;
      std::vector<uint32_t> cols[2];
      for (uint32_t i = 0; i < n / 2; ++i) {
        FragmentCoord c = accumulator_coord(t, i), own = accumulator_coord(t, 2 * ((i / 2) % 2) + i % 2);
        holders[c.row].insert(t);
        EXPECT_EQ(c.row, own.row) << "N = " << n << ", thread " << t << ", value " << i;
        EXPECT_EQ(c.col % 8, own.col) << "N = " << n << ", thread " << t << ", value " << i;
        cols[(i / 2) % 2].push_back(c.col);
      }
      for (const std::vector<uint32_t> &half : cols) {
        ASSERT_EQ(half.size(), n / 4);
        for (uint32_t k = 0; k < n / 4; ++k)
          EXPECT_EQ(half[k], 8 * (k / 2) + 2 * q + k % 2) << "N = " << n << ", thread " << t;
      }
    }
    ASSERT_EQ(holders.size(), 64u);
    for (const auto &[row, threads] : holders) {
      ASSERT_EQ(threads.size(), 4u) << "row " << row;
      uint32_t first = *threads.begin();
      EXPECT_EQ(first % 4, 0u);
      EXPECT_EQ(*threads.rbegin(), first + 3) << "row " << row;
    }
  }
}

TEST(Sm90Ring, SlotAndParityFollowAnMbarriersPhases) {
  // Simulate R mbarriers: completing logical barrier j advances its slot's
  // phase. try_wait.parity(p) succeeds once the phase of parity p completed,
  // i.e. while the slot's current phase has the other parity.
  for (uint32_t ring : {1u, 2u, 3u, 4u, 8u}) {
    std::vector<uint32_t> phase(ring, 0);
    auto ready = [&](int64_t j) { return (phase[ring_slot(j, ring)] & 1u) != ring_parity(j, ring); };
    for (int64_t j = 0; j < 100; ++j) {
      EXPECT_FALSE(ready(j)) << "ring " << ring << " j " << j << " before its arrival";
      ++phase[ring_slot(j, ring)];
      EXPECT_TRUE(ready(j)) << "ring " << ring << " j " << j << " after its arrival";
      // The element a ring behind is still complete until its slot is reused.
      if (j + 1 >= int64_t(ring)) {
        EXPECT_TRUE(ready(j + 1 - int64_t(ring)));
      }
    }
  }
  // Pre-arrived elements (negative uses) sit in the phase before phase 0.
  EXPECT_EQ(ring_slot(-1, 4), 3u);
  EXPECT_EQ(ring_parity(-1, 4), 1u);
  EXPECT_EQ(ring_parity(-4, 4), 1u);
  EXPECT_EQ(ring_parity(-5, 4), 0u);
}

TEST(Sm90Ring, The32BitPathAgreesWithThe64BitDefinitionAtItsEdges) {
  // j in [0, 2^31) takes 32-bit unsigned division; the rest the 64-bit floor form.
  auto slot64 = [](int64_t j, int64_t r) { return uint32_t(((j % r) + r) % r); };
  auto parity64 = [](int64_t j, int64_t r) {
    int64_t q = j / r - ((j % r != 0 && j < 0) ? 1 : 0);
    return uint32_t(q & 1);
  };
  const int64_t edges[] = {0, 1, 5, 6, 7, 0x7ffffffe, 0x7fffffff, 0x80000000LL, 0x80000005LL,
                           0xffffffffLL, 0x100000000LL, 0x100000006LL, -1, -6, -7};
  for (uint32_t ring : {1u, 3u, 4u, 6u, 7u})
    for (int64_t j : edges) {
      EXPECT_EQ(ring_slot(j, ring), slot64(j, ring)) << "ring " << ring << " j " << j;
      EXPECT_EQ(ring_parity(j, ring), parity64(j, ring)) << "ring " << ring << " j " << j;
      if (j >= 0) {  // the forms for rings without pre-arrived elements
        EXPECT_EQ(ring_slot_nonneg(uint64_t(j), ring), slot64(j, ring)) << ring << " " << j;
        EXPECT_EQ(ring_parity_nonneg(uint64_t(j), ring), parity64(j, ring)) << ring << " " << j;
      }
    }
}

TEST(Sm90Multicast, MaskIsTheGroupOfTheRank) {
  for (uint32_t stride : {1u, 2u, 4u, 8u})
    for (uint32_t ncta : {1u, 2u, 4u, 8u, 16u}) {
      if (ncta * stride > 16)
        continue;
      for (uint32_t rank = 0; rank < 16; ++rank) {
        uint32_t want = 0;
        for (uint32_t r = 0; r < 16; ++r)
          if (r % stride == rank % stride && r / (stride * ncta) == rank / (stride * ncta))
            want |= 1u << r;
        EXPECT_EQ(multicast_mask(rank, ncta, stride), want)
            << "rank " << rank << " ncta " << ncta << " stride " << stride;
      }
    }
}

TEST(Sm90TensorMap, RowMajorShapeIsInnermostFirst) {
  uint64_t dims[2] = {900, 272};
  uint32_t box[2] = {128, 32};
  TensorMapShape t = row_major_tensor_map(2, dims, box, 4);
  EXPECT_EQ(t.rank, 2u);
  EXPECT_EQ(t.global_dim[0], 272u);
  EXPECT_EQ(t.global_dim[1], 900u);
  EXPECT_EQ(t.global_stride[0], 272u * 4);
  EXPECT_EQ(t.box_dim[0], 32u);
  EXPECT_EQ(t.box_dim[1], 128u);
  EXPECT_EQ(t.element_stride[0], 1u);
  EXPECT_EQ(tensor_map_error(t, 4, Swizzle::B128), nullptr);
  EXPECT_EQ(box_bytes(t, 4), 128u * 32 * 4);

  uint64_t dims5[5] = {2, 3, 4, 5, 8};
  uint32_t box5[5] = {1, 1, 2, 5, 8};
  TensorMapShape f = row_major_tensor_map(5, dims5, box5, 2);
  EXPECT_EQ(f.global_dim[4], 2u);
  EXPECT_EQ(f.global_stride[0], 16u);
  EXPECT_EQ(f.global_stride[1], 80u);
  EXPECT_EQ(f.global_stride[2], 320u);
  EXPECT_EQ(f.global_stride[3], 960u);
  EXPECT_EQ(tensor_map_error(f, 2, Swizzle::None), nullptr);
}

TEST(Sm90TensorMap, Bf16TileIsOneSwizzleRowWide) {
  // A bf16 A of 900 x 272 with the BF16 GEMM's box {128, 64}: 64 bf16 are the
  // 128 bytes of one swizzle row; 65 would not fit, 32 f32 boxes are the same bytes.
  uint64_t dims[2] = {900, 272};
  uint32_t box[2] = {128, 64};
  TensorMapShape t = row_major_tensor_map(2, dims, box, 2);
  EXPECT_EQ(t.global_stride[0], 272u * 2);
  EXPECT_EQ(t.box_dim[0], 64u);
  EXPECT_EQ(tensor_map_error(t, 2, Swizzle::B128), nullptr);
  EXPECT_EQ(box_bytes(t, 2), 128u * 64 * 2);
  uint32_t wide[2] = {128, 72};
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, dims, wide, 2), 2, Swizzle::B128),
               "the box's innermost extent must fit in one swizzle row");
  uint64_t odd[2] = {900, 268}; // K % 8 != 0: a row pitch of 536 bytes
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, odd, box, 2), 2, Swizzle::B128),
               "row pitches must be multiples of 16 bytes below 2^40");
}

TEST(Sm90TensorMap, RejectsWhatTheEncoderRejects) {
  uint64_t odd[2] = {900, 270};  // a row pitch of 1080 bytes
  uint32_t box[2] = {128, 32};
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, odd, box, 4), 4, Swizzle::B128),
               "row pitches must be multiples of 16 bytes below 2^40");
  uint64_t dims[2] = {900, 272};
  uint32_t wide[2] = {128, 64};  // 256 bytes per box row in a 128-byte swizzle
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, dims, wide, 4), 4, Swizzle::B128),
               "the box's innermost extent must fit in one swizzle row");
  EXPECT_EQ(tensor_map_error(row_major_tensor_map(2, dims, wide, 4), 4, Swizzle::None), nullptr);
  // Box coordinates are .s32: a dimension past 2^31 - 256 would let a box
  // that starts inside the tensor reach a coordinate the kernel cannot pass.
  uint64_t longest[2] = {kMaxTensorMapDim, 272}, too_long[2] = {kMaxTensorMapDim + 1, 272};
  EXPECT_EQ(tensor_map_error(row_major_tensor_map(2, longest, wide, 4), 4, Swizzle::None), nullptr);
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, too_long, wide, 4), 4, Swizzle::None),
               "each dimension must be 1 to 2^31 - 256 (box coordinates are signed 32-bit)");
  uint32_t tall[2] = {512, 32};
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, dims, tall, 4), 4, Swizzle::B128),
               "each box dimension must be 1 to 256");
  uint32_t thin[2] = {128, 2};  // 8 bytes
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, dims, thin, 4), 4, Swizzle::None),
               "the box's innermost extent must be a multiple of 16 bytes");
  TensorMapShape none;
  EXPECT_STREQ(tensor_map_error(none, 4, Swizzle::None), "tensor rank must be 1 to 5");
}

// ---- TMA stores: the boxes the epilogue writes and reads back -----------------------------

TEST(Sm90Box, ElementOffsetIsTheSwizzledDenseOffset) {
  // A box with rows of one swizzle row (64 bytes unswizzled): every element of 16 rows
  // lands where the ISA's line/chunk figure puts its dense offset, and the box's
  // offsets are a permutation of its bytes' element slots.
  for (Swizzle s : kSwizzles)
    for (uint32_t elem : {2u, 4u}) {
      uint32_t row_bytes = s == Swizzle::None ? 64u : uint32_t(s), cols = row_bytes / elem;
      std::set<uint32_t> seen;
      for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < cols; ++c) {
          uint32_t off = box_element_offset(s, row_bytes, r, c, elem);
          ASSERT_EQ(off, swizzle_by_lines(s, r * row_bytes + c * elem))
              << "swizzle " << uint32_t(s) << " row " << r << " col " << c;
          ASSERT_EQ(off % elem, 0u);
          seen.insert(off);
        }
      EXPECT_EQ(seen.size(), 16u * cols);
      EXPECT_EQ(*seen.rbegin(), 16u * row_bytes - elem);
    }
}

TEST(Sm90Box, ThreadsIndexASwizzledBufferWhereTmaPutsEachElement) {
  // Generated code reads and writes element `linear` of an Sm90_SmemSwizzled buffer at
  // swizzled_element<T>(s, linear): over 8 KiB of buffer, for 1-, 2-, 4- and 8-byte
  // elements, that is the slot the ISA's figure puts the element's dense byte offset in
  // (where a TMA load leaves it and a TMA store or wgmma reads it), and a permutation.
  auto check = [](auto zero) {
    using T = decltype(zero);
    const uint32_t elems = 8192u / uint32_t(sizeof(T));
    for (Swizzle s : kSwizzles) {
      std::set<uint32_t> seen;
      for (uint32_t e = 0; e < elems; ++e) {
        uint32_t at = swizzled_element<T>(s, e);
        ASSERT_EQ(at * sizeof(T), swizzle_by_lines(s, uint32_t(e * sizeof(T))))
            << "swizzle " << uint32_t(s) << " element " << e << " of " << sizeof(T) << " bytes";
        seen.insert(at);
      }
      EXPECT_EQ(seen.size(), elems);
      EXPECT_EQ(*seen.rbegin(), elems - 1);
    }
  };
  check(uint8_t{});
  check(uint16_t{});
  check(float{});
  check(double{});
}

TEST(Sm90Box, ColumnPairsStayContiguousUnder128B) {
  // wgmma_store_d_smem_sw128 writes columns 2j and 2j + 1 with one 8-byte store: the
  // swizzle moves whole 16-byte chunks, so a pair stays adjacent and 8-byte aligned.
  for (uint32_t r = 0; r < 64; ++r)
    for (uint32_t c = 0; c < 32; c += 2) {
      uint32_t off = box_element_offset(Swizzle::B128, 128, r, c, 4);
      EXPECT_EQ(box_element_offset(Swizzle::B128, 128, r, c + 1, 4), off + 4);
      EXPECT_EQ(off % 8, 0u);
    }
}

TEST(Sm90Box, EpilogueChunksCoverTheStagingTileOnce) {
  // The registers wgmma_store_d_smem_sw128<N> stores for chunk n0: i = n0 / 2 + j,
  // j = 0, 2, ..., 14, and i + 1, over the 128 threads: each element of the 64 x 32 tile
  // exactly once, all from columns n0 .. n0 + 31 of the accumulator.
  for (uint32_t n0 = 0; n0 < 256; n0 += 32) {
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t j = 0; j < 16; j += 2)
        for (uint32_t i : {n0 / 2 + j, n0 / 2 + j + 1}) {
          FragmentCoord at = accumulator_coord(t, i);
          ASSERT_GE(at.col, n0);
          ASSERT_LT(at.col, n0 + 32);
          seen.insert({at.row, at.col - n0});
        }
    EXPECT_EQ(seen.size(), 64u * 32);
  }
}

TEST(Sm90TensorMap, StoreBoxesOfTwoToFiveDimensions) {
  // The TMA-store GEMM's C map: C 900 x 700 f32 in boxes of 64 x 32 (one 128-byte
  // swizzle row per box row, 8 KiB per store).
  uint64_t dims[2] = {900, 700};
  uint32_t box[2] = {64, 32};
  TensorMapShape t = row_major_tensor_map(2, dims, box, 4);
  EXPECT_EQ(t.global_dim[0], 700u);
  EXPECT_EQ(t.global_dim[1], 900u);
  EXPECT_EQ(t.global_stride[0], 700u * 4);
  EXPECT_EQ(t.box_dim[0], 32u);
  EXPECT_EQ(t.box_dim[1], 64u);
  EXPECT_EQ(tensor_map_error(t, 4, Swizzle::B128), nullptr);
  EXPECT_EQ(box_bytes(t, 4), 8192u);
  uint64_t odd[2] = {900, 702}; // N % 4 != 0: the kernel's assert, a 2808-byte pitch
  EXPECT_STREQ(tensor_map_error(row_major_tensor_map(2, odd, box, 4), 4, Swizzle::B128),
               "row pitches must be multiples of 16 bytes below 2^40");
  // Batched boxes: the same 64 x 32 box at the innermost two dimensions of tensors of
  // rank 3 to 5; each outer pitch is the product of the inner dimensions.
  uint64_t dims5[5] = {3, 2, 5, 900, 700};
  uint32_t box5[5] = {1, 1, 1, 64, 32};
  for (uint32_t rank = 3; rank <= 5; ++rank) {
    TensorMapShape b = row_major_tensor_map(rank, dims5 + (5 - rank), box5 + (5 - rank), 4);
    EXPECT_EQ(tensor_map_error(b, 4, Swizzle::B128), nullptr) << "rank " << rank;
    EXPECT_EQ(box_bytes(b, 4), 8192u);
    EXPECT_EQ(b.global_stride[1], 900u * 700 * 4);
    if (rank >= 4)
      EXPECT_EQ(b.global_stride[2], 5u * 900 * 700 * 4);
    EXPECT_EQ(b.global_dim[rank - 1], dims5[5 - rank]);
  }
}

TEST(Sm90TileEnd, ClampsWideBoundsWithoutWrapping) {
  // A row bound M - row0 past 2^31 (an M of 2^31 + 5 rows) keeps the whole
  // tile; as an int it would wrap negative and store nothing.
  EXPECT_EQ(tile_end((int64_t(1) << 31) + 5, 64), 64);
  EXPECT_EQ(tile_end(int64_t(1) << 40, 256), 256);
  EXPECT_EQ(tile_end(37, 64), 37);
  EXPECT_EQ(tile_end(64, 64), 64);
  EXPECT_EQ(tile_end(0, 64), 0);
  EXPECT_EQ(tile_end(-3, 64), 0);
  EXPECT_EQ(tile_end(-(int64_t(1) << 40), 64), 0);
}
