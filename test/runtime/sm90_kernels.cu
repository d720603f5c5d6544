// sm90_kernels.cu - every instruction of exg/sm90.h in the kernels they are
// for, compiled for sm_90a by test/runtime/check_ptxas.py: ptxas must accept
// them with no spills and no wgmma serialization warning. A TF32 and a BF16
// GEMM mainloop (producer warp: TMA through a ring of mbarriers; consumer
// warpgroups: wgmma into register tiles, the guarded epilogue), a cluster
// multicast load, 1-D to 5-D TMA loads and stores, and the GEMV shuffles.
#include "exg/sm90.h"

using namespace exg::sm90;

namespace {

constexpr int kRing = 4, kBM = 128, kBN = 256, kBK = 32;

struct TileSmem {
  alignas(1024) float a[kRing][kBM * kBK];
  alignas(1024) float b[kRing][kBN * kBK];
  alignas(8) uint64_t raw[kRing], war[kRing];
};

} // namespace

// One 128 x 256 tile per CTA: warpgroup 0 produces, warpgroups 1-2 consume.
__global__ void __launch_bounds__(384, 1)
    gemm_tf32_tile(const __grid_constant__ CUtensorMap a_map,
                   const __grid_constant__ CUtensorMap b_map, float *c, int m, int n, int k) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  TileSmem &s = *reinterpret_cast<TileSmem *>(smem_raw);
  int wg = threadIdx.x / 128, steps = (k + kBK - 1) / kBK;
  if (threadIdx.x == 0) {
    for (int i = 0; i < kRing; ++i) {
      mbarrier_init(smem_addr(&s.raw[i]), 32);
      mbarrier_init(smem_addr(&s.war[i]), 8); // one arrival per consumer warp
    }
    fence_mbarrier_init();
  }
  __syncthreads();
  if (wg == 0) {
    setmaxnreg_dec<40>();
    if (threadIdx.x < 32) {
      for (int j = 0; j < steps; ++j) {
        // war[j] is logical barrier j - kRing of the ring, pre-arrived for j < kRing.
        if (j >= kRing)
          mbarrier_wait_parity(smem_addr(&s.war[ring_slot(j, kRing)]),
                               ring_parity(j - kRing, kRing));
        uint32_t raw = smem_addr(&s.raw[ring_slot(j, kRing)]);
        tma_load_2d<kBM, kBK>(s.a[ring_slot(j, kRing)],
                              TmaWindow<2>{&a_map, {int(blockIdx.x) * kBM, j * kBK}}, raw);
        tma_load_2d<kBN, kBK>(s.b[ring_slot(j, kRing)],
                              TmaWindow<2>{&b_map, {int(blockIdx.y) * kBN, j * kBK}}, raw);
        mbarrier_arrive(raw);
      }
    }
  } else {
    setmaxnreg_inc<232>();
    AccumF32<kBN> acc;
    wgmma_zero_scale_d(acc);
    for (int j = 0; j < steps; ++j) {
      int slot = ring_slot(j, kRing);
      mbarrier_wait_parity(smem_addr(&s.raw[slot]), ring_parity(j, kRing));
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kBK / 8; ++kk)
        wgmma_m64nNk8_tf32(acc, &s.a[slot][(wg - 1) * 64 * kBK + kk * 8], &s.b[slot][kk * 8]);
      wgmma_commit_group();
      wgmma_wait_group<0>();
      wgmma_fence_operands(acc);
      mbarrier_arrive_warp(smem_addr(&s.war[slot]));
    }
    int row0 = int(blockIdx.x) * kBM + (wg - 1) * 64, col0 = int(blockIdx.y) * kBN;
    exg::Win<float, 2> dst{c + int64_t(row0) * n + col0, {n, 1}};
    wgmma_store_d_row_major(dst, acc, m - row0, n - col0);
  }
}

// BF16 operands, k16 per wgmma, 128 x 128 tile, one consumer warpgroup.
__global__ void __launch_bounds__(256, 1)
    gemm_bf16_tile(const __grid_constant__ CUtensorMap a_map,
                   const __grid_constant__ CUtensorMap b_map, float *c, int m, int n, int k) {
  __shared__ alignas(1024) __nv_bfloat16 a[64 * 128], b[128 * 64];
  __shared__ alignas(8) uint64_t full;
  if (threadIdx.x == 0) {
    mbarrier_init(smem_addr(&full), 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x < 128) {
    setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      mbarrier_expect_tx(smem_addr(&full), sizeof a + sizeof b);
      int32_t ca[2] = {int(blockIdx.x) * 128, 0}, cb[2] = {int(blockIdx.y) * 128, 0};
      tma_load_tile<2>(smem_addr(a), &a_map, ca, smem_addr(&full), 0);
      tma_load_tile<2>(smem_addr(b), &b_map, cb, smem_addr(&full), 0);
      mbarrier_arrive(smem_addr(&full));
    }
  } else {
    setmaxnreg_inc<232>();
    AccumF32<128> acc;
    wgmma_zero_scale_d(acc);
    mbarrier_wait_parity(smem_addr(&full), 0);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
      wgmma_m64nNk16_bf16(acc, &a[kk * 16], &b[kk * 16]);
    wgmma_commit_group();
    wgmma_wait_group<0>();
    wgmma_fence_operands(acc);
    exg::Win<float, 2> dst{c + int64_t(blockIdx.x) * 128 * n + int64_t(blockIdx.y) * 128, {n, 1}};
    wgmma_store_d_row_major(dst, acc, m - int(blockIdx.x) * 128, n - int(blockIdx.y) * 128);
  }
}

