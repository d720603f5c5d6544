// The collective algebra against brute force: for random nests of thread
// loops, the iterator and guard arithmetic that codegen emits selects, for
// every thread of the cluster, exactly the collective that the tiling's
// thread mapping says; and each scope check agrees with a direct look at the
// sets of threads.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "compiler/gpu/collective.h"
#include "compiler/gpu/units.h"
#include "tiling_threads.h"

namespace exgc::gpu {
namespace {

CollUnit unit_of(const std::string &name, const DeviceEnv &env, int64_t k = 1) {
  std::optional<CollUnit> u = named_unit(*analysis::unit_kind(name), env, k);
  EXPECT_TRUE(u) << name;
  return *u;
}

CollType raw(const CollUnit &u, const DeviceEnv &env) {
  std::string err;
  std::optional<CollType> c = unpack_raw(u, env, err);
  EXPECT_TRUE(c) << err;
  return *c;
}

CollType aligned(const CollUnit &u, const DeviceEnv &env) {
  std::string err;
  std::optional<CollType> c = unpack_aligned(u, env, err);
  EXPECT_TRUE(c) << err;
  return *c;
}

TEST(CollIndex, Simplifies) {
  CollIndex t = CollIndex::thread(256);
  EXPECT_EQ(t.div(32).c_str("tid", "r"), "(tid / 32)");
  EXPECT_EQ(t.div(4).div(8).c_str("tid", "r"), "(tid / 32)");
  EXPECT_EQ(t.mod(32).mod(8).c_str("tid", "r"), "(tid % 8)");
  EXPECT_EQ(t.minus(128).mod(128).c_str("tid", "r"), "(tid % 128)");
  EXPECT_EQ(t.mod(1).c_str("tid", "r"), "0");
  EXPECT_EQ(t.mod(256).c_str("tid", "r"), "tid"); // already in range
  EXPECT_EQ(t.minus(64).minus(32).c_str("tid", "r"), "(tid - 96)");
  // A warpgroup loop inside the consumer warps: C precedence needs the parentheses.
  EXPECT_EQ(t.minus(128).div(128).c_str("tid", "r"), "((tid - 128) / 128)");
  EXPECT_EQ(t.minus(128).mod(128).div(32).c_str("tid", "r"), "(tid % 128 / 32)");
  EXPECT_EQ(t.div(32).lo(), 0);
  EXPECT_EQ(t.div(32).hi(), 8);
}

// Worked example A of the reference: warps, then threads.
TEST(Collective, WarpsThenThreads) {
  DeviceEnv env{256, 1};
  std::string err;
  auto w = derive(Tiling::device(env), 1, "w", raw(unit_of("cuda_warp", env), env), 0, 8, true, err);
  ASSERT_TRUE(w) << err;
  EXPECT_EQ(w->iter.c_str("t", "r"), "(t / 32)");
  EXPECT_FALSE(w->guard_hi);
  EXPECT_EQ(w->pitch, 32);
  EXPECT_TRUE(at_scope(w->child, aligned(unit_of("cuda_warp", env), env), err)) << err;
  auto t = derive(w->child, 2, "t", raw(unit_of("cuda_thread", env), env), 0, 32, true, err);
  ASSERT_TRUE(t) << err;
  EXPECT_EQ(t->iter.c_str("t", "r"), "(t % 32)");
  EXPECT_EQ(t->pitch, 1);
}

// Example B: a partial tiling by an odd unit needs a guard; it is no warp.
TEST(Collective, OddUnitGuard) {
  DeviceEnv env{256, 1};
  std::string err;
  auto x = derive(Tiling::device(env), 1, "x", raw(unit_of("cuda_thread", env, 23), env), 0, 10,
                  true, err);
  ASSERT_TRUE(x) << err;
  EXPECT_EQ(x->iter.c_str("t", "r"), "(t / 23)");
  ASSERT_TRUE(x->guard_hi);
  EXPECT_EQ(*x->guard_hi, 10);
  EXPECT_EQ(x->pitch, 23);
  EXPECT_FALSE(at_scope(x->child, aligned(unit_of("cuda_warp", env), env), err));
}

// Example F: a CTA loop of a cluster, then warps inside it.
TEST(Collective, ClusterThenWarp) {
  DeviceEnv env{128, 2};
  std::string err;
  auto c = derive(Tiling::device(env), 1, "cta", raw(unit_of("cuda_cta_in_cluster", env), env), 0,
                  2, true, err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->iter.c_str("t", "rank"), "rank");
  EXPECT_EQ(c->pitch, 128);
  auto w = derive(c->child, 2, "w", raw(unit_of("cuda_warp", env), env), 0, 4, true, err);
  ASSERT_TRUE(w) << err;
  EXPECT_TRUE(at_scope(w->child, aligned(unit_of("cuda_warp", env), env), err)) << err;
  // The other order: warp w of both CTAs, which is not a warp.
  auto w2 = derive(Tiling::device(env), 2, "w", raw(unit_of("cuda_warp", env), env), 0, 4, true,
                   err);
  ASSERT_TRUE(w2) << err;
  EXPECT_FALSE(at_scope(w2->child, aligned(unit_of("cuda_warp", env), env), err));
}

TEST(Collective, Failures) {
  DeviceEnv env{128, 1};
  std::string err;
  EXPECT_FALSE(derive(Tiling::device(env), 1, "g", raw(unit_of("cuda_thread", env, 40), env), 0,
                      4, true, err));
  EXPECT_EQ(err, "4 iterations of unit 'cuda_thread' need 160 threads, but the CTA has 128 threads");
  // A unit wider than the collective has no part in it, even for one trip:
  // a warpgroup inside a warp (catalog C3). With blockDim 128 the warpgroup
  // would be the whole CTA, which tiles nothing ("trivial tiling", accepted for
  // one trip as in the reference: a CTA unit inside a warp narrows only the
  // cluster dimension), so this takes two warpgroups.
  DeviceEnv two{256, 1};
  auto warp = derive(Tiling::device(two), 1, "w", raw(unit_of("cuda_warp", two), two), 0, 8, true,
                     err);
  ASSERT_TRUE(warp) << err;
  EXPECT_FALSE(derive(warp->child, 2, "g", raw(unit_of("cuda_warpgroup", two), two), 0, 1, true,
                      err));
  EXPECT_EQ(err, "1 iteration of unit 'cuda_warpgroup' needs 128 threads, but each iteration of the "
                 "enclosing loop 'w' has 32 threads (unit 'cuda_warp')");
  EXPECT_FALSE(named_unit(UnitKind::CudaQuadpair, env, 2));
  DeviceEnv odd{96, 1};
  EXPECT_FALSE(unpack_aligned(unit_of("cuda_warpgroup", odd), odd, err));
}

// ---------------------------------------------------------------------------
// Brute force.

/// A `cuda_threads` loop of n iterations, or a nested `CudaWarps` block
/// (n = 1: its warps run the body together, the iterator is 0).
struct Loop {
  CollUnit unit;
  int64_t n;
  Derived d;
};

/// Each thread's iteration of every loop of the nest, by evaluating the
/// emitted arithmetic; std::nullopt when a guard drops the thread.
std::optional<std::vector<int64_t>> run_thread(const std::vector<Loop> &nest, int64_t tid,
                                               int64_t rank) {
  std::vector<int64_t> sigma;
  for (const Loop &l : nest) {
    int64_t g = l.d.before.eval(tid, rank);
    if ((l.d.guard_lo && g < *l.d.guard_lo) || (l.d.guard_hi && g >= *l.d.guard_hi))
      return std::nullopt;
    sigma.push_back(l.d.trivial ? 0 : l.d.iter.eval(tid, rank));
  }
  return sigma;
}

/// Whether a set of threads is an instance of an aligned type, by looking.
bool is_instance(const std::set<int64_t> &s, const CollType &c) {
  std::vector<std::set<int64_t>> coords(c.domain.size());
  for (int64_t l : s) {
    int64_t rest = l;
    for (size_t i = c.domain.size(); i-- > 0;) {
      coords[i].insert(rest % c.domain[i]);
      rest /= c.domain[i];
    }
  }
  size_t product = 1;
  for (size_t i = 0; i < c.domain.size(); ++i) {
    if (c.box[i] == 1 && coords[i].size() != 1)
      return false;
    if (c.box[i] == c.domain[i] && static_cast<int64_t>(coords[i].size()) != c.domain[i])
      return false;
    product *= coords[i].size();
  }
  return product == s.size();
}

CollUnit random_unit(std::mt19937_64 &rng, const DeviceEnv &env) {
  const int64_t B = env.block_dim;
  switch (rng() % 7) {
  case 0: return unit_of("cuda_thread", env, std::vector<int64_t>{1, 2, 4, 8, 16, 3, 23}[rng() % 7]);
  case 1: return unit_of("cuda_warp", env, std::vector<int64_t>{1, 2, 4}[rng() % 3]);
  case 2: return unit_of("cuda_warpgroup", env);
  case 3: return unit_of("cuda_quadpair", env);
  case 4: {
    std::vector<int64_t> strides;
    for (int64_t s : {2, 4, 8, 16, 32})
      if (B % s == 0)
        strides.push_back(s);
    int64_t s = strides[rng() % strides.size()];
    int64_t m = std::vector<int64_t>{1, 2}[rng() % 2];
    std::optional<CollUnit> u;
    u = CollUnit{{B / s, s}, {int64_t(1 + rng() % 2), m}, true, "strided(" + std::to_string(m) + "," + std::to_string(s) + ")"};
    return *u;
  }
  case 5:
    if (env.cluster_dim > 1)
      return unit_of("cuda_cta_in_cluster", env);
    return unit_of("cuda_thread", env);
  default: return unit_of("cuda_thread", env);
  }
}

TEST(Collective, BruteForceAgreesWithTheAlgebra) {
  std::mt19937_64 rng(20261201);
  const std::vector<int64_t> blocks{32, 64, 96, 128, 256, 384};
  const std::vector<int64_t> clusters{1, 2, 4};
  int nests = 0, loops = 0, warps_blocks = 0, scope_checks = 0;
  for (int trial = 0; trial < 6000 && nests < 1500; ++trial) {
    DeviceEnv env{blocks[rng() % blocks.size()], clusters[rng() % clusters.size()]};
    std::vector<Loop> nest;
    Tiling t = Tiling::device(env);
    int depth = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < depth; ++k) {
      // A few tries per level, so that nests get deep.
      bool added = false;
      for (int attempt = 0; attempt < 16 && !added; ++attempt) {
        // One level in four tries a nested CudaWarps(lo, hi) of the current collective.
        bool warps = rng() % 4 == 0;
        CollUnit u = warps ? unit_of("cuda_warp", env) : random_unit(rng, env);
        std::string err;
        std::optional<CollType> r = unpack_raw(u, env, err);
        if (!r)
          continue;
        int64_t n = 1 + static_cast<int64_t>(rng() % 8);
        int64_t lo = warps ? static_cast<int64_t>(rng() % 4) : 0;
        int64_t hi = warps ? lo + 1 + static_cast<int64_t>(rng() % 4) : n;
        auto d = derive(t, static_cast<uint32_t>(k + 1), "l" + std::to_string(k), *r, lo, hi,
                        !warps, err);
        if (!d)
          continue;
        if (warps) {
          u.name = "CudaWarps(" + std::to_string(lo) + ", " + std::to_string(hi) + ")";
          n = 1;
          ++warps_blocks;
        }
        nest.push_back({u, n, *d});
        t = d->child;
        added = true;
      }
      if (!added)
        break;
    }
    if (nest.empty())
      continue;
    ++nests;
    loops += static_cast<int>(nest.size());
    // Group the threads by their iteration values, as the emitted code does.
    std::map<std::vector<int64_t>, std::set<int64_t>> by_sigma;
    for (int64_t rank = 0; rank < env.cluster_dim; ++rank)
      for (int64_t tid = 0; tid < env.block_dim; ++tid)
        if (auto s = run_thread(nest, tid, rank))
          by_sigma[*s].insert(rank * env.block_dim + tid);
    // Every combination of iteration values runs, on the mapped threads.
    size_t combos = 1;
    for (const Loop &l : nest)
      combos *= static_cast<size_t>(l.d.trivial ? 1 : l.n);
    std::string desc = "blockDim=" + std::to_string(env.block_dim) +
                       " clusterDim=" + std::to_string(env.cluster_dim);
    for (const Loop &l : nest) {
      CollType c = raw(l.unit, env);
      desc += " | " + l.unit.name + " " + c.str() + " n=" + std::to_string(l.n) + " iter=" +
              l.d.iter.c_str("t", "r") + (l.d.guard_hi ? " < " + std::to_string(*l.d.guard_hi) : "");
    }
    ASSERT_EQ(by_sigma.size(), combos) << desc;
    for (const auto &[sigma, threads] : by_sigma) {
      std::map<uint32_t, int64_t> named;
      for (size_t k = 0; k < sigma.size(); ++k) {
        ASSERT_GE(sigma[k], 0);
        ASSERT_LT(sigma[k], nest[k].n);
        named[static_cast<uint32_t>(k + 1)] = sigma[k];
      }
      ASSERT_EQ(mapped(t, named), threads) << desc << " " << t.str();
    }
    // Scope checks against the sets themselves.
    for (const char *name : {"standalone_thread", "cuda_warp", "cuda_warpgroup",
                             "cuda_cta_in_cluster", "cuda_cluster"}) {
      std::string err;
      std::optional<CollType> c = unpack_aligned(unit_of(name, env), env, err);
      if (!c)
        continue;
      bool brute = true;
      for (const auto &entry : by_sigma)
        brute = brute && is_instance(entry.second, *c);
      std::string why;
      bool algebra = at_scope(t, *c, why);
      // The algebra may refuse a tiling it cannot split (an alignment error);
      // it never claims a scope the threads do not have.
      if (algebra) {
        EXPECT_TRUE(brute) << name << " " << desc << " " << t.str();
      } else if (why.find("alignment") == std::string::npos &&
               why.find("completion") == std::string::npos) {
        EXPECT_FALSE(brute) << name << " " << desc << " " << t.str() << ": " << why;
      }
      ++scope_checks;
    }
  }
  EXPECT_GE(nests, 1000);
  EXPECT_GE(warps_blocks, 200); // nested CudaWarps are in the mix
  EXPECT_GE(2 * loops, 3 * nests); // nests are 1.5 loops deep on average at least
  RecordProperty("nests", nests);
  RecordProperty("loops", loops);
  RecordProperty("warps_blocks", warps_blocks);
  RecordProperty("scope_checks", scope_checks);
}

} // namespace
} // namespace exgc::gpu
