// wgmma_test.cpp - wgmma.mma_async in emu/sm90/wgmma.h against the PTX ISA's
// fragment figures and canonical-layout examples (9.7.15.5.1), TMA-written
// tiles, exg/sm90_layout.h's descriptors, and a plain matrix product.
#include "emu/sm90/wgmma.h"

#include "emu/sm90/convert.h"
#include "emu/sm90/tma.h"
#include "../../../runtime/include/exg/sm90_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <vector>

using namespace emu::sm90;

namespace {

struct Smem {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(1 << 18, 0);
  SmemRead reader() const {
    return [this](uint32_t a, void *dst, uint32_t n) {
      if (a + n > bytes.size())
        return false;
      std::memcpy(dst, bytes.data() + a, n);
      return true;
    };
  }
  template <typename T> void put(uint32_t a, T v) { std::memcpy(bytes.data() + a, &v, sizeof v); }
};

uint64_t descriptor(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t swizzle_bytes) {
  uint64_t code = swizzle_bytes == 128 ? 1 : swizzle_bytes == 64 ? 2 : swizzle_bytes == 32 ? 3 : 0;
  return uint64_t(start >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32 | code << 62;
}

TmaSwizzle tma_swizzle_of(uint32_t bytes) {
  return bytes == 128 ? TmaSwizzle::B128 : bytes == 64 ? TmaSwizzle::B64
         : bytes == 32 ? TmaSwizzle::B32 : TmaSwizzle::None;
}

// Byte offset of a CuTe layout ((s0,s1,..),(t0,t1,..)):((a0,a1,..),(b0,b1,..))
// in elements, for coordinate (row, col): each mode's index split colexicographically.
uint32_t cute(uint32_t row, const std::vector<uint32_t> &rs, const std::vector<uint32_t> &rd,
              uint32_t col, const std::vector<uint32_t> &cs, const std::vector<uint32_t> &cd) {
  uint32_t off = 0;
  for (size_t i = 0; i < rs.size(); ++i, row /= rs[i - 1])
    off += (row % rs[i]) * rd[i];
  for (size_t i = 0; i < cs.size(); ++i, col /= cs[i - 1])
    off += (col % cs[i]) * cd[i];
  return off;
}

} // namespace

TEST(Sm90Wgmma, DescriptorFieldsSitWhereTheIsaPutsThem) {
  uint64_t d = 0x1234ull | 0x4ull << 16 | 0x40ull << 32 | 5ull << 49 | 2ull << 62;
  SmemDescriptor s = decode_smem_descriptor(d);
  EXPECT_EQ(s.start, 0x12340u);
  EXPECT_EQ(s.lbo, 0x40u);
  EXPECT_EQ(s.sbo, 0x400u);
  EXPECT_EQ(s.base_offset, 5u);
  EXPECT_EQ(s.swizzle, 64u);
  EXPECT_EQ(decode_smem_descriptor(1ull << 62).swizzle, 128u);
  EXPECT_EQ(decode_smem_descriptor(3ull << 62).swizzle, 32u);
  EXPECT_EQ(decode_smem_descriptor(0).swizzle, 0u);
  // matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: 14 bits of start address.
  EXPECT_EQ(decode_smem_descriptor(0xFFFFull).start, 0x3FFF0u);
}

TEST(Sm90Wgmma, AccumulatorFragmentMatchesTheFigureAndTheHeader) {
  // Figure 149/151 (m64nNk16/k8 D): T0 holds d0,d1 at row 0 cols 0,1 and d2,d3
  // at row 8; T1 starts at col 2; T4 at row 1; d4.. repeat 8 columns on.
  auto at = [](uint32_t t, uint32_t i) {
    RowCol rc = wgmma_d_coord(t, i);
    return std::make_pair(rc.row, rc.col);
  };
  EXPECT_EQ(at(0, 0), std::make_pair(0u, 0u));
  EXPECT_EQ(at(0, 1), std::make_pair(0u, 1u));
  EXPECT_EQ(at(0, 2), std::make_pair(8u, 0u));
  EXPECT_EQ(at(0, 3), std::make_pair(8u, 1u));
  EXPECT_EQ(at(0, 4), std::make_pair(0u, 8u));
  EXPECT_EQ(at(1, 0), std::make_pair(0u, 2u));
  EXPECT_EQ(at(4, 0), std::make_pair(1u, 0u));
  EXPECT_EQ(at(32, 0), std::make_pair(16u, 0u));
  EXPECT_EQ(at(127, 127), std::make_pair(63u, 255u));
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t i = 0; i < 128; ++i) {
      exg::sm90::FragmentCoord h = exg::sm90::accumulator_coord(t, i);
      ASSERT_EQ(at(t, i), std::make_pair(h.row, h.col)) << "thread " << t << " value " << i;
    }
}

