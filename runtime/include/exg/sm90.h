// exg/sm90.h - the Hopper (sm_90a) instructions of stdlib cuda.sm90a -------//
// Owns: the C++ that the `emit:` lines of stdlib/cuda/sm90a.exg call, and the
// host-side tensor-map encoding they need: mbarriers, the async proxy fence,
// TMA tiled loads (2-D to 5-D, cluster multicast) and stores, wgmma with
// shared-memory operands and register accumulators, its fence/commit/wait,
// elect.sync, setmaxnreg and cluster barriers. The address arithmetic lives
// in sm90_layout.h (host-tested); the wgmma operand lists in the generated
// sm90_wgmma.inc. Every asm that touches memory has a "memory" clobber.
// Compile with nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a; no
// -lcuda: the driver's encoder is reached through the runtime.
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "exg/runtime.h"
#include "exg/sm90_layout.h"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "exg/sm90.h needs sm_90a: build with -gencode=arch=compute_90a,code=sm_90a"
#endif

#define EXG_DEV __device__ __forceinline__

namespace exg::sm90 {

/// A window of a tensor map: the map (in `__grid_constant__` parameter space,
/// never copied) and the window's origin, outermost dimension first.
template <int R> struct TmaWindow {
  const CUtensorMap *map;
  int32_t coord[R];
};

/// One warpgroup's shard of an `Sm90_RmemMatrixD` tile [64, N]: the N / 2
/// registers of the fragment map (accumulator_coord), and the scale-d flag a
/// zero-init clears so that the next wgmma overwrites instead of adding.
template <int N> struct AccumF32 {
  static_assert(N % 8 == 0 && N >= 8 && N <= 256, "wgmma N is 8 to 256 by 8");
  float r[N / 2];
  int scale_d;
};

/// One warpgroup's shard of an `Sm90_RmemMatrixA` tile [64, 16] of 16-bit
/// elements, the A operand of a wgmma .rs form: four registers of two
/// elements, the lower-indexed one in the low half (PTX ISA 9.7.15.5.1,
/// "Matrix A": element i is row 16w + l / 4 + 8 ((i / 2) % 2), column
/// 2 (l % 4) + i % 2 + 8 (i / 4), the accumulator map of an N = 16 tile).
struct FragA16 {
  uint32_t r[4];
};

#include "sm90_wgmma.inc"

EXG_DEV uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarriers (PTX ISA 9.7.13.15) -------------------------------------------

EXG_DEV void mbarrier_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
/// Makes initialized mbarriers visible to the async proxy and the cluster.
EXG_DEV void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
EXG_DEV void mbarrier_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
EXG_DEV uint32_t cluster_ctarank();
/// Arrives on the barrier at the same address in cluster CTA `cta`: with release at cluster
/// scope for a neighbour (a cluster-scope memory barrier, the costliest part of a 2 x 1
/// cluster GEMM's K step on an H200), at CTA scope for this CTA, whose waiting threads share
/// the CTA with this one.
EXG_DEV void mbarrier_arrive_cluster(uint32_t bar, uint32_t cta) {
  if (cta == cluster_ctarank())
    return mbarrier_arrive(bar);
  asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
               "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n}" ::"r"(bar),
               "r"(cta)
               : "memory");
}
/// One arrival for the whole warp: __syncwarp orders every lane's earlier memory operations
/// before lane 0's, whose release arrive then covers them (cumulativity), as 32 arrives would.
/// Every lane of the warp must call it (exgc emits it for collectives of whole warps only).
EXG_DEV void mbarrier_arrive_warp(uint32_t bar) {
  __syncwarp();
  if ((threadIdx.x & 31) == 0)
    mbarrier_arrive(bar);
}
EXG_DEV void mbarrier_arrive_cluster_warp(uint32_t bar, uint32_t cta) {
  __syncwarp();
  if ((threadIdx.x & 31) == 0)
    mbarrier_arrive_cluster(bar, cta);
}
/// The warp's one arrival on the slot `bar` of each of `count` consecutive cluster ranks from
/// `first`: lane i arrives on rank first + i, all at once rather than one after another from
/// lane 0 (the __syncwarp orders every lane's earlier accesses before each lane's release).
EXG_DEV void mbarrier_arrive_cluster_warp_ranks(uint32_t bar, uint32_t first, uint32_t count) {
  __syncwarp();
  const uint32_t lane = threadIdx.x & 31u;
  if (lane < count)
    mbarrier_arrive_cluster(bar, first + lane);
}
EXG_DEV void mbarrier_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}
EXG_DEV bool mbarrier_try_wait_parity(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               "selp.u32 %0, 1, 0, p;\n}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}
EXG_DEV void mbarrier_wait_parity(uint32_t bar, uint32_t parity) {
  while (!mbarrier_try_wait_parity(bar, parity)) {
  }
}

/// Orders this thread's generic-proxy accesses with later async-proxy ones
/// (TMA, wgmma) in every state space: a TMA load may read global memory this
/// kernel wrote, which `.shared::cta` would not cover.
EXG_DEV void fence_proxy_async() { asm volatile("fence.proxy.async;" ::: "memory"); }

// ---- Warp and cluster control -------------------------------------------------

/// True in exactly one active lane of the warp (elect.sync, PTX ISA 9.7.13.9).
EXG_DEV bool elect_one_sync() {
  uint32_t elected;
  asm volatile("{\n.reg .pred p;\nelect.sync _|p, 0xffffffff;\nselp.u32 %0, 1, 0, p;\n}"
               : "=r"(elected));
  return elected != 0;
}
template <int Regs> EXG_DEV void setmaxnreg_inc() {
  static_assert(Regs % 8 == 0 && Regs >= 24 && Regs <= 256, "setmaxnreg takes 24 to 256 by 8");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Regs));
}
template <int Regs> EXG_DEV void setmaxnreg_dec() {
  static_assert(Regs % 8 == 0 && Regs >= 24 && Regs <= 256, "setmaxnreg takes 24 to 256 by 8");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Regs));
}
EXG_DEV uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
EXG_DEV void cluster_arrive() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
EXG_DEV void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }

