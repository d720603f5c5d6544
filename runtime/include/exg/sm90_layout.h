// exg/sm90_layout.h - the address arithmetic of Hopper's TMA and wgmma -----//
// Owns: the integer functions that say where data lives for sm_90a
// instructions: the shared-memory swizzles, wgmma matrix descriptors, the
// wgmma accumulator fragment map, tensor-map (TMA) boxes and strides, barrier
// ring slots and phase parities, and cluster multicast masks. Plain C++17,
// constexpr and free of CUDA headers, so the host unit tests check exactly
// the code the kernels run (test/unit/runtime/sm90_layout_test.cpp); the
// reference for each function is the PTX ISA section named beside it.
#pragma once
#include <stdint.h>

#if defined(__CUDACC__)
#define EXG_LAYOUT_FN __host__ __device__ __forceinline__ constexpr
#else
#define EXG_LAYOUT_FN inline constexpr
#endif

namespace exg::sm90 {

// ---- Shared-memory swizzles (PTX ISA 9.7.9.25.3 / tensor swizzling modes) --
//
// A swizzle of S bytes (32, 64 or 128) permutes the 16-byte chunks of each
// S-byte row: chunk bits [4, 4 + log2(S/16)) of a byte offset are XORed with
// the bits 3 positions higher ([7, 7 + log2(S/16))). The pattern repeats every
// 8 rows (S * 8 bytes), which is why swizzled tiles are 1024-byte aligned: the
// hardware applies it to address bits, not to offsets from the tile's start.

enum class Swizzle : uint32_t { None = 0, B32 = 32, B64 = 64, B128 = 128 };

/// log2 of the number of 16-byte chunks a swizzle row has (0 for None).
EXG_LAYOUT_FN uint32_t swizzle_bits(Swizzle s) {
  return s == Swizzle::B128 ? 3u : s == Swizzle::B64 ? 2u : s == Swizzle::B32 ? 1u : 0u;
}

/// The swizzled byte address of the unswizzled byte address `addr`.
EXG_LAYOUT_FN uint32_t swizzle_address(Swizzle s, uint32_t addr) {
  uint32_t mask = ((1u << swizzle_bits(s)) - 1u) << 4;
  return addr ^ ((addr >> 3) & mask);
}

/// The byte alignment a swizzled tile needs so that address bits and tile
/// offsets swizzle alike: the 8-row repeat of the pattern.
EXG_LAYOUT_FN uint32_t swizzle_alignment(Swizzle s) {
  return s == Swizzle::None ? 16u : uint32_t(s) * 8u;
}

// ---- wgmma shared-memory matrix descriptors (PTX ISA 9.7.15.5.1) ----------
//
// 64 bits: start address >> 4 in [0, 14), leading-dimension byte offset >> 4
// in [16, 30), stride-dimension byte offset >> 4 in [32, 46), base offset in
// [49, 52) (0 when the tile starts on a pattern repeat), swizzle mode in
// [62, 64) (0 none, 1 128B, 2 64B, 3 32B).

/// The descriptor's 2-bit code for a swizzle.
EXG_LAYOUT_FN uint64_t descriptor_swizzle_code(Swizzle s) {
  return s == Swizzle::B128 ? 1u : s == Swizzle::B64 ? 2u : s == Swizzle::B32 ? 3u : 0u;
}

/// The descriptor of a matrix at shared address `smem_addr` (bytes; its low
/// 4 bits are dropped, as the ISA does), with byte offsets `lbo` and `sbo`.
EXG_LAYOUT_FN uint64_t make_smem_descriptor(uint32_t smem_addr, uint32_t lbo, uint32_t sbo,
                                            Swizzle s) {
  return uint64_t((smem_addr >> 4) & 0x3FFFu) | uint64_t((lbo >> 4) & 0x3FFFu) << 16 |
         uint64_t((sbo >> 4) & 0x3FFFu) << 32 | descriptor_swizzle_code(s) << 62;
}

/// The descriptor of a K-major tile whose rows are one swizzle row each (the
/// layout TMA writes with a box of S bytes per row): consecutive 8-row groups
/// lie 8 * S bytes apart (SBO); LBO is unused by swizzled K-major layouts and
/// set to 16 bytes, the value the ISA prescribes for it.
EXG_LAYOUT_FN uint64_t kmajor_tile_descriptor(uint32_t smem_addr, Swizzle s) {
  return make_smem_descriptor(smem_addr, 16u, 8u * uint32_t(s), s);
}

/// kmajor_tile_descriptor's low and high 32-bit words, in the form a K loop
/// computes for each wgmma: a shared::cta address is below 2^18 (228 KiB), so
/// address >> 4 fills its 14 bits without a mask and the LBO field joins it in
/// the add before the shift (which also absorbs the operand's offset); the
/// high word is a constant. Two instructions a descriptor where the masked
/// 64-bit form takes five (bench/README.md, profile). Equal to
/// kmajor_tile_descriptor for every such address (sm90_layout_test.cpp).
struct DescriptorWords {
  uint32_t lo, hi;
};
EXG_LAYOUT_FN DescriptorWords kmajor_tile_descriptor_words(uint32_t smem_addr, Swizzle s) {
  return {(smem_addr + (1u << 20)) >> 4,
          (8u * uint32_t(s)) >> 4 | uint32_t(descriptor_swizzle_code(s)) << 30};
}

// ---- The wgmma accumulator fragment (PTX ISA 9.7.15.5.1, "Matrix D") ------
//
// For m64nNk*, thread t of the warpgroup (warp w = t / 32, lane l = t % 32)
// holds N / 2 f32 values; value i is element (row, col) of the 64 x N tile.

struct FragmentCoord {
  uint32_t row, col;
};

EXG_LAYOUT_FN FragmentCoord accumulator_coord(uint32_t thread, uint32_t i) {
  uint32_t w = thread / 32u, l = thread % 32u;
  return {16u * w + l / 4u + 8u * ((i / 2u) % 2u), 8u * (i / 4u) + 2u * (l % 4u) + i % 2u};
}

// ---- Barrier rings -----------------------------------------------------------
//
// A ring of R mbarriers carries logical barriers j = 0, 1, ...: j lives in
// slot j % R and is its slot's (j / R)-th phase, so a wait on j waits for
// phase parity (j / R) & 1. `pre_arrive` logical barriers count as completed
// before the kernel starts: element j maps to physical use j - pre_arrive,
// and a wait on a negative use never blocks.

// Every K step computes these: a j that fits in 32 bits (every real one) takes 32-bit
// unsigned division, a few instructions for a constant ring that is no power of two,
// where the 64-bit form costs tens (measured on an H200: bench/README.md).
EXG_LAYOUT_FN uint32_t ring_slot(int64_t j, uint32_t ring) {
  if (j >= 0 && j <= int64_t(0x7fffffff))
    return uint32_t(j) % ring;
  return uint32_t(((j % int64_t(ring)) + int64_t(ring)) % int64_t(ring));
}

EXG_LAYOUT_FN uint32_t ring_parity(int64_t j, uint32_t ring) {
  if (j >= 0 && j <= int64_t(0x7fffffff))
    return (uint32_t(j) / ring) & 1u;
  int64_t phase = j >= 0 ? j / int64_t(ring) : -((-j + int64_t(ring) - 1) / int64_t(ring));
  return uint32_t(phase & 1);
}

/// The same for a j known not to be negative (a ring without pre-arrived
/// elements): for a ring of 2^n slots, bit operations and no branch.
EXG_LAYOUT_FN uint32_t ring_slot_nonneg(uint64_t j, uint32_t ring) {
  return j <= 0x7fffffffu ? uint32_t(j) % ring : uint32_t(j % ring);
}

EXG_LAYOUT_FN uint32_t ring_parity_nonneg(uint64_t j, uint32_t ring) {
  return j <= 0x7fffffffu ? (uint32_t(j) / ring) & 1u : uint32_t((j / ring) & 1u);
}

// ---- Cluster multicast ------------------------------------------------------

/// The 16-bit mask of the `ncta` CTAs `stride` ranks apart that share the
/// group of cluster rank `rank` (its position `(rank / stride) % ncta`).
EXG_LAYOUT_FN uint16_t multicast_mask(uint32_t rank, uint32_t ncta, uint32_t stride) {
  uint32_t first = rank - ((rank / stride) % ncta) * stride, mask = 0;
  for (uint32_t g = 0; g < ncta; ++g)
    mask |= 1u << (first + g * stride);
  return uint16_t(mask);
}

// ---- Tensor maps (CUDA driver API cuTensorMapEncodeTiled) -------------------
//
// A row-major tensor [d_{R-1}, ..., d_0] (d_0 innermost) of `elem_bytes`
// bytes each, read in boxes [b_{R-1}, ..., b_0]. The driver takes dims and
// boxes innermost first, and the byte strides of dims 1..R-1 only.

struct TensorMapShape {
  uint32_t rank = 0;
  uint64_t global_dim[5] = {};     // innermost first
  uint64_t global_stride[4] = {};  // bytes, of dims 1..rank-1
  uint32_t box_dim[5] = {};        // innermost first
  uint32_t element_stride[5] = {}; // 1: every element
};

/// Why `shape` breaks a rule of cuTensorMapEncodeTiled (or of the swizzle),
/// or nullptr when it is valid.
/// `e` (a row or column bound from 64-bit index arithmetic) clamped to
/// [0, limit], so the per-element tests compare 32-bit values without
/// wrapping a bound past 2^31.
EXG_LAYOUT_FN int tile_end(int64_t e, int limit) { return e < limit ? int(e < 0 ? 0 : e) : limit; }

/// The largest dimension of a tensor map: the hardware takes up to 2^32, but
/// box coordinates are signed 32-bit (cp.async.bulk.tensor's .s32), so a box
/// starting inside the tensor must end below 2^31 (a box dimension is at most 256).
constexpr uint64_t kMaxTensorMapDim = (uint64_t(1) << 31) - 256;

EXG_LAYOUT_FN const char *tensor_map_error(const TensorMapShape &shape, uint32_t elem_bytes,
                                           Swizzle s) {
  if (shape.rank < 1 || shape.rank > 5)
    return "tensor rank must be 1 to 5";
  for (uint32_t d = 0; d < shape.rank; ++d) {
    if (shape.global_dim[d] == 0 || shape.global_dim[d] > kMaxTensorMapDim)
      return "each dimension must be 1 to 2^31 - 256 (box coordinates are signed 32-bit)";
    if (shape.box_dim[d] == 0 || shape.box_dim[d] > 256)
      return "each box dimension must be 1 to 256";
  }
  for (uint32_t d = 0; d + 1 < shape.rank; ++d)
    if (shape.global_stride[d] % 16 != 0 || shape.global_stride[d] >= (uint64_t(1) << 40))
      return "row pitches must be multiples of 16 bytes below 2^40";
  if ((shape.box_dim[0] * elem_bytes) % 16 != 0)
    return "the box's innermost extent must be a multiple of 16 bytes";
  if (s != Swizzle::None && shape.box_dim[0] * elem_bytes > uint32_t(s))
    return "the box's innermost extent must fit in one swizzle row";
  return nullptr;
}

/// The shape of a dense row-major tensor `dims` (outermost first) read in
/// boxes `box` (outermost first).
inline TensorMapShape row_major_tensor_map(uint32_t rank, const uint64_t *dims,
                                           const uint32_t *box, uint32_t elem_bytes) {
  TensorMapShape t;
  t.rank = rank;
  uint64_t pitch = elem_bytes;
  for (uint32_t d = 0; d < rank && d < 5; ++d) {
    uint32_t from_outer = rank - 1 - d;
    t.global_dim[d] = dims[from_outer];
    t.box_dim[d] = box[from_outer];
    t.element_stride[d] = 1;
    if (d > 0)
      t.global_stride[d - 1] = pitch;
    pitch *= dims[from_outer];
  }
  return t;
}

/// Bytes one box moves (the transaction count its mbarrier expects).
EXG_LAYOUT_FN uint32_t box_bytes(const TensorMapShape &shape, uint32_t elem_bytes) {
  uint32_t n = elem_bytes;
  for (uint32_t d = 0; d < shape.rank; ++d)
    n *= shape.box_dim[d];
  return n;
}

} // namespace exg::sm90