TEST(Sm90Wgmma, AFragmentsMatchTheFiguresAndCoverTheTile) {
  auto at = [](WgmmaType a, uint32_t t, uint32_t i) {
    RowCol rc = wgmma_a_coord(a, t, i);
    return std::make_pair(rc.row, rc.col);
  };
  // tf32 (figure 150, as mma.m16n8k8): a0 (g, q), a1 (g+8, q), a2 (g, q+4).
  EXPECT_EQ(at(WgmmaType::TF32, 0, 1), std::make_pair(8u, 0u));
  EXPECT_EQ(at(WgmmaType::TF32, 0, 2), std::make_pair(0u, 4u));
  EXPECT_EQ(at(WgmmaType::TF32, 5, 0), std::make_pair(1u, 1u));
  EXPECT_EQ(at(WgmmaType::TF32, 96, 3), std::make_pair(56u, 4u));
  // f16/bf16 (figure 148, as mma.m16n8k16): a0,a1 row g cols 2q, 2q+1; a2,a3 row g+8; a4.. col +8.
  EXPECT_EQ(at(WgmmaType::BF16, 1, 1), std::make_pair(0u, 3u));
  EXPECT_EQ(at(WgmmaType::BF16, 0, 2), std::make_pair(8u, 0u));
  EXPECT_EQ(at(WgmmaType::BF16, 0, 4), std::make_pair(0u, 8u));
  EXPECT_EQ(at(WgmmaType::BF16, 31, 7), std::make_pair(15u, 15u));
  // fp8 (figure 152, as mma.m16n8k32): a0..a3 row g cols 4q..4q+3; a4..a7 row g+8; a8.. col +16.
  EXPECT_EQ(at(WgmmaType::E4M3, 1, 0), std::make_pair(0u, 4u));
  EXPECT_EQ(at(WgmmaType::E4M3, 0, 4), std::make_pair(8u, 0u));
  EXPECT_EQ(at(WgmmaType::E4M3, 0, 8), std::make_pair(0u, 16u));
  EXPECT_EQ(at(WgmmaType::E5M2, 127, 15), std::make_pair(63u, 31u));
  for (WgmmaType a : {WgmmaType::TF32, WgmmaType::F16, WgmmaType::E4M3}) {
    uint32_t k = wgmma_k(a), per_thread = 64 * k / 128;
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t i = 0; i < per_thread; ++i) {
        auto rc = at(a, t, i);
        ASSERT_LT(rc.first, 64u);
        ASSERT_LT(rc.second, k);
        seen.insert(rc);
      }
    EXPECT_EQ(seen.size(), size_t(64) * k);
  }
}

// What wgmma_d_to_a_bf16 / _f16 (runtime/include/exg/sm90.h) rely on: the
// 16-bit A fragment of m64nNk16 (figure 148) is the accumulator fragment of an
// N = 16 tile element for element, so columns 16 kk .. 16 kk + 15 of any
// accumulator tile are the thread's own values 8 kk .. 8 kk + 7, in order.
TEST(Sm90Wgmma, SixteenBitAFragmentIsTheAccumulatorsMapOfSixteenColumns) {
  for (WgmmaType a : {WgmmaType::BF16, WgmmaType::F16})
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t i = 0; i < 8; ++i) {
        RowCol rc = wgmma_a_coord(a, t, i);
        for (uint32_t n = 16, kk = 0; n <= 256; n += 16, kk = (kk + 1) % (n / 16)) {
          exg::sm90::FragmentCoord d = exg::sm90::accumulator_coord(t, 8 * kk + i);
          EXPECT_EQ(rc.row, d.row) << "thread " << t << ", element " << i << ", kk " << kk;
          EXPECT_EQ(16 * kk + rc.col, d.col) << "thread " << t << ", element " << i << ", kk " << kk;
        }
      }
}

