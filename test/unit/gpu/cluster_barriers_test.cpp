// The CTA groups of multicast instructions (cta_group, the `{cta_mask}`
// codegen emits) against brute force: for thread-loop nests in clusters of 2
// to 16 CTAs, the CTA ranks that each collective actually holds, and the
// 16-bit mask of them, equal the group (ncta, stride) the GPU stage reports
// and the runtime's multicast_mask for every rank of the collective.
#include <gtest/gtest.h>

#include <set>

#include "compiler/gpu/cluster_barriers.h"
#include "compiler/gpu/units.h"
#include "runtime/include/exg/sm90_layout.h"
#include "tiling_threads.h"

namespace exgc::gpu {
namespace {

CollType raw_unit(const std::string &name, const DeviceEnv &env, int64_t k = 1) {
  std::string err;
  std::optional<CollUnit> u = named_unit(*analysis::unit_kind(name), env, k);
  EXPECT_TRUE(u) << name;
  std::optional<CollType> c = unpack_raw(*u, env, err);
  EXPECT_TRUE(c) << err;
  return *c;
}

/// The cluster ranks of the collective that iteration `sigma` (modulo each
/// loop's trip count) of every loop selects (thread l is rank l / blockDim).
std::set<int64_t> ranks_of(const Tiling &t, int64_t sigma, int64_t block) {
  std::map<uint32_t, int64_t> at;
  for (const TileDim &d : t.dims)
    for (const TileOp &op : d.ops)
      at[op.iter] = sigma % op.tile_count;
  std::set<int64_t> ranks;
  for (int64_t l : mapped(t, at))
    ranks.insert(l / block);
  return ranks;
}

/// Checks cta_group on tiling `t` against the ranks its collectives hold.
void expect_group(const Tiling &t, const DeviceEnv &env, int64_t ncta, int64_t stride) {
  std::string err;
  std::optional<MulticastGroup> g = cta_group(t, env.block_dim, err);
  ASSERT_TRUE(g) << err << " for " << t.str();
  EXPECT_EQ(g->ncta, ncta) << t.str();
  EXPECT_EQ(g->stride, stride) << t.str();
  for (int64_t sigma = 0; sigma < 16; ++sigma) {
    std::set<int64_t> ranks = ranks_of(t, sigma, env.block_dim);
    ASSERT_EQ(static_cast<int64_t>(ranks.size()), g->ncta) << t.str();
    uint32_t mask = 0;
    for (int64_t r : ranks)
      mask |= 1u << r;
    for (int64_t r : ranks)
      EXPECT_EQ(exg::sm90::multicast_mask(uint32_t(r), uint32_t(g->ncta), uint32_t(g->stride)),
                mask)
          << "rank " << r << " of " << t.str();
  }
}

// One warp in every CTA (the multicast TMA of the cluster GEMM): all C ranks.
TEST(ClusterBarriers, WarpOfEveryCta) {
  for (int64_t c : {2, 4, 8, 16}) {
    DeviceEnv env{128, c};
    std::string err;
    auto w = derive(Tiling::device(env), 1, "w", raw_unit("cuda_warp", env), 0, 4, true, err);
    ASSERT_TRUE(w) << err;
    expect_group(w->child, env, c, 1);
  }
}

// Groups of k consecutive CTAs (a loop over `k * cuda_cta_in_cluster`), then a
// warp of each: k ranks, 1 apart; one CTA alone (k = 1) is a group of one.
TEST(ClusterBarriers, ConsecutiveCtas) {
  for (int64_t c : {2, 4, 8, 16})
    for (int64_t k = 1; k <= c; k *= 2) {
      DeviceEnv env{256, c};
      std::string err;
      auto g = derive(Tiling::device(env), 1, "g", raw_unit("cuda_cta_in_cluster", env, k), 0,
                      c / k, true, err);
      ASSERT_TRUE(g) << err;
      auto w = derive(g->child, 2, "w", raw_unit("cuda_warp", env), 0, 8, true, err);
      ASSERT_TRUE(w) << err;
      expect_group(w->child, env, k, 1);
    }
}

// A collective inside one CTA spans no other CTA: a group of one.
TEST(ClusterBarriers, InsideOneCta) {
  DeviceEnv env{384, 2};
  std::string err;
  auto cta = derive(Tiling::device(env), 1, "cta", raw_unit("cuda_cta_in_cluster", env), 0, 2,
                    true, err);
  ASSERT_TRUE(cta) << err;
  auto wg = derive(cta->child, 2, "wg", raw_unit("cuda_warpgroup", env), 0, 3, true, err);
  ASSERT_TRUE(wg) << err;
  expect_group(wg->child, env, 1, 1);
}

// A collective of 192 threads from the start of a flat 2 x 128 cluster: one
// CTA and half of the next, which no multicast mask addresses.
TEST(ClusterBarriers, RefusesMixedCollectives) {
  Tiling t;
  TileDim flat;
  flat.extent = 256;
  flat.ops.push_back(TileOp{1, "x", "", 0, 192, 1, 0});
  t.dims.push_back(flat);
  std::string err;
  EXPECT_FALSE(cta_group(t, 128, err));
  EXPECT_NE(err.find("mixes threads of one CTA with several CTAs"), std::string::npos) << err;
}

} // namespace
} // namespace exgc::gpu