// ---- Boxes in shared memory (PTX ISA 9.7.9.25.3, tensor swizzling modes) ---
//
// TMA lays a box out densely, innermost dimension fastest, and swizzles the
// 16-byte chunks by address bits; a box that starts on swizzle_alignment(s)
// therefore has element (row, col) of its rows of `row_bytes` bytes (the
// innermost extent times the element size; at most one swizzle row) at this
// byte offset. Threads that write a tile a TMA store then reads (or read one
// a TMA load wrote) use it; `row` counts all outer dimensions together.

namespace exg::sm90 {

EXG_LAYOUT_FN uint32_t box_element_offset(Swizzle s, uint32_t row_bytes, uint32_t row,
                                          uint32_t col, uint32_t elem_bytes) {
  return swizzle_address(s, row * row_bytes + col * elem_bytes);
}

/// The element of a swizzled buffer that holds its row-major element `linear`
/// (elements of T; the buffer starts on swizzle_alignment(s)). Generated code
/// indexes `Sm90_SmemSwizzled` buffers through this, so that threads and TMA
/// or wgmma agree on where each element lies. sizeof(T) divides 16, so a whole
/// element stays inside one 16-byte chunk.
template <typename T> EXG_LAYOUT_FN uint32_t swizzled_element(Swizzle s, uint32_t linear) {
  return swizzle_address(s, linear * uint32_t(sizeof(T))) / uint32_t(sizeof(T));
}

} // namespace exg::sm90

#undef EXG_LAYOUT_FN
