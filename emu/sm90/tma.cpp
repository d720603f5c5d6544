// emu/sm90/tma.cpp - tiled TMA boxes, loads, stores and reductions ----------//
#include "emu/sm90/tma.h"

#include "emu/sm90/convert.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace emu::sm90 {
namespace {

uint32_t swizzle_bits(TmaSwizzle s) {
  return s == TmaSwizzle::B128 ? 3u : s == TmaSwizzle::B64 ? 2u : s == TmaSwizzle::B32 ? 1u : 0u;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string reduce_type_refused(TmaReduceOp op, TmaType t) {
  using T = TmaType;
  auto in = [t](std::initializer_list<T> ok) { return std::find(ok.begin(), ok.end(), t) != ok.end(); };
  bool fine = false;
  switch (op) {
  case TmaReduceOp::Add: fine = in({T::UInt32, T::Int32, T::UInt64, T::Float32, T::Float32Ftz, T::Float16, T::BFloat16}); break;
  case TmaReduceOp::Min:
  case TmaReduceOp::Max: fine = in({T::UInt32, T::Int32, T::UInt64, T::Int64, T::Float16, T::BFloat16}); break;
  case TmaReduceOp::Inc:
  case TmaReduceOp::Dec: fine = in({T::UInt32}); break;
  case TmaReduceOp::And:
  case TmaReduceOp::Or:
  case TmaReduceOp::Xor: fine = in({T::UInt32, T::Int32, T::UInt64, T::Int64}); break;
  }
  return fine ? "" : "cp.reduce.async.bulk.tensor does not support this reduction on tensor "
                     "data type " + std::to_string(uint32_t(t)) + " (ISA 9.7.9.25.5.3)";
}

template <typename T> T load_as(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T> void store_as(uint8_t *p, T v) { std::memcpy(p, &v, sizeof v); }

template <typename T> T int_op(TmaReduceOp op, T old, T src) {
  switch (op) {
  case TmaReduceOp::Add: return T(old + src);
  case TmaReduceOp::Min: return std::min(old, src);
  case TmaReduceOp::Max: return std::max(old, src);
  case TmaReduceOp::Inc: return old >= src ? T(0) : T(old + 1);       // atom.inc
  case TmaReduceOp::Dec: return (old == 0 || old > src) ? src : T(old - 1); // atom.dec
  case TmaReduceOp::And: return T(old & src);
  case TmaReduceOp::Or: return T(old | src);
  case TmaReduceOp::Xor: return T(old ^ src);
  }
  return old;
}

// min/max of PTX: a NaN operand yields the other operand.
float float_op(TmaReduceOp op, float old, float src) {
  if (op == TmaReduceOp::Add)
    return old + src;
  if (std::isnan(old))
    return src;
  if (std::isnan(src))
    return old;
  return op == TmaReduceOp::Min ? std::min(old, src) : std::max(old, src);
}

// `old op src` for one element of type `t`, written back into `old`.
void reduce_element(TmaReduceOp op, TmaType t, uint8_t *old, const uint8_t *src) {
  switch (t) {
  case TmaType::UInt32: store_as(old, int_op(op, load_as<uint32_t>(old), load_as<uint32_t>(src))); return;
  case TmaType::Int32: store_as(old, int_op(op, load_as<int32_t>(old), load_as<int32_t>(src))); return;
  case TmaType::UInt64: store_as(old, int_op(op, load_as<uint64_t>(old), load_as<uint64_t>(src))); return;
  case TmaType::Int64: store_as(old, int_op(op, load_as<int64_t>(old), load_as<int64_t>(src))); return;
  case TmaType::Float32:
  case TmaType::Float32Ftz:
    store_as(old, float_op(op, load_as<float>(old), load_as<float>(src)));
    return;
  case TmaType::Float16:
    store_as(old, f32_to_f16_rn(float_op(op, f16_to_f32(load_as<uint16_t>(old)),
                                         f16_to_f32(load_as<uint16_t>(src)))));
    return;
  case TmaType::BFloat16:
    store_as(old, f32_to_bf16_rn(float_op(op, bf16_to_f32(load_as<uint16_t>(old)),
                                          bf16_to_f32(load_as<uint16_t>(src)))));
    return;
  default:
    return; // refused earlier by reduce_type_refused
  }
}

void fill_oob_nan(uint8_t *p, uint32_t bytes) {
  std::memset(p, 0xFF, bytes);
  p[bytes - 1] = 0x7F; // little-endian: clear the sign bit of the top byte
}

} // namespace

uint32_t tma_smem_alignment(TmaSwizzle s) { return s == TmaSwizzle::None ? 16u : 128u; }

uint32_t tma_swizzle_address(TmaSwizzle s, uint32_t addr) {
  uint32_t b = swizzle_bits(s);
  uint32_t mask = ((1u << b) - 1u) << 4;
  return addr ^ ((addr >> 3) & mask);
}

std::string tma_box(const TensorMap &map, const int32_t *coords, uint32_t smem_addr, TmaBox *box) {
  if (map.interleave != TmaInterleave::None)
    return "interleaved tensor maps are not emulated";
  const uint32_t esize = tma_type_bytes(map.type);
  if (esize == 0)
    return "packed sub-byte tensor data types are not emulated";
  if (map.swizzle > TmaSwizzle::B128)
    return "swizzle-atomicity modes (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_*) are not sm_90 modes";
  const uint32_t align = tma_smem_alignment(map.swizzle);
  if (smem_addr % align != 0)
    return "shared address " + hex(smem_addr) + " is not " + std::to_string(align) +
           "-byte aligned" + (map.swizzle == TmaSwizzle::None ? "" : " as a swizzled TMA box needs");
  uint32_t n[5] = {1, 1, 1, 1, 1};
  for (uint32_t d = 0; d < map.rank; ++d) {
    uint32_t stride = d == 0 ? 1 : map.element_stride[d];
    n[d] = (map.box_dim[d] + stride - 1) / stride;
  }
  const uint32_t row_bytes = n[0] * esize;
  const uint32_t span = 16u << swizzle_bits(map.swizzle);
  if (map.swizzle != TmaSwizzle::None && row_bytes != span)
    return "the box's inner extent of " + std::to_string(row_bytes) + " bytes is narrower than the " +
           std::to_string(span) + "-byte swizzle span; the ISA does not define that shared layout";
  box->elem_bytes = esize;
  box->bytes = esize * n[0] * n[1] * n[2] * n[3] * n[4];
  box->elements.clear();
  box->elements.reserve(box->bytes / esize);
  uint32_t idx[5] = {0, 0, 0, 0, 0};
  for (uint32_t linear = 0; linear < box->bytes / esize; ++linear) {
    BoxElement e;
    e.in_bounds = true;
    e.global_address = map.global_address;
    for (uint32_t d = 0; d < map.rank; ++d) {
      int64_t c = int64_t(coords[d]) + int64_t(idx[d]) * (d == 0 ? 1 : map.element_stride[d]);
      if (c < 0 || uint64_t(c) >= map.global_dim[d])
        e.in_bounds = false;
      else
        e.global_address += uint64_t(c) * map.global_stride[d];
    }
    uint32_t plain = smem_addr + linear * esize;
    e.smem_offset = tma_swizzle_address(map.swizzle, plain) - smem_addr;
    box->elements.push_back(e);
    for (uint32_t d = 0; d < 5 && ++idx[d] == n[d]; ++d)
      idx[d] = 0;
  }
  return "";
}

std::string tma_load(const TensorMap &map, const int32_t *coords, uint32_t smem_addr,
                     const GlobalRead &read, std::vector<uint8_t> *image, TmaBox *box) {
  if (std::string why = tma_box(map, coords, smem_addr, box); !why.empty())
    return why;
  image->assign(box->bytes, 0);
  const bool nan_fill = map.oob_fill == TmaOobFill::NanRequestZeroFma;
  for (const BoxElement &e : box->elements) {
    uint8_t *dst = image->data() + e.smem_offset;
    if (!e.in_bounds) {
      if (nan_fill)
        fill_oob_nan(dst, box->elem_bytes);
      continue;
    }
    if (!read(e.global_address, dst, box->elem_bytes))
      return "TMA load reads global " + hex(e.global_address) + ", outside every allocation";
  }
  return "";
}

std::string tma_store(const TensorMap &map, const int32_t *coords, uint32_t smem_addr,
                      const uint8_t *image, const GlobalWrite &write, TmaBox *box) {
  for (uint32_t d = 0; d < map.rank; ++d)
    if (coords[d] < 0)
      return "TMA store coordinate " + std::to_string(d) + " is " + std::to_string(coords[d]) +
             "; shared-to-global tensor copies need non-negative coordinates";
  if (std::string why = tma_box(map, coords, smem_addr, box); !why.empty())
    return why;
  for (const BoxElement &e : box->elements)
    if (e.in_bounds && !write(e.global_address, image + e.smem_offset, box->elem_bytes))
      return "TMA store writes global " + hex(e.global_address) + ", outside every allocation";
  return "";
}

std::string tma_reduce(const TensorMap &map, TmaReduceOp op, const int32_t *coords,
                       uint32_t smem_addr, const uint8_t *image, const GlobalRead &read,
                       const GlobalWrite &write, TmaBox *box) {
  if (std::string why = reduce_type_refused(op, map.type); !why.empty())
    return why;
  for (uint32_t d = 0; d < map.rank; ++d)
    if (coords[d] < 0)
      return "TMA reduce coordinate " + std::to_string(d) + " is " + std::to_string(coords[d]) +
             "; shared-to-global tensor copies need non-negative coordinates";
  if (std::string why = tma_box(map, coords, smem_addr, box); !why.empty())
    return why;
  uint8_t old[8];
  for (const BoxElement &e : box->elements) {
    if (!e.in_bounds)
      continue;
    if (!read(e.global_address, old, box->elem_bytes))
      return "TMA reduce reads global " + hex(e.global_address) + ", outside every allocation";
    reduce_element(op, map.type, old, image + e.smem_offset);
    if (!write(e.global_address, old, box->elem_bytes))
      return "TMA reduce writes global " + hex(e.global_address) + ", outside every allocation";
  }
  return "";
}

std::vector<uint32_t> multicast_ranks(uint16_t cta_mask) {
  std::vector<uint32_t> ranks;
  for (uint32_t r = 0; r < 16; ++r)
    if (cta_mask & (1u << r))
      ranks.push_back(r);
  return ranks;
}

} // namespace emu::sm90
