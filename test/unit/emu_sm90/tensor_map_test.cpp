// tensor_map_test.cpp - every rule of cuTensorMapEncodeTiled (CUDA driver API
// reference) accepted at its edge and refused just past it, and the blob's
// round trip through decode_tensor_map.
#include "emu/sm90/tensor_map.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace emu::sm90;

namespace {

// A valid 2-D f32 map (a 900 x 272 matrix, 128 x 32 boxes, 128B swizzle);
// each test changes one argument.
struct Args {
  uint32_t type = uint32_t(TmaType::Float32), rank = 2;
  uint64_t addr = 0x10000;
  uint64_t dims[5] = {272, 900, 1, 1, 1};
  uint64_t strides[4] = {272 * 4, 272 * 4 * 900, 272 * 4 * 900, 272 * 4 * 900};
  uint32_t box[5] = {32, 128, 1, 1, 1};
  uint32_t estr[5] = {1, 1, 1, 1, 1};
  uint32_t interleave = 0, swizzle = uint32_t(TmaSwizzle::B128), l2 = 0, oob = 0;

  EncodeResult encode(void *blob) const {
    return encode_tensor_map_tiled(blob, type, rank, addr, dims, strides, box, estr, interleave,
                                   swizzle, l2, oob);
  }
};

struct alignas(128) Blob {
  uint8_t bytes[256];
};

EncodeResult run(const Args &a) {
  Blob b;
  return a.encode(b.bytes);
}

#define ACCEPTS(args) EXPECT_EQ(run(args).status, kCudaSuccess) << run(args).message
#define REFUSES(args, words)                                                                   \
  do {                                                                                         \
    EncodeResult r_ = run(args);                                                               \
    EXPECT_EQ(r_.status, kCudaErrorInvalidValue);                                              \
    EXPECT_NE(r_.message.find(words), std::string::npos) << r_.message;                        \
  } while (0)

} // namespace

TEST(Sm90TensorMap, TheBlobIs64ByteAligned) {
  Blob b;
  Args a;
  EXPECT_EQ(a.encode(b.bytes + 64).status, kCudaSuccess);
  EncodeResult r = a.encode(b.bytes + 32);
  EXPECT_EQ(r.status, kCudaErrorInvalidValue);
  EXPECT_EQ(r.message, "tensorMap address is not 64-byte aligned");
}

TEST(Sm90TensorMap, EnumsMustBeCudas) {
  Args a;
  a.type = 16;
  REFUSES(a, "tensorDataType 16");
  a = Args();
  a.swizzle = 7;
  REFUSES(a, "CUtensorMapSwizzle");
  a = Args();
  a.interleave = 3;
  REFUSES(a, "CUtensorMapInterleave");
  a = Args();
  a.l2 = 3;
  ACCEPTS(a);
  a.l2 = 4;
  REFUSES(a, "CUtensorMapL2promotion");
  a = Args();
  a.oob = 2;
  REFUSES(a, "CUtensorMapFloatOOBfill");
}

TEST(Sm90TensorMap, Rank) {
  Args a;
  a.rank = 5;
  ACCEPTS(a);
  a.rank = 6;
  REFUSES(a, "tensorRank 6 is not 1 to 5");
  a.rank = 0;
  REFUSES(a, "tensorRank 0");
  a = Args();
  a.rank = 1;
  ACCEPTS(a);
  // Interleaved layouts need rank 3 or more (16B interleave, no swizzle limit).
  a = Args();
  a.interleave = uint32_t(TmaInterleave::B16);
  a.swizzle = 0;
  a.rank = 3;
  ACCEPTS(a);
  a.rank = 2;
  REFUSES(a, "below 3 with an interleaved layout");
}

TEST(Sm90TensorMap, GlobalAddressAlignment) {
  Args a;
  a.addr = 0x10010;
  ACCEPTS(a);
  a.addr = 0x10008;
  REFUSES(a, "globalAddress is not 16-byte aligned");
  a = Args();
  a.rank = 3;
  a.interleave = uint32_t(TmaInterleave::B32);
  a.swizzle = uint32_t(TmaSwizzle::B32);
  a.addr = 0x10020;
  ACCEPTS(a);
  a.addr = 0x10010;
  REFUSES(a, "32-byte aligned with CU_TENSOR_MAP_INTERLEAVE_32B");
}

TEST(Sm90TensorMap, GlobalDims) {
  Args a;
  a.dims[1] = uint64_t(1) << 32;
  ACCEPTS(a);
  a.dims[1] = (uint64_t(1) << 32) + 1;
  REFUSES(a, "globalDim[1] is not 1 to 2^32");
  a.dims[1] = 0;
  REFUSES(a, "globalDim[1]");
}

TEST(Sm90TensorMap, GlobalStrides) {
  Args a;
  a.strides[0] = 16;
  ACCEPTS(a);
  a.strides[0] = 1080; // 270 f32: not a multiple of 16
  REFUSES(a, "globalStrides[0] is not a multiple of 16 below 2^40");
  a.strides[0] = (uint64_t(1) << 40) - 16;
  ACCEPTS(a);
  a.strides[0] = uint64_t(1) << 40;
  REFUSES(a, "globalStrides[0]");
  a = Args();
  a.rank = 3;
  a.interleave = uint32_t(TmaInterleave::B32);
  a.swizzle = uint32_t(TmaSwizzle::B32);
  a.strides[1] = 64 * 1000;
  ACCEPTS(a);
  a.strides[1] = 48 * 1001;
  REFUSES(a, "multiple of 32 with CU_TENSOR_MAP_INTERLEAVE_32B");
}