// A 2 x 1 cluster shares B tiles by multicast; then a split cluster barrier.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128, 1)
    multicast_load(const __grid_constant__ CUtensorMap b_map, float *out) {
  __shared__ alignas(1024) float b[256 * 32];
  __shared__ alignas(8) uint64_t full;
  if (threadIdx.x == 0) {
    mbarrier_init(smem_addr(&full), 32);
    fence_mbarrier_init();
  }
  cluster_arrive();
  cluster_wait();
  uint16_t mask = multicast_mask(cluster_ctarank(), 2, 1);
  if (threadIdx.x < 32) {
    tma_load_2d_multicast<256, 32, 2, 1>(b, TmaWindow<2>{&b_map, {0, 0}}, smem_addr(&full), mask);
    mbarrier_arrive(smem_addr(&full));
  }
  mbarrier_wait_parity(smem_addr(&full), 0);
  out[blockIdx.x * 128 + threadIdx.x] = b[threadIdx.x * 33];
  if (threadIdx.x == 0)
    mbarrier_arrive_cluster(smem_addr(&full), cluster_ctarank() ^ 1u);
  cluster_arrive();
  cluster_wait();
}

// Tiled loads and stores of every rank, through one staging tile.
__global__ void tma_ranks(const __grid_constant__ CUtensorMap m1, const __grid_constant__ CUtensorMap m2,
                          const __grid_constant__ CUtensorMap m3, const __grid_constant__ CUtensorMap m4,
                          const __grid_constant__ CUtensorMap m5) {
  __shared__ alignas(128) float t[1024];
  __shared__ alignas(8) uint64_t full;
  if (threadIdx.x != 0)
    return;
  uint32_t bar = smem_addr(&full), dst = smem_addr(t);
  mbarrier_init(bar, 1);
  fence_mbarrier_init();
  int32_t c1[1] = {0}, c2[2] = {1, 2}, c3[3] = {1, 2, 3}, c4[4] = {1, 2, 3, 4}, c5[5] = {1, 2, 3, 4, 5};
  mbarrier_expect_tx(bar, 5 * 512);
  tma_load_tile<1>(dst, &m1, c1, bar, 0);
  tma_load_tile<2>(dst, &m2, c2, bar, 0);
  tma_load_tile<3>(dst, &m3, c3, bar, 0);
  tma_load_tile<4>(dst, &m4, c4, bar, 0);
  tma_load_tile<5>(dst, &m5, c5, bar, 0);
  mbarrier_arrive(bar);
  mbarrier_wait_parity(bar, 0);
  fence_proxy_async();
  tma_store_tile<1>(&m1, c1, dst);
  tma_store_tile<2>(&m2, c2, dst);
  tma_store_tile<3>(&m3, c3, dst);
  tma_store_tile<4>(&m4, c4, dst);
  tma_store_tile<5>(&m5, c5, dst);
  bulk_commit_group();
  bulk_wait_group_read<0>();
}

// The TMA-store epilogue of one warpgroup: its 64 x 256 accumulator 32 columns at a time
// into a 128B-swizzled staging tile, the proxy fence and warpgroup barrier, warp 0's store
// of the [64, 32] box, its bulk group's read-wait, and the barrier before the tile is reused.
__global__ void __launch_bounds__(128, 1)
tma_store_epilogue(const __grid_constant__ CUtensorMap c_map, const float *seed) {
  __shared__ alignas(1024) float tile[64 * 32];
  AccumF32<256> acc;
#pragma unroll
  for (int i = 0; i < 128; ++i)
    acc.r[i] = seed[i] * float(threadIdx.x);
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    wgmma_store_d_smem_sw128<256>(tile, acc, 32 * c);
    fence_proxy_async();
    exg::cuda::warpgroup_sync<0, 1>();
    if (threadIdx.x / 32 == 0) {
      tma_store<2>(TmaWindow<2>{&c_map, {int32_t(64 * blockIdx.x), 32 * c}}, tile);
      bulk_commit_group();
      bulk_wait_group_read<0>();
    }
    exg::cuda::warpgroup_sync<0, 1>();
  }
}

// The GEMV's butterfly: each lane's partial sum reduced over strides 4, 2, 1.
__global__ void gemv_shuffles(const float *x, float *y) {
  float v = x[threadIdx.x];
  v = exg::cuda::shfl_xor_sum<4>(v);
  v = exg::cuda::shfl_xor_sum<2>(v);
  v = exg::cuda::shfl_xor_sum<1>(v);
  y[threadIdx.x] = v + exg::cuda::shfl_xor<16>(v);
}

// Host code takes the tensor-map encoder's address: it must link without -lcuda.
int main() {
  CUtensorMap map;
  uint64_t dims[2] = {128, 32};
  uint32_t box[2] = {128, 32};
  TensorMapShape shape = row_major_tensor_map(2, dims, box, 4);
  const char *why = nullptr;
  cudaError_t e = encode_tensor_map(&map, nullptr, shape, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4,
                                    Swizzle::B128, &why);
  return e == cudaSuccess ? 0 : 1;
}
