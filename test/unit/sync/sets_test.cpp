// sets_test.cpp - ThreadSet and VisSet operations ------------------------//
#include "compiler/sync/thread_set.h"
#include "compiler/sync/vis_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace exgc::sync {
namespace {

ThreadSet from(const std::set<uint64_t> &s) {
  ThreadSet t;
  for (uint64_t v : s)
    t.append(v, v + 1);
  return t;
}

std::set<uint64_t> members(const ThreadSet &t) {
  std::set<uint64_t> s;
  for (const Interval &i : t.intervals())
    for (uint64_t v = i.lo; v < i.hi; ++v)
      s.insert(v);
  return s;
}

TEST(ThreadSet, AppendMergesAdjacentRuns) {
  ThreadSet t;
  t.append(0, 32);
  t.append(32, 64);
  t.append(128, 160);
  ASSERT_EQ(t.intervals().size(), 2u);
  EXPECT_EQ(t.size(), 96u);
  EXPECT_TRUE(t.contains(63));
  EXPECT_FALSE(t.contains(64));
  EXPECT_EQ(t.str(), "{0..63,128..159}");
}

// Set algebra against std::set on random small sets.
TEST(ThreadSet, AlgebraMatchesStdSet) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    std::set<uint64_t> a, b;
    for (int i = 0; i < 40; ++i) {
      if (rng() % 3 == 0)
        a.insert(i);
      if (rng() % 3 == 0)
        b.insert(i);
    }
    ThreadSet ta = from(a), tb = from(b);
    std::set<uint64_t> i, d, u;
    for (uint64_t v : a)
      (b.count(v) ? i : d).insert(v);
    u = a;
    u.insert(b.begin(), b.end());
    EXPECT_EQ(members(ta.intersect(tb)), i);
    EXPECT_EQ(members(ta.subtract(tb)), d);
    EXPECT_EQ(members(ta.unite(tb)), u);
    EXPECT_EQ(ta.intersects(tb), !i.empty());
    EXPECT_EQ(ta.intersect(tb), from(i)); // canonical form
  }
}

TEST(VisSet, AddReportsNewTriplesOnly) {
  VisSet v;
  Masks m;
  m.f[Full] = bit(Qual::Cuda2);
  EXPECT_TRUE(v.add(ThreadSet::range(0, 64), m));
  EXPECT_FALSE(v.add(ThreadSet::range(16, 32), m)) << "a subset adds nothing";
  EXPECT_TRUE(v.add(ThreadSet::range(60, 70), m));
  EXPECT_EQ(v.segs().size(), 1u) << "equal neighbours merge";
  EXPECT_TRUE(v.any(ThreadSet::single(69), bit(Qual::Cuda2), Full));
  EXPECT_FALSE(v.any(ThreadSet::single(70), bit(Qual::Cuda2), Full));
  EXPECT_FALSE(v.any(ThreadSet::single(5), bit(Qual::Cuda2), Temp));
}

TEST(VisSet, MissingWitnessAndHeld) {
  VisSet v;
  Masks issue;
  issue.f[Issue] = bit(Qual::WgS);
  v.add(ThreadSet::range(128, 256), issue);
  Masks full = augment_masks(*lookup_sync_tl("cuda_in_order"));
  v.add(ThreadSet::range(128, 192), full);
  EXPECT_EQ(v.missing(ThreadSet::range(100, 200), bit(Qual::Cuda2), Full).str(),
            "{100..127,192..199}");
  EXPECT_TRUE(v.witness(ThreadSet::range(250, 260), bit(Qual::WgS)));
  EXPECT_FALSE(v.witness(ThreadSet::range(250, 260), bit(Qual::Cuda2)));
  Masks h = v.held(ThreadSet::range(0, 130));
  EXPECT_EQ(h.f[Issue], bit(Qual::WgS) | full.f[Issue]);
  EXPECT_EQ(h.f[Temp] & bit(Qual::Async), bit(Qual::Async)) << "temporal-only quals of cuda_in_order";
  EXPECT_EQ(h.f[Full] & bit(Qual::Async), 0u);
}

// add (merging and in-place paths), covers and missing against a per-thread
// table of masks, on random sets over a few threads and two quals.
TEST(VisSet, AddAndCoversMatchPerThreadTable) {
  std::mt19937 rng(11);
  const QualMask qa = bit(Qual::Cuda1), qb = bit(Qual::WgS);
  for (int iter = 0; iter < 2000; ++iter) {
    VisSet v;
    std::vector<Masks> ref(24);
    for (int step = 0; step < 6; ++step) {
      std::set<uint64_t> ts;
      const bool run = rng() % 2 == 0; // whole runs make the in-place path likely
      const uint64_t lo = rng() % 24, hi = lo + 1 + rng() % (24 - lo);
      for (uint64_t t = 0; t < 24; ++t)
        if (run ? (t >= lo && t < hi) : rng() % 3 == 0)
          ts.insert(t);
      Masks m;
      m.f[rng() % kNumFlags] = rng() % 2 ? qa : qa | qb;
      m.f[Temp] |= rng() % 2 ? qb : 0;
      bool expect_new = false;
      for (uint64_t t : ts) {
        Masks before = ref[t];
        ref[t] |= m;
        expect_new = expect_new || ref[t] != before;
      }
      EXPECT_EQ(v.add(from(ts), m), expect_new);
      for (uint64_t t = 0; t < 24; ++t)
        for (int f = 0; f < kNumFlags; ++f)
          EXPECT_EQ(v.any(ThreadSet::single(t), qa, f), (ref[t].f[f] & qa) != 0);
    }
    for (const VisSet::Seg &sg : v.segs()) // canonical: equal neighbours merged
      for (const VisSet::Seg &nx : v.segs())
        if (nx.lo == sg.hi)
          EXPECT_NE(nx.m, sg.m);
    std::set<uint64_t> c;
    for (uint64_t t = 0; t < 24; ++t)
      if (rng() % 2)
        c.insert(t);
    if (c.empty())
      continue;
    for (int f = 0; f < kNumFlags; ++f) {
      bool all = true;
      for (uint64_t t : c)
        all = all && (ref[t].f[f] & qb) != 0;
      EXPECT_EQ(v.covers(from(c), qb, f), all);
      EXPECT_EQ(v.missing(from(c), qb, f).empty(), all);
    }
  }
}

TEST(Quals, SyncTimelineNamesRoundTrip) {
  for (const char *n : {"cuda_in_order", "cuda_temporal", "wgmma_async", "empty_sync_tl",
                        "cuda_generic_and_async_proxy", "Sm80_generic"}) {
    auto tl = lookup_sync_tl(n);
    ASSERT_TRUE(tl) << n;
    EXPECT_EQ(sync_tl_string(*tl), n);
    EXPECT_EQ(tl->temp & tl->full, tl->full) << "temporal includes full";
  }
  SyncTl odd{bit(Qual::TmaG), bit(Qual::TmaG) | bit(Qual::Wg0)};
  EXPECT_EQ(sync_tl_string(odd), "{tmaG}~{wg0}");
  EXPECT_FALSE(lookup_sync_tl("cuda_in_ordr"));
}

} // namespace
} // namespace exgc::sync