TEST(Sm90Wgmma, CanonicalLayoutExamplesOfTheIsa) {
  // 9.7.15.5.1.2.1.3, the five worked examples (layouts in elements, swizzle on bytes).
  const uint32_t base = 0x4000;
  // K-major, no swizzle, tf32: ((8,2),(4,4)):((4,32),(1,64)), LBO 256 B, SBO 128 B.
  SmemDescriptor d = decode_smem_descriptor(descriptor(base, 256, 128, 0));
  for (uint32_t m = 0; m < 16; ++m)
    for (uint32_t k = 0; k < 8; ++k)
      ASSERT_EQ(wgmma_element_address(d, false, 4, m, k),
                base + 4 * cute(m, {8, 2}, {4, 32}, k, {4, 4}, {1, 64}));
  // K-major, 32B swizzle, tf32: Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4)), SBO 256 B.
  d = decode_smem_descriptor(descriptor(base, 16, 256, 32));
  for (uint32_t m = 0; m < 16; ++m)
    for (uint32_t k = 0; k < 8; ++k)
      ASSERT_EQ(wgmma_element_address(d, false, 4, m, k),
                tma_swizzle_address(TmaSwizzle::B32,
                                    base + 4 * cute(m, {8, 2}, {8, 64}, k, {4, 4}, {1, 4})));
  // MN-major, no swizzle, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO 256 B, SBO 128 B.
  d = decode_smem_descriptor(descriptor(base, 256, 128, 0));
  for (uint32_t m = 0; m < 16; ++m)
    for (uint32_t k = 0; k < 16; ++k)
      ASSERT_EQ(wgmma_element_address(d, true, 2, m, k),
                base + 2 * cute(m, {8, 1, 2}, {1, 8, 64}, k, {8, 2}, {8, 128}));
  // MN-major, 32B swizzle, bf16: ((8,2,2),(8,2)):((1,8,128),(16,256)), LBO 256 B, SBO 512 B.
  d = decode_smem_descriptor(descriptor(base, 256, 512, 32));
  for (uint32_t m = 0; m < 32; ++m)
    for (uint32_t k = 0; k < 16; ++k)
      ASSERT_EQ(wgmma_element_address(d, true, 2, m, k),
                tma_swizzle_address(TmaSwizzle::B32,
                                    base + 2 * cute(m, {8, 2, 2}, {1, 8, 128}, k, {8, 2}, {16, 256})));
  // MN-major, 64B swizzle, bf16: ((8,4,2),(8,2)):((1,8,256),(32,512)), LBO 512 B, SBO 1024 B.
  d = decode_smem_descriptor(descriptor(base, 512, 1024, 64));
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t k = 0; k < 16; ++k)
      ASSERT_EQ(wgmma_element_address(d, true, 2, m, k),
                tma_swizzle_address(TmaSwizzle::B64,
                                    base + 2 * cute(m, {8, 4, 2}, {1, 8, 256}, k, {8, 2}, {32, 512})));
}

TEST(Sm90Wgmma, KMajorDescriptorsReadTmaTilesForEverySwizzle) {
  // A TMA box of 64 rows of S bytes at a 1024-byte aligned address; K step j
  // of the instruction starts 32 bytes further along the rows; SBO = 8 rows.
  const uint32_t base = 0x8000;
  for (uint32_t S : {32u, 64u, 128u})
    for (uint32_t e : {1u, 2u, 4u}) {
      uint32_t K = 32 / e;
      for (uint32_t step = 0; step < S / 32; ++step) {
        SmemDescriptor d = decode_smem_descriptor(descriptor(base + 32 * step, 16, 8 * S, S));
        for (uint32_t m = 0; m < 64; ++m)
          for (uint32_t k = 0; k < K; ++k)
            ASSERT_EQ(wgmma_element_address(d, false, e, m, k),
                      tma_swizzle_address(tma_swizzle_of(S), base + m * S + 32 * step + k * e))
                << "S " << S << " e " << e << " step " << step << " (" << m << "," << k << ")";
      }
    }
}