// ---- TMA (PTX ISA 9.7.9.25.5) ----------------------------------------------------

/// Brings a kernel parameter's tensor map into the cache before the first TMA
/// that names it (prefetch.tensormap, PTX ISA 9.7.9.15; a generic address of
/// the __grid_constant__ parameter). A hint: correctness does not depend on it.
EXG_DEV void prefetch_tensormap(const CUtensorMap *map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

/// Issues one tiled bulk-tensor load of `map`'s box at `c` (outermost first)
/// into `dst`, completing `bytes` on mbarrier `bar`; `mask` != 0 multicasts it
/// to those cluster CTAs (same offsets, their barriers at the same address).
template <int R>
EXG_DEV void tma_load_tile(uint32_t dst, const CUtensorMap *map, const int32_t (&c)[R],
                           uint32_t bar, uint16_t mask) {
  static_assert(R >= 1 && R <= 5, "TMA tensors have 1 to 5 dimensions");
  uint64_t m = reinterpret_cast<uint64_t>(map);
  // The instruction takes coordinates innermost first.
  int32_t i0 = c[R - 1], i1 = R > 1 ? c[R > 1 ? R - 2 : 0] : 0, i2 = R > 2 ? c[R > 2 ? R - 3 : 0] : 0,
          i3 = R > 3 ? c[R > 3 ? R - 4 : 0] : 0, i4 = R > 4 ? c[0] : 0;
#define EXG_TMA_LOAD(DIMS, COORDS, ...)                                                          \
  if (mask == 0)                                                                                 \
    asm volatile("cp.async.bulk.tensor." DIMS                                                    \
                 ".shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, " COORDS  \
                 "], [%2];" ::"r"(dst), /* %3, the mask, unused: same operand numbers */         \
                 "l"(m), "r"(bar), "h"(mask), __VA_ARGS__ : "memory");                           \
  else                                                                                           \
    asm volatile("cp.async.bulk.tensor." DIMS                                                    \
                 ".shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"  \
                 " [%0], [%1, " COORDS "], [%2], %3;" ::"r"(dst),                                \
                 "l"(m), "r"(bar), "h"(mask), __VA_ARGS__ : "memory")
  if constexpr (R == 1) {
    EXG_TMA_LOAD("1d", "{%4}", "r"(i0));
  } else if constexpr (R == 2) {
    EXG_TMA_LOAD("2d", "{%4, %5}", "r"(i0), "r"(i1));
  } else if constexpr (R == 3) {
    EXG_TMA_LOAD("3d", "{%4, %5, %6}", "r"(i0), "r"(i1), "r"(i2));
  } else if constexpr (R == 4) {
    EXG_TMA_LOAD("4d", "{%4, %5, %6, %7}", "r"(i0), "r"(i1), "r"(i2), "r"(i3));
  } else {
    EXG_TMA_LOAD("5d", "{%4, %5, %6, %7, %8}", "r"(i0), "r"(i1), "r"(i2), "r"(i3), "r"(i4));
  }
#undef EXG_TMA_LOAD
}

/// Stores `src` to `map`'s box at `c` (outermost first) through the bulk
/// group of the calling thread (bulk_commit_group, bulk_wait_group_read).
/// With Add, adds it element by element into the box instead
/// (cp.reduce.async.bulk.tensor .add: each element's add is atomic).
template <int R, bool Add = false>
EXG_DEV void tma_store_tile(const CUtensorMap *map, const int32_t (&c)[R], uint32_t src) {
  static_assert(R >= 1 && R <= 5, "TMA tensors have 1 to 5 dimensions");
  uint64_t m = reinterpret_cast<uint64_t>(map);
  int32_t i0 = c[R - 1], i1 = R > 1 ? c[R > 1 ? R - 2 : 0] : 0, i2 = R > 2 ? c[R > 2 ? R - 3 : 0] : 0,
          i3 = R > 3 ? c[R > 3 ? R - 4 : 0] : 0, i4 = R > 4 ? c[0] : 0;
#define EXG_TMA_STORE(DIMS, COORDS, ...)                                                         \
  if constexpr (Add)                                                                             \
    asm volatile("cp.reduce.async.bulk.tensor." DIMS ".global.shared::cta.add.tile.bulk_group [%0, " \
                 COORDS "], [%1];" ::"l"(m), "r"(src), __VA_ARGS__ : "memory");                  \
  else                                                                                           \
    asm volatile("cp.async.bulk.tensor." DIMS ".global.shared::cta.tile.bulk_group [%0, " COORDS \
                 "], [%1];" ::"l"(m), "r"(src), __VA_ARGS__ : "memory")
  if constexpr (R == 1) {
    EXG_TMA_STORE("1d", "{%2}", "r"(i0));
  } else if constexpr (R == 2) {
    EXG_TMA_STORE("2d", "{%2, %3}", "r"(i0), "r"(i1));
  } else if constexpr (R == 3) {
    EXG_TMA_STORE("3d", "{%2, %3, %4}", "r"(i0), "r"(i1), "r"(i2));
  } else if constexpr (R == 4) {
    EXG_TMA_STORE("4d", "{%2, %3, %4, %5}", "r"(i0), "r"(i1), "r"(i2), "r"(i3));
  } else {
    EXG_TMA_STORE("5d", "{%2, %3, %4, %5, %6}", "r"(i0), "r"(i1), "r"(i2), "r"(i3), "r"(i4));
  }
#undef EXG_TMA_STORE
}

/// `stdlib cuda.sm90a: tma_load_2d_sw128` (T = float) and `..._bf16` (T a
/// 16-bit type): the warp's elected lane expects the tile's bytes on `bar`
/// and loads the [Rows, Cols] box at `src`.
template <int Rows, int Cols, typename T>
EXG_DEV void tma_load_2d(T *dst, TmaWindow<2> src, uint32_t bar) {
  static_assert(Cols * sizeof(T) <= 128, "a tile row fits one 128-byte swizzle row");
  if (elect_one_sync()) {
    mbarrier_expect_tx(bar, uint32_t(Rows * Cols * sizeof(T)));
    tma_load_tile<2>(smem_addr(dst), src.map, src.coord, bar, 0);
  }
}

/// `tma_load_2d_multicast_sw128` (T = float) and `..._bf16`, `..._f16`: the
/// CTA at position g of its group loads rows [g Rows / NCTA, (g + 1) Rows /
/// NCTA) for every CTA in `mask`; each CTA's barrier expects the whole tile.
template <int Rows, int Cols, int NCTA, int Stride, typename T>
EXG_DEV void tma_load_2d_multicast(T *dst, TmaWindow<2> src, uint32_t bar, uint16_t mask) {
  static_assert(Rows % NCTA == 0, "each CTA loads an equal part of the tile");
  static_assert(Cols * sizeof(T) <= 128, "a tile row fits one 128-byte swizzle row");
  if (elect_one_sync()) {
    int32_t g = int32_t((cluster_ctarank() / Stride) % NCTA), part = Rows / NCTA;
    mbarrier_expect_tx(bar, uint32_t(Rows * Cols * sizeof(T)));
    int32_t c[2] = {src.coord[0] + g * part, src.coord[1]};
    tma_load_tile<2>(smem_addr(dst + g * part * Cols), src.map, c, bar, mask);
  }
}

// ---- wgmma (PTX ISA 9.7.15) -----------------------------------------------------

EXG_DEV void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
EXG_DEV void wgmma_commit_group() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
/// Waits until at most `Pending` committed wgmma groups are still running.
template <int Pending> EXG_DEV void wgmma_wait_group() {
  static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group takes 0 to 7");
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
}
/// Keeps the compiler from moving accesses of the accumulator across a wgmma
/// still in flight (the registers are the asm's operands until the wait).
template <int N> EXG_DEV void wgmma_fence_operands(AccumF32<N> &d) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    asm volatile("" : "+f"(d.r[i])::"memory");
}

