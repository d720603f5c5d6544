// emu/sm90/convert.h - the number formats Hopper's async units read and write -//
// Owns: exact decodes of f16, bf16, e4m3 and e5m2 to f32, the tf32 view of an
// f32 that wgmma multiplies, and f32 -> f16 / bf16 with round-to-nearest-even
// (for TMA reduce-adds). Formats: PTX ISA 9.0 section 5.2.5 (alternate
// floating-point data formats) and IEEE 754 binary16.
#pragma once

#include <cstdint>

namespace emu::sm90 {

/// The value wgmma multiplies for a .tf32 input: "wgmma.mma_async operation
/// involving type .tf32 will truncate lower 13 bits of the 32-bit input data
/// before multiplication is issued" (PTX ISA 9.7.15.5.2, Precision and
/// rounding). Truncation, not rounding: 1 + 2^-11 reads as 1. A NaN stays a
/// (quiet) NaN even when its payload lies only in the dropped bits, where plain
/// truncation would turn it into an infinity; the ISA is silent on that case.
float tf32_truncate(float x);

float f16_to_f32(uint16_t h);    ///< exact; subnormals, infinities and NaN kept
float bf16_to_f32(uint16_t b);   ///< exact (the high half of an f32)
/// E4M3 (bias 7): no infinities; S.1111.111 is NaN; max finite 448;
/// subnormals are m/8 * 2^-6.
float e4m3_to_f32(uint8_t v);
/// E5M2 (bias 15): IEEE-like, exponent 31 is infinity (m = 0) or NaN.
float e5m2_to_f32(uint8_t v);

/// Round-to-nearest-even; overflow goes to infinity, NaN to a quiet NaN.
uint16_t f32_to_f16_rn(float x);
uint16_t f32_to_bf16_rn(float x);
/// One rounding from double (wgmma's f16 accumulator rounds its sum once).
uint16_t f64_to_f16_rn(double x);

uint32_t f32_bits(float x);
float f32_from_bits(uint32_t b);

} // namespace emu::sm90