TEST(Sm90Wgmma, Sm90LayoutKMajorDescriptorOfA128BF32Tile) {
  // exg/sm90_layout.h's descriptor of a [64, 32] f32 tile at 0x8000 (128B
  // swizzle), advanced by 8 tf32 per k step, reads what TMA wrote there.
  const uint32_t tile = 0x8000;
  for (uint32_t step = 0; step < 4; ++step) {
    uint64_t desc = exg::sm90::kmajor_tile_descriptor(tile + 32 * step, exg::sm90::Swizzle::B128);
    SmemDescriptor d = decode_smem_descriptor(desc);
    EXPECT_EQ(d.start, tile + 32 * step);
    EXPECT_EQ(d.sbo, 1024u);
    EXPECT_EQ(d.lbo, 16u);
    EXPECT_EQ(d.swizzle, 128u);
    EXPECT_EQ(d.base_offset, 0u);
    for (uint32_t m = 0; m < 64; ++m)
      for (uint32_t k = 0; k < 8; ++k)
        ASSERT_EQ(wgmma_element_address(d, false, 4, m, k),
                  tile + exg::sm90::box_element_offset(exg::sm90::Swizzle::B128, 128, m,
                                                       8 * step + k, 4));
  }
}

namespace {

// A 64 x K A and an N x K B (K-major, 128B swizzle, TMA layout) in shared memory.
struct Problem {
  Smem smem;
  uint32_t a_base = 0x2000, b_base = 0x8000, n = 8;
  WgmmaType type = WgmmaType::TF32;
  std::vector<double> A, B; // A[m*K+k], B[k*N+n]: the values as wgmma reads them

  uint32_t e() const { return type == WgmmaType::TF32 ? 4 : type == WgmmaType::BF16 || type == WgmmaType::F16 ? 2 : 1; }
  uint32_t K() const { return wgmma_k(type); }

  void store(uint32_t addr, uint32_t bits) { std::memcpy(smem.bytes.data() + addr, &bits, e()); }
  static uint32_t encode(WgmmaType t, double v) {
    switch (t) {
    case WgmmaType::TF32: return f32_bits(float(v));
    case WgmmaType::BF16: return f32_to_bf16_rn(float(v));
    case WgmmaType::F16: return f32_to_f16_rn(float(v));
    default: return 0;
    }
  }
  // Small integers and halves: exact in every input type, exact products and sums.
  void fill(std::mt19937 &rng) {
    const uint32_t K_ = K();
    A.assign(64 * K_, 0);
    B.assign(K_ * n, 0);
    for (uint32_t m = 0; m < 64; ++m)
      for (uint32_t k = 0; k < K_; ++k) {
        double v = double(int(rng() % 9) - 4) / 2;
        A[m * K_ + k] = v;
        store(tma_swizzle_address(TmaSwizzle::B128, a_base + m * 128 + k * e()), encode(type, v));
      }
    for (uint32_t c = 0; c < n; ++c)
      for (uint32_t k = 0; k < K_; ++k) {
        double v = double(int(rng() % 7) - 3);
        B[k * n + c] = v;
        store(tma_swizzle_address(TmaSwizzle::B128, b_base + c * 128 + k * e()), encode(type, v));
      }
  }
  WgmmaOp op() const {
    WgmmaOp o;
    o.n = n;
    o.a = o.b = type;
    o.d = WgmmaType::F32;
    o.desc_a = descriptor(a_base, 16, 1024, 128);
    o.desc_b = descriptor(b_base, 16, 1024, 128);
    return o;
  }
  double product(uint32_t m, uint32_t c) const {
    double s = 0;
    for (uint32_t k = 0; k < K(); ++k)
      s += A[m * K() + k] * B[k * n + c];
    return s;
  }
};

} // namespace