/// The descriptor of a K-major 128B-swizzled tile at shared-memory pointer
/// `p` (sm90_layout.h's words, packed by one mov).
EXG_DEV uint64_t kmajor_sw128_descriptor(const void *p) {
  const DescriptorWords w = kmajor_tile_descriptor_words(smem_addr(p), Swizzle::B128);
  uint64_t d;
  asm("mov.b64 %0, {%1, %2};" : "=l"(d) : "r"(w.lo), "r"(w.hi));
  return d;
}

/// `wgmma_tf32_m64nNk8`: D += A @ B^T, A [64, 8] and B [N, 8] K-major in
/// 128B-swizzled tiles (rows of 32 floats, 1024-byte aligned pattern).
template <int N>
EXG_DEV void wgmma_m64nNk8_tf32(AccumF32<N> &d, const float *a, const float *b) {
  WgmmaTf32<N>::mma(d.r, kmajor_sw128_descriptor(a),
                    kmajor_sw128_descriptor(b), d.scale_d);
  d.scale_d = 1;
}
/// The same for BF16 operands, k16 (rows of 64 bf16): T is __nv_bfloat16 or
/// exg_bf16 (generated code), the same bits.
template <int N, typename T>
EXG_DEV void wgmma_m64nNk16_bf16(AccumF32<N> &d, const T *a, const T *b) {
  static_assert(sizeof(T) == 2, "bf16 operands are 16-bit elements");
  WgmmaBf16<N>::mma(d.r, kmajor_sw128_descriptor(a),
                    kmajor_sw128_descriptor(b), d.scale_d);
  d.scale_d = 1;
}
/// The same for FP16 operands: T is __half or exg_f16 (generated code).
template <int N, typename T>
EXG_DEV void wgmma_m64nNk16_f16(AccumF32<N> &d, const T *a, const T *b) {
  static_assert(sizeof(T) == 2, "f16 operands are 16-bit elements");
  WgmmaF16<N>::mma(d.r, kmajor_sw128_descriptor(a),
                   kmajor_sw128_descriptor(b), d.scale_d);
  d.scale_d = 1;
}

