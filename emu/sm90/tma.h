// emu/sm90/tma.h - tiled TMA: which global element lands at which shared byte -//
// Owns: the box of cp.async.bulk.tensor / cp.reduce.async.bulk.tensor in .tile
// mode for 1-5D tensor maps (PTX ISA 9.0 5.5.3 Tiled Mode, 5.5.7 Swizzling
// Modes, 9.7.9.25.5 Tensor copy), and the data movement of loads, stores and
// reduce-adds through memory callbacks. Timing, mbarrier signalling, bulk
// groups and multicast fan-out belong to the engine: a load produces the
// bytes, the engine decides when and where (each CTA of the mask, the same
// offset) they land and calls complete_tx with TmaBox::bytes.
//
// Layout: the box is dense in shared memory, innermost dimension fastest, with
// ceil(boxDim[d] / elementStrides[d]) elements per dimension (the driver
// reference of cuTensorMapEncodeTiled; elementStrides[0] is ignored without
// interleave). The swizzle permutes 16-byte chunks by shared-memory address
// bits: chunk bits [4, 4+b) XOR address bits [7, 7+b), b = 1, 2, 3 for 32B,
// 64B, 128B (the ISA's tables in 5.5.7, whose pattern starts on a 256/512/
// 1024-byte boundary and otherwise has "base offset (dstMem / 128) % 2^b").
#pragma once

#include "emu/sm90/tensor_map.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace emu::sm90 {

/// One element of a box, in box order (innermost dimension fastest).
struct BoxElement {
  bool in_bounds = false;       ///< every coordinate within [0, globalDim)
  uint64_t global_address = 0;  ///< meaningful only when in_bounds
  uint32_t smem_offset = 0;     ///< bytes after the shared address, swizzle applied
};

struct TmaBox {
  uint32_t elem_bytes = 0;
  uint32_t bytes = 0;                ///< shared bytes written or read: the complete_tx count
  std::vector<BoxElement> elements;  ///< elements.size() * elem_bytes == bytes
};

/// Reads or writes `n` bytes of global memory; false when the access is bad
/// (the engine may instead report and never return).
using GlobalRead = std::function<bool(uint64_t addr, void *dst, uint32_t n)>;
using GlobalWrite = std::function<bool(uint64_t addr, const void *src, uint32_t n)>;

/// Shared-memory alignment a TMA destination or source needs: 16 bytes
/// unswizzled (ISA 5.5.3.1: "The address of the bounding Box must also be
/// aligned to 16 bytes"), 128 bytes swizzled (CUDA programming guide, TMA
/// swizzle table for compute capability 9.0; the ISA's base-offset formula
/// (dstMem / 128) also presumes it).
uint32_t tma_smem_alignment(TmaSwizzle s);

/// Where the byte that an unswizzled layout puts at shared address `addr`
/// lies under swizzle `s` (None, 32B, 64B or 128B).
uint32_t tma_swizzle_address(TmaSwizzle s, uint32_t addr);

/// The box of `map` whose first element has coordinates `coords` (map.rank
/// signed values, innermost first, any of them may lie outside the tensor)
/// for the shared address `smem_addr`. Returns "" or why the copy is refused:
/// a misaligned shared address, an interleaved or sub-byte map, a 128B_ATOM
/// swizzle (sm_100 modes), or a swizzled box whose inner extent is narrower
/// than the swizzle span (the ISA does not define that layout).
std::string tma_box(const TensorMap &map, const int32_t *coords, uint32_t smem_addr, TmaBox *box);

/// cp.async.bulk.tensor global -> shared: `image` receives the `box.bytes`
/// bytes that belong at [smem_addr, smem_addr + bytes). Out-of-bounds elements
/// are zero, or with CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA the
/// "OOB-NaN" of ISA 5.5.3.3, whose bits the ISA does not give: the emulator
/// writes the all-ones-payload positive NaN (0x7FFF, 0x7FFFFFFF, ...).
std::string tma_load(const TensorMap &map, const int32_t *coords, uint32_t smem_addr,
                     const GlobalRead &read, std::vector<uint8_t> *image, TmaBox *box);

/// cp.async.bulk.tensor shared -> global: `image` holds the bytes at
/// [smem_addr, smem_addr + bytes); out-of-bounds elements are not written.
/// Negative coordinates are refused (ISA 9.7.9.25.5.1: for the
/// .global.shared::cta direction "tensorCoords must be non-negative").
std::string tma_store(const TensorMap &map, const int32_t *coords, uint32_t smem_addr,
                      const uint8_t *image, const GlobalWrite &write, TmaBox *box);

/// The .redOp of cp.reduce.async.bulk.tensor (ISA 9.7.9.25.5.3).
enum class TmaReduceOp { Add, Min, Max, Inc, Dec, And, Or, Xor };

/// cp.reduce.async.bulk.tensor: each in-bounds global element becomes
/// `old op shared`. Types per the ISA table: add u32 s32 u64 f32 f16 bf16;
/// min/max u32 s32 u64 s64 f16 bf16; inc/dec u32; and/or/xor 32/64-bit
/// integers. Float adds round to nearest even and keep subnormals (the
/// section is silent on flushing); f16/bf16 add in f32 then round, which is
/// exact-then-rounded since 24 >= 2 * 11 + 2.
std::string tma_reduce(const TensorMap &map, TmaReduceOp op, const int32_t *coords,
                       uint32_t smem_addr, const uint8_t *image, const GlobalRead &read,
                       const GlobalWrite &write, TmaBox *box);

/// The cluster CTA ranks of a .multicast::cluster ctaMask, lowest first: bit i
/// names the CTA of %cluster_ctarank i (ISA 9.7.9.25.5.2).
std::vector<uint32_t> multicast_ranks(uint16_t cta_mask);

} // namespace emu::sm90