TEST(Sm90Wgmma, Tf32M64N8K8EqualsAPlainProduct) {
  std::mt19937 rng(3);
  Problem p;
  p.fill(rng);
  std::vector<uint32_t> d(128 * 4);
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t i = 0; i < 4; ++i)
      d[t * 4 + i] = f32_bits(float(t) - float(i));
  WgmmaOp op = p.op();
  ASSERT_EQ(wgmma_execute(op, p.smem.reader(), nullptr, d.data()), "");
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t i = 0; i < 4; ++i) {
      RowCol rc = wgmma_d_coord(t, i);
      ASSERT_EQ(f32_from_bits(d[t * 4 + i]), float(p.product(rc.row, rc.col) + t - i));
    }
  // scale-d false: D = A*B; the old D (NaN poison here) is never read.
  std::fill(d.begin(), d.end(), 0x7FFFFFFFu);
  op.scale_d = false;
  op.scale_a = -1;
  ASSERT_EQ(wgmma_execute(op, p.smem.reader(), nullptr, d.data()), "");
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t i = 0; i < 4; ++i) {
      RowCol rc = wgmma_d_coord(t, i);
      ASSERT_EQ(f32_from_bits(d[t * 4 + i]), float(-p.product(rc.row, rc.col)));
    }
}

TEST(Sm90Wgmma, Tf32InputsAreTruncatedNotRounded) {
  Problem p;
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t k = 0; k < 8; ++k)
      p.store(tma_swizzle_address(TmaSwizzle::B128, p.a_base + m * 128 + k * 4),
              f32_bits(1.0f + 0x1p-10f + 0x1p-11f)); // rounding would give 1 + 2^-9
  for (uint32_t c = 0; c < 8; ++c)
    for (uint32_t k = 0; k < 8; ++k)
      p.store(tma_swizzle_address(TmaSwizzle::B128, p.b_base + c * 128 + k * 4), f32_bits(1.0f));
  std::vector<uint32_t> d(128 * 4);
  WgmmaOp op = p.op();
  op.scale_d = false;
  ASSERT_EQ(wgmma_execute(op, p.smem.reader(), nullptr, d.data()), "");
  EXPECT_EQ(f32_from_bits(d[0]), 8.0f * (1.0f + 0x1p-10f));
}

TEST(Sm90Wgmma, AFromRegistersEqualsAFromSharedMemory) {
  for (WgmmaType type : {WgmmaType::TF32, WgmmaType::BF16, WgmmaType::F16}) {
    std::mt19937 rng(11);
    Problem p;
    p.type = type;
    p.n = 24;
    p.fill(rng);
    std::vector<uint32_t> regs(128 * 4, 0);
    const uint32_t per_reg = 4 / p.e();
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t i = 0; i < 4 * per_reg; ++i) {
        RowCol rc = wgmma_a_coord(type, t, i);
        uint32_t bits = Problem::encode(type, p.A[rc.row * p.K() + rc.col]);
        regs[t * 4 + i / per_reg] |= bits << (8 * p.e() * (i % per_reg));
      }
    WgmmaOp op = p.op();
    op.scale_d = false;
    std::vector<uint32_t> from_smem(128 * 12), from_regs(128 * 12);
    ASSERT_EQ(wgmma_execute(op, p.smem.reader(), nullptr, from_smem.data()), "");
    op.a_in_regs = true;
    op.desc_a = 0;
    ASSERT_EQ(wgmma_execute(op, p.smem.reader(), regs.data(), from_regs.data()), "");
    EXPECT_EQ(from_smem, from_regs) << "type " << int(type);
    RowCol rc = wgmma_d_coord(5, 7);
    EXPECT_EQ(f32_from_bits(from_regs[5 * 12 + 7]), float(p.product(rc.row, rc.col)));
  }
}

