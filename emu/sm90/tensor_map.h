// emu/sm90/tensor_map.h - cuTensorMapEncodeTiled, as the emulator stores it ---//
// Owns: the validation rules of the CUDA driver's cuTensorMapEncodeTiled (CUDA
// 13 driver API reference, "Tensor Map Object Management"), the emulator's own
// 128-byte tensor-map blob, and its decoding. The enum values are CUDA's
// (CUtensorMapDataType, CUtensorMapInterleave, CUtensorMapSwizzle,
// CUtensorMapL2promotion, CUtensorMapFloatOOBfill), so the stand-in libcuda
// passes its arguments through unchanged.
#pragma once

#include <cstdint>
#include <string>

namespace emu::sm90 {

/// CUresult values the encoder returns.
constexpr int kCudaSuccess = 0;
constexpr int kCudaErrorInvalidValue = 1;

enum class TmaType : uint32_t {
  UInt8 = 0, UInt16, UInt32, Int32, UInt64, Int64, Float16, Float32, Float64, BFloat16,
  Float32Ftz, TFloat32, TFloat32Ftz, U4x16Align8B, U4x16Align16B, U6x16Align16B,
};
enum class TmaInterleave : uint32_t { None = 0, B16 = 1, B32 = 2 };
enum class TmaSwizzle : uint32_t {
  None = 0, B32, B64, B128, B128Atom32B, B128Atom32BFlip8B, B128Atom64B,
};
enum class TmaL2Promotion : uint32_t { None = 0, B64, B128, B256 };
enum class TmaOobFill : uint32_t { Zero = 0, NanRequestZeroFma = 1 };

/// A tensor map as TMA reads it: everything cuTensorMapEncodeTiled was given.
struct TensorMap {
  TmaType type = TmaType::UInt8;
  uint32_t rank = 0;
  uint64_t global_address = 0;
  uint64_t global_dim[5] = {};     ///< elements, innermost first
  uint64_t global_stride[5] = {};  ///< bytes; [0] is the element size, [1..] as given
  uint32_t box_dim[5] = {};        ///< elements traversed, innermost first
  uint32_t element_stride[5] = {}; ///< traversal strides (1..8)
  TmaInterleave interleave = TmaInterleave::None;
  TmaSwizzle swizzle = TmaSwizzle::None;
  TmaL2Promotion l2_promotion = TmaL2Promotion::None;
  TmaOobFill oob_fill = TmaOobFill::Zero;
};

struct EncodeResult {
  int status = kCudaSuccess; ///< a CUresult
  std::string message;       ///< the rule broken, empty on success
};

/// Bytes of one element of `type`; 0 for the packed sub-byte types.
uint32_t tma_type_bytes(TmaType type);

/// Validates like the driver and, on success, writes the emulator's blob to
/// `blob` (128 bytes, which must be 64-byte aligned like a CUtensorMap).
/// Enum arguments are raw integers so that out-of-range values are refused
/// rather than undefined. Fails (CUDA_ERROR_INVALID_VALUE) naming the rule.
EncodeResult encode_tensor_map_tiled(void *blob, uint32_t type, uint32_t rank,
                                     uint64_t global_address, const uint64_t *global_dim,
                                     const uint64_t *global_strides, const uint32_t *box_dim,
                                     const uint32_t *element_strides, uint32_t interleave,
                                     uint32_t swizzle, uint32_t l2_promotion, uint32_t oob_fill);

/// Reads a blob; false when the bytes are not an intact blob of this encoder
/// (magic, version, checksum, and every rule re-checked).
bool decode_tensor_map(const void *blob, TensorMap *out);

/// The rule `map` breaks, or "" when cuTensorMapEncodeTiled accepts it. The
/// blob's 64-byte alignment is checked by the encoder, not here.
std::string tensor_map_rule_broken(const TensorMap &map);

} // namespace emu::sm90