TEST(Sm90TensorMap, BoxDims) {
  Args a;
  a.box[1] = 256;
  ACCEPTS(a);
  a.box[1] = 257;
  REFUSES(a, "boxDim[1] is not 1 to 256");
  a.box[1] = 0;
  REFUSES(a, "boxDim[1]");
  a = Args();
  a.swizzle = 0;
  a.box[0] = 4; // 16 bytes
  ACCEPTS(a);
  a.box[0] = 2; // 8 bytes
  REFUSES(a, "multiple of 16 bytes");
  a.box[0] = 256; // 1024 bytes: fine without swizzle
  ACCEPTS(a);
}

TEST(Sm90TensorMap, InnerBoxFitsTheSwizzleSpan) {
  struct Case {
    TmaSwizzle s;
    uint32_t fits, too_wide;
  } cases[] = {{TmaSwizzle::B32, 8, 12}, {TmaSwizzle::B64, 16, 20}, {TmaSwizzle::B128, 32, 36},
               {TmaSwizzle::B128Atom64B, 32, 36}};
  for (const Case &c : cases) {
    Args a;
    a.swizzle = uint32_t(c.s);
    a.box[0] = c.fits;
    ACCEPTS(a);
    a.box[0] = c.too_wide;
    REFUSES(a, "swizzle span");
  }
}

TEST(Sm90TensorMap, ElementStrides) {
  Args a;
  a.estr[1] = 8;
  ACCEPTS(a);
  a.estr[1] = 9;
  REFUSES(a, "elementStrides[1] is not 1 to 8");
  a.estr[1] = 0;
  REFUSES(a, "elementStrides[1]");
}

TEST(Sm90TensorMap, InterleaveAndSwizzleCombinations) {
  Args a;
  a.rank = 3;
  a.interleave = uint32_t(TmaInterleave::B32);
  a.swizzle = uint32_t(TmaSwizzle::B64);
  REFUSES(a, "CU_TENSOR_MAP_INTERLEAVE_32B requires CU_TENSOR_MAP_SWIZZLE_32B");
  // With interleave the inner box needs no 16-byte multiple nor swizzle fit.
  a.interleave = uint32_t(TmaInterleave::B16);
  a.swizzle = uint32_t(TmaSwizzle::B32);
  a.box[0] = 3;
  ACCEPTS(a);
}

TEST(Sm90TensorMap, OobNanFillNeedsAFloatType) {
  Args a;
  a.oob = 1;
  ACCEPTS(a);
  a.type = uint32_t(TmaType::Int32);
  REFUSES(a, "NAN_REQUEST_ZERO_FMA");
}

TEST(Sm90TensorMap, PackedTypes) {
  Args a;
  a.type = uint32_t(TmaType::U4x16Align16B);
  a.swizzle = 0;
  a.dims[0] = 256;
  a.box[0] = 128;
  a.strides[0] = 128;
  ACCEPTS(a);
  a.box[0] = 64;
  REFUSES(a, "boxDim[0] is not 128");
  a.box[0] = 128;
  a.dims[0] = 192;
  REFUSES(a, "multiple of 128");
  a.dims[0] = 256;
  a.strides[0] = 144;
  REFUSES(a, "multiple of 32 for a 16U4_ALIGN16B");
  a.strides[0] = 128;
  a.swizzle = uint32_t(TmaSwizzle::B64);
  REFUSES(a, "16U4_ALIGN16B supports only");
}

TEST(Sm90TensorMap, DecodeRoundTripsAndRefusesForeignBytes) {
  Blob b;
  Args a;
  a.rank = 3;
  a.dims[2] = 7;
  a.box[2] = 2;
  a.estr[2] = 3;
  a.oob = 1;
  a.l2 = 2;
  ASSERT_EQ(a.encode(b.bytes).status, kCudaSuccess);
  TensorMap m;
  ASSERT_TRUE(decode_tensor_map(b.bytes, &m));
  EXPECT_EQ(m.type, TmaType::Float32);
  EXPECT_EQ(m.rank, 3u);
  EXPECT_EQ(m.global_address, 0x10000u);
  EXPECT_EQ(m.global_dim[0], 272u);
  EXPECT_EQ(m.global_dim[2], 7u);
  EXPECT_EQ(m.global_stride[0], 4u);
  EXPECT_EQ(m.global_stride[1], 272u * 4);
  EXPECT_EQ(m.box_dim[1], 128u);
  EXPECT_EQ(m.element_stride[2], 3u);
  EXPECT_EQ(m.swizzle, TmaSwizzle::B128);
  EXPECT_EQ(m.l2_promotion, TmaL2Promotion::B128);
  EXPECT_EQ(m.oob_fill, TmaOobFill::NanRequestZeroFma);
  for (size_t i = 0; i < 128; ++i) {
    Blob c = b;
    c.bytes[i] ^= 0x10;
    EXPECT_FALSE(decode_tensor_map(c.bytes, &m)) << "flipped byte " << i;
  }
  Blob zero{};
  EXPECT_FALSE(decode_tensor_map(zero.bytes, &m));
  Blob nan;
  std::memset(nan.bytes, 0xFF, sizeof nan.bytes);
  EXPECT_FALSE(decode_tensor_map(nan.bytes, &m));
}