/// `wgmma_bf16_rs_m64nNk16`: D += A @ B^T with A from registers (a FragA16 of
/// bf16) and B [N, 16] K-major in a 128B-swizzled tile. T: as above.
template <int N, typename T>
EXG_DEV void wgmma_m64nNk16_bf16_rs(AccumF32<N> &d, const FragA16 &a, const T *b) {
  static_assert(sizeof(T) == 2, "bf16 operands are 16-bit elements");
  WgmmaBf16Rs<N>::mma(d.r, a.r, kmajor_sw128_descriptor(b), d.scale_d);
  d.scale_d = 1;
}
/// The same for FP16 operands.
template <int N, typename T>
EXG_DEV void wgmma_m64nNk16_f16_rs(AccumF32<N> &d, const FragA16 &a, const T *b) {
  static_assert(sizeof(T) == 2, "f16 operands are 16-bit elements");
  WgmmaF16Rs<N>::mma(d.r, a.r, kmajor_sw128_descriptor(b), d.scale_d);
  d.scale_d = 1;
}

/// `wgmma_d_to_a_bf16` / `_f16`: columns 16 KK .. 16 KK + 15 of an accumulator
/// tile as a 16-bit A fragment. The A map is the accumulator's for N = 16
/// (FragA16), so each thread packs its own values 8 KK .. 8 KK + 7 in pairs,
/// rounded to nearest even (cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32).
template <int N, int KK> EXG_DEV void wgmma_d_to_a_bf16(FragA16 &a, const AccumF32<N> &d) {
  static_assert(KK >= 0 && 16 * KK + 16 <= N, "the 16 columns lie in the tile");
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    __nv_bfloat162 p = __floats2bfloat162_rn(d.r[8 * KK + 2 * j], d.r[8 * KK + 2 * j + 1]);
    memcpy(&a.r[j], &p, 4);
  }
}
template <int N, int KK> EXG_DEV void wgmma_d_to_a_f16(FragA16 &a, const AccumF32<N> &d) {
  static_assert(KK >= 0 && 16 * KK + 16 <= N, "the 16 columns lie in the tile");
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    __half2 p = __floats2half2_rn(d.r[8 * KK + 2 * j], d.r[8 * KK + 2 * j + 1]);
    memcpy(&a.r[j], &p, 4);
  }
}