TEST(Sm90Wgmma, MnMajorBf16EqualsKMajor) {
  // The same A (64 x 16) and B (16 x 128) written MN-major by TMA boxes of
  // [K rows][64 MN] (128B swizzle): one atom column for A, two for B, LBO =
  // 2048 B between B's atom columns, SBO = 1024 B between 8-row K groups.
  std::mt19937 rng(5);
  Problem p;
  p.type = WgmmaType::BF16;
  p.n = 128;
  p.fill(rng);
  Smem mn;
  const uint32_t a_base = 0x10000, b_base = 0x20000;
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t k = 0; k < 16; ++k) {
      uint16_t v = f32_to_bf16_rn(float(p.A[m * 16 + k]));
      mn.put(tma_swizzle_address(TmaSwizzle::B128, a_base + k * 128 + m * 2), v);
    }
  for (uint32_t c = 0; c < 128; ++c)
    for (uint32_t k = 0; k < 16; ++k) {
      uint16_t v = f32_to_bf16_rn(float(p.B[k * 128 + c]));
      mn.put(tma_swizzle_address(TmaSwizzle::B128, b_base + (c / 64) * 2048 + k * 128 + (c % 64) * 2), v);
    }
  WgmmaOp op = p.op();
  op.scale_d = false;
  std::vector<uint32_t> kmajor(128 * 64), mnmajor(128 * 64);
  ASSERT_EQ(wgmma_execute(op, p.smem.reader(), nullptr, kmajor.data()), "");
  op.tnsp_a = op.tnsp_b = 1;
  op.desc_a = descriptor(a_base, 2048, 1024, 128);
  op.desc_b = descriptor(b_base, 2048, 1024, 128);
  ASSERT_EQ(wgmma_execute(op, mn.reader(), nullptr, mnmajor.data()), "");
  EXPECT_EQ(kmajor, mnmajor);
  RowCol rc = wgmma_d_coord(77, 50);
  EXPECT_EQ(f32_from_bits(kmajor[77 * 64 + 50]), float(p.product(rc.row, rc.col)));
}

TEST(Sm90Wgmma, F16AccumulatorAndFp8Inputs) {
  // e4m3 A times e5m2 B into an f16 D: 32 products of 1.5 * 2 = 96 plus D 0.5.
  Smem s;
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t k = 0; k < 32; ++k)
      s.put<uint8_t>(tma_swizzle_address(TmaSwizzle::B128, 0x2000 + m * 128 + k), 0x3C); // e4m3 1.5
  for (uint32_t c = 0; c < 16; ++c)
    for (uint32_t k = 0; k < 32; ++k)
      s.put<uint8_t>(tma_swizzle_address(TmaSwizzle::B128, 0x8000 + c * 128 + k), 0x40); // e5m2 2
  WgmmaOp op;
  op.n = 16;
  op.a = WgmmaType::E4M3;
  op.b = WgmmaType::E5M2;
  op.d = WgmmaType::F16;
  op.desc_a = descriptor(0x2000, 16, 1024, 128);
  op.desc_b = descriptor(0x8000, 16, 1024, 128);
  op.scale_b = -1;
  std::vector<uint32_t> d(128 * 4, 0x38003800u); // f16 0.5 in both halves
  ASSERT_EQ(wgmma_execute(op, s.reader(), nullptr, d.data()), "");
  for (uint32_t w : d)
    ASSERT_EQ(w, 0xD5F8D5F8u); // -95.5 = -1.4921875 * 2^6 in both halves
}

TEST(Sm90Wgmma, RefusedForms) {
  Smem s;
  std::vector<uint32_t> d(128 * 128);
  WgmmaOp op;
  op.n = 12;
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find("multiple of 8"), std::string::npos);
  op.n = 264;
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find("multiple of 8"), std::string::npos);
  op.n = 256;
  EXPECT_EQ(wgmma_execute(op, s.reader(), nullptr, d.data()), "");
  op.tnsp_b = 1;
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find(".f16 or .bf16"), std::string::npos);
  op.tnsp_b = 0;
  op.scale_a = 2;
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find("imm-scale"), std::string::npos);
  op.scale_a = 1;
  op.d = WgmmaType::F16; // tf32 accumulates into f32 only
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find("no variant"), std::string::npos);
  op.d = WgmmaType::F32;
  op.a = WgmmaType::BF16; // .atype == .btype outside fp8
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find("no variant"), std::string::npos);
  op.a = WgmmaType::TF32;
  op.desc_b = 3ull << 49 | 1ull << 62;
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find("base offset"), std::string::npos);
  op.desc_b = 0x3FFF; // start 0x3FFF0: the read runs past the 256 KiB window
  EXPECT_NE(wgmma_execute(op, s.reader(), nullptr, d.data()).find("outside the CTA's shared memory"),
            std::string::npos);
}
