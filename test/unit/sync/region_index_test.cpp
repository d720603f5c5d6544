// region_index_test.cpp - the fast engine's exact-box index and tensor table //
//
// ExactIndex is an open-addressing table with deletion by backward shift:
// after any mix of sets and erases every key still present must be found
// from its home slot. Random operations are compared with std::map, on keys
// chosen to collide (few distinct values) and spread (many), across growth.
#include "compiler/sync/region_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace exgc::sync::fast_detail {
namespace {

void check_same(const ExactIndex &index, const std::map<ExactIndex::Key, uint32_t> &model,
                int64_t key_range) {
  for (int64_t a = 0; a < key_range; ++a)
    for (int64_t b = a; b < a + 3; ++b) {
      RegionRef r;
      auto it = model.find({a, b});
      const bool found = index.find({a, b}, r);
      ASSERT_EQ(found, it != model.end()) << a << "," << b;
      if (found) {
        EXPECT_EQ(r.idx, it->second) << a << "," << b;
      }
    }
}

TEST(RegionIndex, MatchesAMapUnderRandomSetsAndErases) {
  for (int64_t range : {16, 300, 5000}) {
    std::mt19937_64 rng(static_cast<uint64_t>(range));
    ExactIndex index;
    std::map<ExactIndex::Key, uint32_t> model;
    for (int step = 0; step < 20000; ++step) {
      const int64_t first = static_cast<int64_t>(rng() % range);
      const ExactIndex::Key key{first, first + static_cast<int64_t>(rng() % 3)};
      if (rng() % 3 == 0) {
        index.erase(key);
        model.erase(key);
      } else {
        const uint32_t v = static_cast<uint32_t>(step);
        index.set(key, RegionRef{0, v});
        model[key] = v;
      }
      if (step % 2500 == 0)
        check_same(index, model, range);
    }
    check_same(index, model, range);
    // Erase everything: nothing may be left behind by the shifts.
    for (const auto &kv : std::map<ExactIndex::Key, uint32_t>(model))
      index.erase(kv.first);
    model.clear();
    check_same(index, model, range);
  }
}

TEST(RegionIndex, EraseOfAnAbsentKeyChangesNothing) {
  ExactIndex index;
  index.erase({1, 1});
  index.set({1, 1}, RegionRef{-1, 7});
  index.erase({2, 2});
  RegionRef r;
  ASSERT_TRUE(index.find({1, 1}, r));
  EXPECT_EQ(r.bucket, -1);
  EXPECT_EQ(r.idx, 7u);
  index.clear();
  EXPECT_FALSE(index.find({1, 1}, r));
}

TEST(TensorTable, AnAliasSharesItsTensorsEntry) {
  TensorTable t;
  TensorInfo a;
  a.name = "part";
  a.shape = {2, 2};
  t.add(a);
  a.name = "y";
  t.add(a);
  t.add_alias(0);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[2].name, "part");
  EXPECT_EQ(&t[2], &t[0]);
  const TensorInfo *first = &t[0];
  for (int i = 0; i < 1000; ++i) // later entries never move earlier ones
    t.add(a);
  EXPECT_EQ(&t[0], first);
  EXPECT_EQ(t[1002].name, "y");
}

// Runs of aliases (replayed tasks, skipped iterations) against a plain
// table of which entry each id names, with adds and aliases of aliases mixed.
TEST(TensorTable, AliasRunsNameTheEntriesAPlainTableWould) {
  TensorTable t;
  std::vector<std::string> model; // id -> the name of the entry it names
  std::mt19937 rng(3);
  TensorInfo info;
  for (int step = 0; step < 400; ++step) {
    const int what = static_cast<int>(rng() % 3);
    if (what == 0 || model.empty()) {
      info.name = "t" + std::to_string(step);
      t.add(info);
      model.push_back(info.name);
      continue;
    }
    const size_t first = rng() % model.size();
    const size_t n = 1 + rng() % std::min<size_t>(5, model.size() - first);
    const size_t times = what == 1 ? 1 : 1 + rng() % 4;
    for (int again = 0; again < (rng() % 2 ? 2 : 1); ++again) { // a range repeated
      t.add_aliases(first, n, times);
      for (size_t k = 0; k < times; ++k)
        for (size_t i = 0; i < n; ++i)
          model.push_back(model[first + i]);
    }
  }
  ASSERT_EQ(t.size(), model.size());
  for (size_t id = 0; id < model.size(); ++id)
    ASSERT_EQ(t[id].name, model[id]) << "id " << id;
  for (size_t id = model.size(); id-- > 0;) // lookups in any order
    ASSERT_EQ(t[id].name, model[id]) << "id " << id;
}

Box box2(int64_t r0, int64_t c0, int64_t r1, int64_t c1) {
  Box b;
  const int64_t lo[] = {r0, c0}, hi[] = {r1, c1};
  b.lo.assign(lo, lo + 2);
  b.hi.assign(hi, hi + 2);
  return b;
}

// RegionStore answers a one-element box in a bucket of one-element regions
// from the exact index alone; a bucket that also holds a wider region must
// still find it. Random disjoint regions against a brute-force scan.
TEST(RegionIndex, QueriesFindEveryOverlappingRegion) {
  TensorInfo t;
  t.shape = {16, 16};
  t.strides = {16, 1};
  t.size = 256;
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    RegionStore store;
    store.init(t);
    std::vector<Box> placed; // disjoint: every element at most once
    std::vector<char> used(256, 0);
    for (int n = 0; n < 120; ++n) {
      const bool wide = rng() % 10 == 0;
      const int64_t r = rng() % 16, c = rng() % 16;
      const Box b = box2(r, c, std::min<int64_t>(16, r + (wide ? 1 + rng() % 3 : 1)),
                         std::min<int64_t>(16, c + (wide ? 1 + rng() % 3 : 1)));
      bool free = true;
      for (int64_t i = b.lo[0]; i < b.hi[0]; ++i)
        for (int64_t j = b.lo[1]; j < b.hi[1]; ++j)
          free = free && !used[i * 16 + j];
      if (!free)
        continue;
      for (int64_t i = b.lo[0]; i < b.hi[0]; ++i)
        for (int64_t j = b.lo[1]; j < b.hi[1]; ++j)
          used[i * 16 + j] = 1;
      store.add(Region{b, static_cast<uint32_t>(placed.size())});
      placed.push_back(b);
    }
    for (int64_t i = 0; i < 16; ++i)
      for (int64_t j = 0; j < 16; ++j) {
        const Box q = box2(i, j, i + 1, j + 1);
        std::vector<uint32_t> got;
        store.query(q, [&](RegionRef r) { got.push_back(store.at(r).ar); });
        std::vector<uint32_t> want;
        for (uint32_t k = 0; k < placed.size(); ++k)
          if (overlaps(placed[k], q))
            want.push_back(k);
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, want) << "round " << round << " at " << i << "," << j;
      }
  }
}

} // namespace
} // namespace exgc::sync::fast_detail