/// `wgmma_zero_scale_d`: D = 0 by making the next wgmma overwrite it.
template <int N> EXG_DEV void wgmma_zero_scale_d(AccumF32<N> &d) { d.scale_d = 0; }

/// `wgmma_store_d_row_major_f32`: the warpgroup's tile to `dst`, only the
/// elements with row < m_end and column < n_end.
template <int N>
EXG_DEV void wgmma_store_d_row_major(Win<float, 2> dst, const AccumF32<N> &d, int64_t m_end64,
                                     int64_t n_end64) {
  const int m_end = tile_end(m_end64, 64), n_end = tile_end(n_end64, N);
  uint32_t t = threadIdx.x % 128u;
#pragma unroll
  for (int i = 0; i < N / 2; i += 2) {
    FragmentCoord at = accumulator_coord(t, uint32_t(i));
    int row = int(at.row), col = int(at.col);
    if (row >= m_end)
      continue;
    float *p = dst.data + int64_t(row) * dst.stride[0] + int64_t(col) * dst.stride[1];
    bool pair = col + 1 < n_end && dst.stride[1] == 1 && (reinterpret_cast<uintptr_t>(p) % 8) == 0;
    if (pair) {
      asm volatile("st.global.v2.f32 [%0], {%1, %2};" ::"l"(p), "f"(d.r[i]), "f"(d.r[i + 1])
                   : "memory");
    } else {
      if (col < n_end)
        p[0] = d.r[i];
      if (col + 1 < n_end)
        p[dst.stride[1]] = d.r[i + 1];
    }
  }
}

