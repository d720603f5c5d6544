// emu/sm90/wgmma.cpp - wgmma.mma_async operands and product (see wgmma.h) ---//
#include "emu/sm90/wgmma.h"

#include "emu/sm90/convert.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace emu::sm90 {
namespace {

uint32_t elem_bytes(WgmmaType t) {
  switch (t) {
  case WgmmaType::F16: case WgmmaType::BF16: return 2;
  case WgmmaType::E4M3: case WgmmaType::E5M2: return 1;
  case WgmmaType::TF32: case WgmmaType::F32: return 4;
  }
  return 0;
}

bool is_fp8(WgmmaType t) { return t == WgmmaType::E4M3 || t == WgmmaType::E5M2; }
bool is_16bit(WgmmaType t) { return t == WgmmaType::F16 || t == WgmmaType::BF16; }

// The exact value of an input element held in the low bits of `bits`.
double decode_input(WgmmaType t, uint32_t bits) {
  switch (t) {
  case WgmmaType::F16: return f16_to_f32(uint16_t(bits));
  case WgmmaType::BF16: return bf16_to_f32(uint16_t(bits));
  case WgmmaType::TF32: return tf32_truncate(f32_from_bits(bits));
  case WgmmaType::E4M3: return e4m3_to_f32(uint8_t(bits));
  case WgmmaType::E5M2: return e5m2_to_f32(uint8_t(bits));
  case WgmmaType::F32: return f32_from_bits(bits);
  }
  return 0;
}

// ISA 9.7.15.3 (Matrix Data-types) and 9.7.15.5.2 (.atype == .btype except fp8).
std::string types_refused(const WgmmaOp &op) {
  bool ok = (op.a == op.b && (op.a == WgmmaType::TF32 || op.a == WgmmaType::BF16) &&
             op.d == WgmmaType::F32) ||
            (op.a == WgmmaType::F16 && op.b == WgmmaType::F16 &&
             (op.d == WgmmaType::F32 || op.d == WgmmaType::F16)) ||
            (is_fp8(op.a) && is_fp8(op.b) && (op.d == WgmmaType::F32 || op.d == WgmmaType::F16));
  return ok ? "" : "wgmma.mma_async has no variant with these .dtype/.atype/.btype";
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

} // namespace

SmemDescriptor decode_smem_descriptor(uint64_t desc) {
  static const uint32_t kSwizzleBytes[4] = {0, 128, 64, 32};
  SmemDescriptor d;
  d.start = uint32_t(desc & 0x3FFF) << 4;
  d.lbo = uint32_t((desc >> 16) & 0x3FFF) << 4;
  d.sbo = uint32_t((desc >> 32) & 0x3FFF) << 4;
  d.base_offset = uint32_t((desc >> 49) & 0x7);
  d.swizzle = kSwizzleBytes[desc >> 62];
  return d;
}

uint32_t wgmma_element_address(const SmemDescriptor &d, bool mn_major, uint32_t e, uint32_t mn,
                               uint32_t k) {
  const uint32_t S = d.swizzle;
  uint32_t off;
  if (!mn_major) {
    // K-major: ((8,m),(T,2k)) with rows of 16 bytes (none) or S bytes (swizzled).
    uint32_t kb = k * e, chunk = kb / 16, byte = kb % 16;
    if (S == 0)
      off = (mn % 8) * 16 + (mn / 8) * d.sbo + chunk * d.lbo + byte;
    else
      off = (mn % 8) * S + (mn / 8) * d.sbo + chunk * 16 + byte;
  } else {
    // MN-major: ((T,S/16,m),(8,k)), T = 16 / e elements per 16-byte chunk.
    uint32_t T = 16 / e;
    if (S == 0) {
      off = (mn % T) * e + (mn / T) * d.sbo + (k % 8) * 16 + (k / 8) * d.lbo;
    } else {
      uint32_t chunks = S / 16;
      off = (mn % T) * e + ((mn / T) % chunks) * 16 + (mn / (T * chunks)) * d.lbo + (k % 8) * S +
            (k / 8) * d.sbo;
    }
  }
  uint32_t addr = d.start + off;
  uint32_t bits = S == 128 ? 3 : S == 64 ? 2 : S == 32 ? 1 : 0;
  return addr ^ ((addr >> 3) & (((1u << bits) - 1u) << 4));
}

RowCol wgmma_d_coord(uint32_t t, uint32_t i) {
  uint32_t w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * (l % 4) + i % 2};
}

