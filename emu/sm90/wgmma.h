// emu/sm90/wgmma.h - wgmma.mma_async: operands, fragments and the product ----//
// Owns: the shared-memory matrix descriptor, the canonical K-/MN-major layouts
// with their swizzles, the register fragments of A and D, and one
// m64nNk{8,16,32} multiply-accumulate (PTX ISA 9.0 section 9.7.15, mainly
// 9.7.15.5.1 Register Fragments and Shared Memory Matrix Layouts and
// 9.7.15.5.2 wgmma.mma_async). The engine owns the asynchrony (fence, commit,
// wait, when D lands) and calls wgmma_execute once for the whole warpgroup.
//
// Addresses: element (mn, k) of an operand is at
//   swizzle(start + canonical_offset(mn, k))
// where canonical_offset is the ISA's canonical layout table (9.7.15.5.1.2.1.3)
// in bytes and swizzle XORs address bits [4, 4+b) with bits [7, 7+b) of the
// shared address (b = 1, 2, 3 for 32B, 64B, 128B): the same address-bit
// pattern TMA writes (5.5.7), which is why a descriptor whose start moves 32
// bytes along a 128-byte swizzled row still reads the TMA's tile.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace emu::sm90 {

enum class WgmmaType { F16, BF16, TF32, E4M3, E5M2, F32 };

/// The fields of a 64-bit matrix descriptor (ISA 9.7.15.5.1.2.2), in bytes.
struct SmemDescriptor {
  uint32_t start = 0;        ///< bits 0-13, times 16
  uint32_t lbo = 0;          ///< leading dimension byte offset: bits 16-29, times 16
  uint32_t sbo = 0;          ///< stride dimension byte offset: bits 32-45, times 16
  uint32_t base_offset = 0;  ///< bits 49-51
  uint32_t swizzle = 0;      ///< bytes (0, 32, 64, 128) from bits 62-63: 0 none, 1 128B, 2 64B, 3 32B
};
SmemDescriptor decode_smem_descriptor(uint64_t desc);

/// The shared address of element (mn, k) of an operand: mn is the row of A
/// (0..63) or the column of B (0..N-1), k in 0..K-1. `mn_major` is the
/// transposed layout (imm-trans = 1).
uint32_t wgmma_element_address(const SmemDescriptor &d, bool mn_major, uint32_t elem_bytes,
                               uint32_t mn, uint32_t k);

struct RowCol {
  uint32_t row, col;
};
/// Element i (0..N/2-1) of the accumulator of warpgroup thread t (0..127):
/// row 16w + l/4 + 8((i/2) mod 2), col 8(i/4) + 2(l mod 4) + (i mod 2), w = t/32,
/// l = t%32. An f16 D packs elements 2r and 2r+1 in register r (low half first).
RowCol wgmma_d_coord(uint32_t thread, uint32_t i);
/// Element i of the A fragment of thread t: 8 f16/bf16 (4 registers, low half
/// first), 4 tf32 (4 registers) or 16 fp8 (4 registers, low byte first).
/// Each warp holds rows 16w..16w+15 laid out as mma.m16n8k{16,8,32}'s A
/// (ISA 9.7.14.5.8, 9.7.14.5.7, 9.7.14.5.10), which figures 148, 150 and 152
/// repeat for the four warps.
RowCol wgmma_a_coord(WgmmaType a, uint32_t thread, uint32_t i);

/// One wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype. K follows from
/// the input type (tf32: 8, f16/bf16: 16, e4m3/e5m2: 32).
struct WgmmaOp {
  uint32_t n = 8;
  WgmmaType a = WgmmaType::TF32, b = WgmmaType::TF32, d = WgmmaType::F32;
  bool a_in_regs = false;
  uint64_t desc_a = 0, desc_b = 0;
  int scale_a = 1, scale_b = 1;  ///< imm-scale-a/b: 1 or -1 (negates the operand)
  int tnsp_a = 0, tnsp_b = 0;    ///< imm-trans-a/b: 1 = MN-major; f16/bf16 only
  bool scale_d = true;           ///< false: D = A*B, the old D is not read
};

uint32_t wgmma_k(WgmmaType input);

/// Reads `n` bytes of the executing CTA's shared memory; false when outside it.
using SmemRead = std::function<bool(uint32_t addr, void *dst, uint32_t n)>;

/// Runs `op` for the warpgroup. `a_regs` is [128][4] (thread-major) when
/// op.a_in_regs, else unused. `d` is [128][R] thread-major with R = N/2 f32
/// words or N/4 packed f16x2 words, read (when scale_d) and written.
/// Arithmetic: inputs decoded exactly (tf32 truncated, as the ISA says), each
/// product exact, the K products summed in order k = 0..K-1 in double
/// precision, then the old D added, and the result rounded once to the D type
/// (nearest even). The ISA leaves order and rounding unspecified; a hardware
/// difference shows as a few-ulp mismatch, never a wrong element.
/// Returns "" or why the instruction is refused (shape, types, immediates,
/// a base offset other than 0, an unreadable shared address).
std::string wgmma_execute(const WgmmaOp &op, const SmemRead &read, const uint32_t *a_regs,
                          uint32_t *d);

} // namespace emu::sm90