// ---- Row operations on accumulator tiles (stdlib cuda.sm90a, docs/hopper.md) -------------
// Value i of a thread's AccumF32<N> lies in row half h = (i / 2) % 2 (row 16w + l / 4 + 8h)
// and column 8 (i / 4) + 2 (l % 4) + i % 2 (accumulator_coord): the thread's per-row value
// for that element is value 2h + i % 2 of an AccumF32<8>, and the other three lanes of its
// quad hold the rest of the row.

template <int N> EXG_DEV void wgmma_fill_d(AccumF32<N> &d, float value) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    d.r[i] = value;
  d.scale_d = 1;
}

/// `wgmma_load_d_row_major_f32`: the inverse of wgmma_store_d_row_major; elements at or past
/// (m_end, n_end) get `fill`.
template <int N, typename T>
EXG_DEV void wgmma_load_d_row_major(AccumF32<N> &d, Win<T, 2> src, int64_t m_end64,
                                    int64_t n_end64, float fill) {
  const int m_end = tile_end(m_end64, 64), n_end = tile_end(n_end64, N);
  uint32_t t = threadIdx.x % 128u;
#pragma unroll
  for (int i = 0; i < N / 2; ++i) {
    FragmentCoord at = accumulator_coord(t, uint32_t(i));
    int row = int(at.row), col = int(at.col);
    d.r[i] = row < m_end && col < n_end
                 ? src.data[int64_t(row) * src.stride[0] + int64_t(col) * src.stride[1]]
                 : fill;
  }
  d.scale_d = 1;
}

template <int N> EXG_DEV void wgmma_row_max(AccumF32<8> &mx, const AccumF32<N> &s) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float v = s.r[2 * h];
#pragma unroll
    for (int j = 0; j < N / 8; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e)
        v = exg_max<float>(v, s.r[4 * j + 2 * h + e]);
    v = exg_max<float>(v, __shfl_xor_sync(0xffffffffu, v, 1));
    v = exg_max<float>(v, __shfl_xor_sync(0xffffffffu, v, 2));
    mx.r[2 * h] = exg_max<float>(mx.r[2 * h], v);
    mx.r[2 * h + 1] = exg_max<float>(mx.r[2 * h + 1], v);
  }
}

/// `wgmma_online_max_f32`: the running max as wgmma_row_max, and alpha =
/// 2^(old * scale - new * scale), a new max of -inf scaled as 0.
template <int N>
EXG_DEV void wgmma_online_max(AccumF32<8> &mx, AccumF32<8> &alpha, const AccumF32<N> &s,
                              float scale) {
  AccumF32<8> old = mx;
  wgmma_row_max<N>(mx, s);
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    float ms = -INFINITY < mx.r[k] ? mx.r[k] * scale : 0.0f;
    alpha.r[k] = exg_exp2_approx<float>(fmaf(old.r[k], scale, -ms));
  }
}

template <int N> EXG_DEV void wgmma_row_sum(AccumF32<8> &sum, const AccumF32<N> &s) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float v = 0.0f;
#pragma unroll
    for (int j = 0; j < N / 8; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e)
        v += s.r[4 * j + 2 * h + e];
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    v += __shfl_xor_sync(0xffffffffu, v, 2);
    sum.r[2 * h] += v;
    sum.r[2 * h + 1] += v;
  }
}