RowCol wgmma_a_coord(WgmmaType a, uint32_t t, uint32_t i) {
  uint32_t w = t / 32, g = (t % 32) / 4, q = t % 4;
  if (a == WgmmaType::TF32) // mma.m16n8k8 .tf32 A
    return {16 * w + g + 8 * (i & 1), q + 4 * (i >> 1)};
  if (is_fp8(a)) // mma.m16n8k32 8-bit A
    return {16 * w + g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)};
  // mma.m16n8k16 .f16/.bf16 A
  return {16 * w + g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)};
}

uint32_t wgmma_k(WgmmaType input) { return 32 / elem_bytes(input); }

std::string wgmma_execute(const WgmmaOp &op, const SmemRead &read, const uint32_t *a_regs,
                          uint32_t *d) {
  if (op.n < 8 || op.n > 256 || op.n % 8 != 0)
    return "wgmma N = " + std::to_string(op.n) + " is not a multiple of 8 in 8..256";
  if (std::string why = types_refused(op); !why.empty())
    return why;
  if ((op.scale_a != 1 && op.scale_a != -1) || (op.scale_b != 1 && op.scale_b != -1))
    return "imm-scale-a/b must be 1 or -1";
  if ((op.tnsp_a != 0 && op.tnsp_a != 1) || (op.tnsp_b != 0 && op.tnsp_b != 1))
    return "imm-trans-a/b must be 0 or 1";
  if ((op.tnsp_a || op.tnsp_b) && !is_16bit(op.a))
    return "imm-trans-a/b = 1 needs .f16 or .bf16 inputs (ISA 9.7.15.5.2)";
  if (op.tnsp_a && op.a_in_regs)
    return "imm-trans-a applies only to an A read through a descriptor";
  const SmemDescriptor da = decode_smem_descriptor(op.desc_a), db = decode_smem_descriptor(op.desc_b);
  if ((!op.a_in_regs && da.base_offset != 0) || db.base_offset != 0)
    return "matrix base offset other than 0: the ISA defines it only through the swizzle pattern's "
           "start address, which the emulator does not model";

  const uint32_t K = wgmma_k(op.a), N = op.n;
  std::vector<double> A(64 * K), B(K * N);
  auto fetch = [&](const SmemDescriptor &desc, WgmmaType t, bool mn_major, uint32_t mn, uint32_t k,
                   double *out) -> std::string {
    uint32_t e = elem_bytes(t), bits = 0, addr = wgmma_element_address(desc, mn_major, e, mn, k);
    if (!read(addr, &bits, e))
      return "wgmma reads shared address " + hex(addr) + ", outside the CTA's shared memory";
    *out = decode_input(t, bits);
    return "";
  };
  for (uint32_t k = 0; k < K; ++k) {
    for (uint32_t n = 0; n < N; ++n)
      if (std::string why = fetch(db, op.b, op.tnsp_b, n, k, &B[k * N + n]); !why.empty())
        return why;
    if (!op.a_in_regs)
      for (uint32_t m = 0; m < 64; ++m)
        if (std::string why = fetch(da, op.a, op.tnsp_a, m, k, &A[m * K + k]); !why.empty())
          return why;
  }
  if (op.a_in_regs) {
    const uint32_t per_reg = 4 / elem_bytes(op.a), ebits = 8 * elem_bytes(op.a);
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t i = 0; i < 4 * per_reg; ++i) {
        uint32_t word = a_regs[t * 4 + i / per_reg];
        uint32_t bits = ebits == 32 ? word : (word >> (ebits * (i % per_reg))) & ((1u << ebits) - 1);
        RowCol rc = wgmma_a_coord(op.a, t, i);
        A[rc.row * K + rc.col] = decode_input(op.a, bits);
      }
  }

  const bool f16_d = op.d == WgmmaType::F16;
  const uint32_t regs = f16_d ? N / 4 : N / 2;
  const double sign = double(op.scale_a * op.scale_b);
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t i = 0; i < N / 2; ++i) {
      RowCol rc = wgmma_d_coord(t, i);
      double sum = 0;
      for (uint32_t k = 0; k < K; ++k)
        sum += A[rc.row * K + k] * B[k * N + rc.col];
      sum *= sign;
      uint32_t &word = d[t * regs + (f16_d ? i / 2 : i)];
      if (!f16_d) {
        if (op.scale_d)
          sum += f32_from_bits(word);
        word = f32_bits(float(sum));
        continue;
      }
      uint32_t shift = 16 * (i % 2);
      if (op.scale_d)
        sum += f16_to_f32(uint16_t(word >> shift));
      uint16_t h = f64_to_f16_rn(sum);
      word = (word & ~(0xFFFFu << shift)) | (uint32_t(h) << shift);
    }
  return "";
}

} // namespace emu::sm90
