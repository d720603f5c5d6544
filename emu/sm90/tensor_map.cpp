// emu/sm90/tensor_map.cpp - the driver's rules and the emulator's blob ------//
// Every rule below quotes the CUDA driver API reference of
// cuTensorMapEncodeTiled (CUDA 13 cuda.h documentation comment).
#include "emu/sm90/tensor_map.h"

#include <cstring>

namespace emu::sm90 {
namespace {

constexpr uint32_t kMagic = 0x4D545845u; // "EXTM"
constexpr uint16_t kVersion = 1;
constexpr size_t kBlobBytes = 128;

// Blob layout (little-endian): magic u32 @0, version u16 @4, rank u8 @6,
// type u8 @7, interleave/swizzle/l2/oob u8 @8..11, global address u64 @16,
// dims u64[5] @24, strides of dims 1..4 u64[4] @64, box u16[5] @96,
// element strides u8[5] @106, zeros to @124, FNV-1a of bytes 0..123 @124.
constexpr size_t kAddr = 16, kDims = 24, kStrides = 64, kBox = 96, kEstr = 106, kSum = 124;

uint32_t fnv1a(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

template <typename T> void put(uint8_t *blob, size_t at, T v) { std::memcpy(blob + at, &v, sizeof v); }
template <typename T> T get(const uint8_t *blob, size_t at) {
  T v;
  std::memcpy(&v, blob + at, sizeof v);
  return v;
}

bool is_packed(TmaType t) {
  return t == TmaType::U4x16Align8B || t == TmaType::U4x16Align16B || t == TmaType::U6x16Align16B;
}
bool is_align16b_packed(TmaType t) {
  return t == TmaType::U4x16Align16B || t == TmaType::U6x16Align16B;
}
bool is_float(TmaType t) {
  switch (t) {
  case TmaType::Float16: case TmaType::Float32: case TmaType::Float64: case TmaType::BFloat16:
  case TmaType::Float32Ftz: case TmaType::TFloat32: case TmaType::TFloat32Ftz:
    return true;
  default:
    return false;
  }
}
// Bits one element occupies in global memory (packed types: 4 or 6).
uint64_t element_bits(TmaType t) {
  if (is_packed(t))
    return t == TmaType::U6x16Align16B ? 6 : 4;
  return 8ull * tma_type_bytes(t);
}
uint32_t swizzle_span(TmaSwizzle s) {
  switch (s) {
  case TmaSwizzle::None: return 0;
  case TmaSwizzle::B32: return 32;
  case TmaSwizzle::B64: return 64;
  default: return 128; // the three 128B_ATOM modes swizzle within 128 bytes too
  }
}

} // namespace

uint32_t tma_type_bytes(TmaType type) {
  switch (type) {
  case TmaType::UInt8: return 1;
  case TmaType::UInt16: case TmaType::Float16: case TmaType::BFloat16: return 2;
  case TmaType::UInt32: case TmaType::Int32: case TmaType::Float32: case TmaType::Float32Ftz:
  case TmaType::TFloat32: case TmaType::TFloat32Ftz: return 4;
  case TmaType::UInt64: case TmaType::Int64: case TmaType::Float64: return 8;
  case TmaType::U4x16Align8B: case TmaType::U4x16Align16B: case TmaType::U6x16Align16B: return 0;
  }
  return 0;
}

std::string tensor_map_rule_broken(const TensorMap &m) {
  const bool interleaved = m.interleave != TmaInterleave::None;
  if (m.rank < 1 || m.rank > 5)
    return "tensorRank " + std::to_string(m.rank) + " is not 1 to 5";
  if (interleaved && m.rank < 3)
    return "tensorRank " + std::to_string(m.rank) + " is below 3 with an interleaved layout";
  const uint64_t a = m.global_address;
  if (a % 16 != 0)
    return "globalAddress is not 16-byte aligned";
  if (m.interleave == TmaInterleave::B32 && a % 32 != 0)
    return "globalAddress is not 32-byte aligned with CU_TENSOR_MAP_INTERLEAVE_32B";
  if (is_align16b_packed(m.type) && a % 32 != 0)
    return "globalAddress is not 32-byte aligned for a 16U4_ALIGN16B / 16U6_ALIGN16B type";
  for (uint32_t d = 0; d < m.rank; ++d)
    if (m.global_dim[d] == 0 || m.global_dim[d] > (uint64_t(1) << 32))
      return "globalDim[" + std::to_string(d) + "] is not 1 to 2^32";
  if (is_align16b_packed(m.type) && m.global_dim[0] % 128 != 0)
    return "globalDim[0] is not a multiple of 128 for a 16U4_ALIGN16B / 16U6_ALIGN16B type";
  if (m.type == TmaType::U4x16Align8B && m.global_dim[0] % 2 != 0)
    return "globalDim[0] is not a multiple of 2 for 16U4_ALIGN8B";
  for (uint32_t d = 1; d < m.rank; ++d) {
    const uint64_t s = m.global_stride[d];
    const std::string name = "globalStrides[" + std::to_string(d - 1) + "]";
    if (s % 16 != 0 || s >= (uint64_t(1) << 40))
      return name + " is not a multiple of 16 below 2^40";
    if (m.interleave == TmaInterleave::B32 && s % 32 != 0)
      return name + " is not a multiple of 32 with CU_TENSOR_MAP_INTERLEAVE_32B";
    if (is_align16b_packed(m.type) && s % 32 != 0)
      return name + " is not a multiple of 32 for a 16U4_ALIGN16B / 16U6_ALIGN16B type";
  }
  for (uint32_t d = 0; d < m.rank; ++d)
    if (m.box_dim[d] == 0 || m.box_dim[d] > 256)
      return "boxDim[" + std::to_string(d) + "] is not 1 to 256";
  const uint64_t inner_bits = uint64_t(m.box_dim[0]) * element_bits(m.type);
  if (!interleaved && inner_bits % (16 * 8) != 0)
    return "boxDim[0] * element size is not a multiple of 16 bytes";
  if (is_align16b_packed(m.type) && m.box_dim[0] != 128)
    return "boxDim[0] is not 128 for a 16U4_ALIGN16B / 16U6_ALIGN16B type";
  for (uint32_t d = 0; d < m.rank; ++d)
    if (m.element_stride[d] == 0 || m.element_stride[d] > 8)
      return "elementStrides[" + std::to_string(d) + "] is not 1 to 8";
  const uint32_t span = swizzle_span(m.swizzle);
  if (!interleaved && span != 0 && inner_bits > uint64_t(span) * 8)
    return "the box's inner dimension (boxDim[0] * element size) exceeds the " +
           std::to_string(span) + "-byte swizzle span";
  if (m.type == TmaType::U6x16Align16B && interleaved)
    return "16U6_ALIGN16B requires CU_TENSOR_MAP_INTERLEAVE_NONE";
  if (m.interleave == TmaInterleave::B32 && m.swizzle != TmaSwizzle::B32)
    return "CU_TENSOR_MAP_INTERLEAVE_32B requires CU_TENSOR_MAP_SWIZZLE_32B";
  if (m.type == TmaType::U6x16Align16B &&
      !(m.swizzle == TmaSwizzle::None || m.swizzle == TmaSwizzle::B128 ||
        m.swizzle == TmaSwizzle::B128Atom32B || m.swizzle == TmaSwizzle::B128Atom64B))
    return "16U6_ALIGN16B supports only swizzle NONE, 128B, 128B_ATOM_32B and 128B_ATOM_64B";
  if (m.type == TmaType::U4x16Align16B &&
      !(m.swizzle == TmaSwizzle::None || m.swizzle == TmaSwizzle::B128 ||
        m.swizzle == TmaSwizzle::B128Atom32B))
    return "16U4_ALIGN16B supports only swizzle NONE, 128B and 128B_ATOM_32B";
  if (m.oob_fill == TmaOobFill::NanRequestZeroFma && (!is_float(m.type) || is_packed(m.type)))
    return "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point type";
  return "";
}

EncodeResult encode_tensor_map_tiled(void *blob, uint32_t type, uint32_t rank,
                                     uint64_t global_address, const uint64_t *global_dim,
                                     const uint64_t *global_strides, const uint32_t *box_dim,
                                     const uint32_t *element_strides, uint32_t interleave,
                                     uint32_t swizzle, uint32_t l2_promotion, uint32_t oob_fill) {
  auto fail = [](std::string why) { return EncodeResult{kCudaErrorInvalidValue, std::move(why)}; };
  if (blob == nullptr || reinterpret_cast<uintptr_t>(blob) % 64 != 0)
    return fail("tensorMap address is not 64-byte aligned");
  if (type > uint32_t(TmaType::U6x16Align16B))
    return fail("tensorDataType " + std::to_string(type) + " is not a CUtensorMapDataType");
  if (interleave > uint32_t(TmaInterleave::B32))
    return fail("interleave " + std::to_string(interleave) + " is not a CUtensorMapInterleave");
  if (swizzle > uint32_t(TmaSwizzle::B128Atom64B))
    return fail("swizzle " + std::to_string(swizzle) + " is not a CUtensorMapSwizzle");
  if (l2_promotion > uint32_t(TmaL2Promotion::B256))
    return fail("l2Promotion " + std::to_string(l2_promotion) + " is not a CUtensorMapL2promotion");
  if (oob_fill > uint32_t(TmaOobFill::NanRequestZeroFma))
    return fail("oobFill " + std::to_string(oob_fill) + " is not a CUtensorMapFloatOOBfill");
  if (rank < 1 || rank > 5)
    return fail("tensorRank " + std::to_string(rank) + " is not 1 to 5");
  if (global_dim == nullptr || box_dim == nullptr || element_strides == nullptr ||
      (rank > 1 && global_strides == nullptr))
    return fail("a dims, strides, box or element-strides array is null");

  TensorMap m;
  m.type = TmaType(type);
  m.rank = rank;
  m.global_address = global_address;
  m.interleave = TmaInterleave(interleave);
  m.swizzle = TmaSwizzle(swizzle);
  m.l2_promotion = TmaL2Promotion(l2_promotion);
  m.oob_fill = TmaOobFill(oob_fill);
  m.global_stride[0] = tma_type_bytes(m.type);
  for (uint32_t d = 0; d < rank; ++d) {
    m.global_dim[d] = global_dim[d];
    m.box_dim[d] = box_dim[d];
    m.element_stride[d] = element_strides[d];
    if (d > 0)
      m.global_stride[d] = global_strides[d - 1];
  }
  if (std::string why = tensor_map_rule_broken(m); !why.empty())
    return fail(why);

  uint8_t *b = static_cast<uint8_t *>(blob);
  std::memset(b, 0, kBlobBytes);
  put<uint32_t>(b, 0, kMagic);
  put<uint16_t>(b, 4, kVersion);
  b[6] = uint8_t(rank);
  b[7] = uint8_t(type);
  b[8] = uint8_t(interleave);
  b[9] = uint8_t(swizzle);
  b[10] = uint8_t(l2_promotion);
  b[11] = uint8_t(oob_fill);
  put<uint64_t>(b, kAddr, global_address);
  for (uint32_t d = 0; d < rank; ++d) {
    put<uint64_t>(b, kDims + 8 * d, m.global_dim[d]);
    if (d > 0)
      put<uint64_t>(b, kStrides + 8 * (d - 1), m.global_stride[d]);
    put<uint16_t>(b, kBox + 2 * d, uint16_t(m.box_dim[d]));
    b[kEstr + d] = uint8_t(m.element_stride[d]);
  }
  put<uint32_t>(b, kSum, fnv1a(b, kSum));
  return {};
}

bool decode_tensor_map(const void *blob, TensorMap *out) {
  const uint8_t *b = static_cast<const uint8_t *>(blob);
  if (get<uint32_t>(b, 0) != kMagic || get<uint16_t>(b, 4) != kVersion ||
      get<uint32_t>(b, kSum) != fnv1a(b, kSum))
    return false;
  if (b[6] < 1 || b[6] > 5 || b[7] > uint8_t(TmaType::U6x16Align16B) ||
      b[8] > uint8_t(TmaInterleave::B32) || b[9] > uint8_t(TmaSwizzle::B128Atom64B) ||
      b[10] > uint8_t(TmaL2Promotion::B256) || b[11] > uint8_t(TmaOobFill::NanRequestZeroFma))
    return false;
  TensorMap m;
  m.rank = b[6];
  m.type = TmaType(b[7]);
  m.interleave = TmaInterleave(b[8]);
  m.swizzle = TmaSwizzle(b[9]);
  m.l2_promotion = TmaL2Promotion(b[10]);
  m.oob_fill = TmaOobFill(b[11]);
  m.global_address = get<uint64_t>(b, kAddr);
  m.global_stride[0] = tma_type_bytes(m.type);
  for (uint32_t d = 0; d < m.rank; ++d) {
    m.global_dim[d] = get<uint64_t>(b, kDims + 8 * d);
    if (d > 0)
      m.global_stride[d] = get<uint64_t>(b, kStrides + 8 * (d - 1));
    m.box_dim[d] = get<uint16_t>(b, kBox + 2 * d);
    m.element_stride[d] = b[kEstr + d];
  }
  if (!tensor_map_rule_broken(m).empty())
    return false;
  *out = m;
  return true;
}

} // namespace emu::sm90