template <int N> EXG_DEV void wgmma_exp2_rows(AccumF32<N> &s, const AccumF32<8> &mx, float scale) {
  float ms[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    ms[k] = -INFINITY < mx.r[k] ? mx.r[k] * scale : 0.0f;
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    s.r[i] = exg_exp2_approx<float>(fmaf(s.r[i], scale, -ms[((i / 2) % 2) * 2 + i % 2]));
}

/// `wgmma_mask_cols_f32`, `wgmma_mask_causal_f32`: -inf where column >= n_end,
/// or where column > row + diag.
/// The bound is clamped once to the tile's own range (columns 0..N-1, rows
/// 0..63), so each element compares in 32 bits with the same outcome.
template <int N> EXG_DEV void wgmma_mask_cols(AccumF32<N> &s, int64_t n_end) {
  uint32_t t = threadIdx.x % 128u;
  const int end = n_end < 0 ? 0 : n_end > N ? N : int(n_end);
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    if (int(accumulator_coord(t, uint32_t(i)).col) >= end)
      s.r[i] = -INFINITY;
}
template <int N> EXG_DEV void wgmma_mask_causal(AccumF32<N> &s, int64_t diag) {
  uint32_t t = threadIdx.x % 128u;
  // col - row lies in [-63, N - 1]: a diag outside [-64, N] decides alike.
  const int d = diag < -64 ? -64 : diag > N ? N : int(diag);
#pragma unroll
  for (int i = 0; i < N / 2; ++i) {
    FragmentCoord at = accumulator_coord(t, uint32_t(i));
    if (int(at.col) - int(at.row) > d)
      s.r[i] = -INFINITY;
  }
}

template <int N> EXG_DEV void wgmma_scale_rows(AccumF32<N> &s, const AccumF32<8> &f) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    s.r[i] = s.r[i] * f.r[((i / 2) % 2) * 2 + i % 2];
}

template <int N> EXG_DEV void wgmma_rcp_d(AccumF32<N> &d) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    d.r[i] = __frcp_rn(d.r[i]);
}

// ---- Host: tensor maps --------------------------------------------------------

/// Encodes `map` for the tensor at `base` with `shape` (sm90_layout.h), through
/// cuTensorMapEncodeTiled reached by cudaGetDriverEntryPointByVersion (no
/// -lcuda). Returns cudaErrorInvalidValue for a shape the hardware rejects,
/// with `*why` saying which rule (when `why` is given).
inline cudaError_t encode_tensor_map(CUtensorMap *map, const void *base, const TensorMapShape &shape,
                                     CUtensorMapDataType type, uint32_t elem_bytes, Swizzle s,
                                     const char **why = nullptr) {
  if (const char *e = tensor_map_error(shape, elem_bytes, s)) {
    if (why)
      *why = e;
    return cudaErrorInvalidValue;
  }
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0) {
    if (why)
      *why = "the tensor's address must be 16-byte aligned";
    return cudaErrorInvalidValue;
  }
  using Encode = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                              const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                              const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static Encode encode = nullptr;
  if (!encode) {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    if (cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                         cudaEnableDefault, &found))
      return e;
    if (found != cudaDriverEntryPointSuccess || !fn)
      return cudaErrorNotSupported;
    encode = reinterpret_cast<Encode>(fn);
  }
  CUtensorMapSwizzle swizzle = s == Swizzle::B128  ? CU_TENSOR_MAP_SWIZZLE_128B
                               : s == Swizzle::B64 ? CU_TENSOR_MAP_SWIZZLE_64B
                               : s == Swizzle::B32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                   : CU_TENSOR_MAP_SWIZZLE_NONE;
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], estride[5];
  for (uint32_t d = 0; d < shape.rank; ++d) {
    dims[d] = shape.global_dim[d];
    box[d] = shape.box_dim[d];
    estride[d] = shape.element_stride[d];
    if (d + 1 < shape.rank)
      strides[d] = shape.global_stride[d];
  }
  // Out-of-bounds elements of a box read as zero (OOB_FILL_NONE fills zeros).
  CUresult r = encode(map, type, shape.rank, const_cast<void *>(base), dims, strides, box, estride,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

} // namespace exg::sm90

#undef EXG_DEV

// ---- TMA stores: bulk groups and the epilogue tile (PTX ISA 9.7.9.25.5) -------

#define EXG_DEV __device__ __forceinline__

namespace exg::sm90 {

/// `stdlib cuda.sm90a: tma_store_{2..5}d_*`: the warp's elected lane stores
/// the box at `src` (shared memory, laid out as the map's swizzle says) to
/// the map's box at `dst.coord`, in its bulk group; elements outside the
/// tensor are not written. Threads' writes of `src` must be made visible to
/// the async proxy first (fence.proxy.async, then a barrier).
/// With Add, the elected lane adds the box into the map's box instead.
template <int R, typename T, bool Add = false>
EXG_DEV void tma_store(TmaWindow<R> dst, const T *src) {
  if (elect_one_sync())
    tma_store_tile<R, Add>(dst.map, dst.coord, smem_addr(src));
}

/// `stdlib cuda.sm90a: tma_reduce_add_2d`: as tma_store_box, but the elected
/// lane adds the box into the map's box (element-wise atomic adds in global
/// memory; the map's element type must be one .add takes: f32, f16, bf16).
template <int Sw, int Cols, typename T, int R>
EXG_DEV void tma_reduce_add_box(TmaWindow<R> dst, const T *src) {
  static_assert(Cols * sizeof(T) == Sw, "a box row is exactly one swizzle row");
  tma_store<R, T, true>(dst, src);
}

/// `Arrive(tma_to_gmem_async) >> cg` (Sm90_TmaCommitGroup): closes this
/// thread's bulk group. Lanes that issued nothing commit an empty group, so
/// every lane of a warp counts groups alike whichever lane was elected.
EXG_DEV void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }

/// `Await(cg, cuda_in_order, Pending)`: waits until at most `Pending` of this
/// thread's bulk groups still read shared memory (`.read`: their global
/// writes may still be in flight; kernel end completes them).
template <int Pending> EXG_DEV void bulk_wait_group_read() {
  static_assert(Pending >= 0 && Pending <= 63, "cp.async.bulk.wait_group takes 0 to 63");
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(Pending) : "memory");
}

/// `wgmma_store_d_smem_sw128_f32`: columns [n0, n0 + 32) of the warpgroup's
/// [64, N] accumulator tile into the [64, 32] f32 tile at `dst` (one 128-byte
/// swizzle row per tile row, 1024-byte aligned: the box of a 128B-swizzled
/// tensor map). Each pair of columns is one 8-byte shared store.
template <int N> EXG_DEV void wgmma_store_d_smem_sw128(float *dst, const AccumF32<N> &d, int n0) {
  uint32_t t = threadIdx.x % 128u, base = smem_addr(dst);
#pragma unroll
  for (int j = 0; j < 16; j += 2) {
    int i = n0 / 2 + j;
    FragmentCoord at = accumulator_coord(t, uint32_t(i));
    uint32_t a = base + box_element_offset(Swizzle::B128, 128u, at.row, at.col - uint32_t(n0), 4u);
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(a), "f"(d.r[i]), "f"(d.r[i + 1])
                 : "memory");
  }
}

/// `tma_load_{2..5}d` (stdlib cuda.sm90a): the elected lane expects the box's
/// bytes (Elems elements) on `bar` and loads the map's box at `src` into
/// `dst`, swizzled by Sw bytes; a box row (Cols elements) is one swizzle row.
template <int Sw, int Elems, int Cols, typename T, int R>
EXG_DEV void tma_load_box(T *dst, TmaWindow<R> src, uint32_t bar) {
  static_assert(Cols * sizeof(T) == Sw, "a box row is exactly one swizzle row");
  if (elect_one_sync()) {
    mbarrier_expect_tx(bar, uint32_t(Elems * sizeof(T)));
    tma_load_tile<R>(smem_addr(dst), src.map, src.coord, bar, 0);
  }
}

/// `tma_store_{2..5}d`: tma_store of a box whose rows (Cols elements) are
/// exactly one Sw-byte swizzle row.
template <int Sw, int Cols, typename T, int R>
EXG_DEV void tma_store_box(TmaWindow<R> dst, const T *src) {
  static_assert(Cols * sizeof(T) == Sw, "a box row is exactly one swizzle row");
  tma_store<R>(dst, src);
}

} // namespace exg::sm90

#undef EXG_DEV
