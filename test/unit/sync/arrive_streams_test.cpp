// arrive_streams_test.cpp - implicit pending entries and the change log ----//
//
// ArriveStreams (compiler/sync/arrive_streams.h) alone: which subscribers an
// Await orders, once per awaiting (collective, sync-tl), with counts that go
// down and elements that are freed. Then the fast engine on long barrier
// arrays: its work per element must not grow with the array (the arrive
// streams and the change-log scans), which a quadratic engine fails.
#include "compiler/sync/arrive_streams.h"
#include "compiler/sync/fast_engine.h"
#include "compiler/sync/interpreter.h"
#include "compiler/sync/text_format.h"

#include <gtest/gtest.h>

#include <memory>

namespace exgc::sync {
namespace {

using fast_detail::ArriveStreams;
using fast_detail::Ref;

ThreadSetP threads(uint64_t lo, uint64_t hi) {
  return std::make_shared<const ThreadSet>(ThreadSet::range(lo, hi));
}

// The records `due` hands out for (bar, kmax) by `who`.
std::vector<uint32_t> due(ArriveStreams &s, uint64_t bar, int64_t kmax, const ThreadSetP &who,
                          SyncTl l2 = SyncTl()) {
  std::vector<uint32_t> out;
  s.due(bar, kmax, who, l2, [&](const Ref &r) { out.push_back(r.first); });
  return out;
}

// One Arrive of `stream` on `bars` with count k, during which `subs` subscribe.
void arrive(ArriveStreams &s, uint32_t stream, std::vector<uint64_t> bars, int64_t k,
            std::vector<uint32_t> subs = {}) {
  const uint64_t t = s.begin_arrive(stream);
  for (uint32_t r : subs)
    s.subscribe(stream, t, {r, 1});
  s.end_arrive(stream, t, bars, k);
}

TEST(SyncArriveStreams, ASubscriberTakesTheFirstArriveOnEachElementFromItsSubscription) {
  ArriveStreams s;
  arrive(s, 1, {10}, 0);       // before any subscriber: concerns nobody
  arrive(s, 1, {11}, 0, {100}); // 100 subscribes: entries on 11, then 12 and 13
  arrive(s, 1, {12}, 0, {101});
  arrive(s, 1, {13}, 0);
  const ThreadSetP c = threads(32, 64);
  EXPECT_TRUE(due(s, 10, 5, c).empty());
  EXPECT_EQ(due(s, 11, 0, c), std::vector<uint32_t>({100}));
  EXPECT_EQ(due(s, 13, 0, c), std::vector<uint32_t>({101})); // 100 was done by the Await on 11
  EXPECT_TRUE(due(s, 12, 0, c).empty());
  // Another collective, or another sync-tl, has its own watermark.
  EXPECT_EQ(due(s, 12, 0, threads(0, 32)), std::vector<uint32_t>({100, 101}));
  SyncTl other;
  other.full = 1;
  EXPECT_EQ(due(s, 13, 0, c, other), std::vector<uint32_t>({100, 101}));
}

TEST(SyncArriveStreams, AnAwaitOrdersOnlyEntriesWithinItsCount) {
  ArriveStreams s;
  arrive(s, 1, {7}, 0, {100});
  arrive(s, 1, {8}, 0, {101});
  arrive(s, 1, {7}, 1, {102}); // 100's entry on 7 is the first (0); 101's and 102's is 1
  const ThreadSetP c = threads(0, 8);
  EXPECT_EQ(due(s, 7, 0, c), std::vector<uint32_t>({100}));
  EXPECT_EQ(due(s, 7, 1, c), std::vector<uint32_t>({101, 102}));
  EXPECT_TRUE(due(s, 7, 1, c).empty());
}

TEST(SyncArriveStreams, CountsThatGoDownOrderSegmentsOutOfOrder) {
  ArriveStreams s;
  // A multicast Arrive brings its home's count (5) to element 9; element
  // 9's own Arrive later has count 0.
  arrive(s, 1, {9}, 5, {100});
  arrive(s, 1, {9}, 0, {101});
  const ThreadSetP c = threads(0, 8);
  EXPECT_EQ(due(s, 9, 0, c), std::vector<uint32_t>({101}));
  // The watermark could not pass 100, so 101 may come up again (augmenting
  // twice is harmless); 100 only once its count is reached.
  EXPECT_EQ(due(s, 9, 5, c), std::vector<uint32_t>({100, 101}));
  EXPECT_TRUE(due(s, 9, 5, c).empty());
}

TEST(SyncArriveStreams, FreedElementsLoseTheirEntries) {
  ArriveStreams s;
  arrive(s, 1, {20, 21}, 0, {100});
  arrive(s, 2, {30}, 0, {200});
  EXPECT_TRUE(s.pending_after(1, 0));
  s.forget_barriers(20, 21);
  EXPECT_TRUE(s.pending_after(1, 0)); // 21 is still alive
  EXPECT_TRUE(due(s, 20, 0, threads(0, 8)).empty());
  s.forget_barriers(21, 22);
  EXPECT_FALSE(s.pending_after(1, 0));
  EXPECT_TRUE(s.pending_after(2, 0));
  EXPECT_FALSE(s.pending_after(2, 1)); // nothing arrived after a subscription at 1
  EXPECT_FALSE(s.pending_after(3, 0)); // a stream never seen
}

// bench/sync/gen_sync_scaling.py barriers N: each element adds a few
// records; the engine's visits per element must stay flat as N grows.
std::string barrier_arrays(int n) {
  const std::string ns = std::to_string(n);
  return "device [1, 64] {\n  data buf[" + ns + ", 8]\n  data acc[8]\n  barrier raw[" + ns +
         "] mbarrier\n  barrier cg[" + ns + "] commit_group\n"
         "  threads c in 0..1 dim=1 width=32 offset=32 {\n    write acc[:] q=cuda1 conv\n  }\n"
         "  seq k in 0.." + ns + " {\n    threads p in 0..1 dim=1 width=32 {\n"
         "      write buf[k, :] q=tmaS ext={tmaS,async} ooo >> raw[k]\n"
         "      arrive cuda_temporal >> raw[k]\n    }\n"
         "    threads c in 0..1 dim=1 width=32 offset=32 {\n"
         "      await raw[k] -> cuda_generic_and_async_proxy 0\n"
         "      fence wgmma_fence_1 -> wgmma_fence_2\n"
         "      update acc[:] q=wgD ext={wgD,wg0} conv\n"
         "      read buf[k, :] q=wgS ext={wgS,async} ooo\n"
         "      arrive wgmma_async >> cg[k]\n"
         "      if k >= 1 {\n        await cg[k - 1] -> cuda_in_order 0\n      }\n    }\n  }\n"
         "  threads c in 0..1 dim=1 width=32 offset=32 {\n"
         "    await cg[" + ns + " - 1] -> cuda_in_order 0\n    read acc[:] q=cuda1 conv\n  }\n"
         "  fence cuda_in_order -> cuda_in_order\n  free raw\n  free cg\n"
         "  free buf check={cuda1}\n  free acc\n}\njoin\n"
         "fence cuda_stream_sync -> cuda_stream_sync\n";
}

FastEngineStats run_barrier_arrays(int n) {
  Program prog;
  std::vector<ParseError> errs;
  EXPECT_TRUE(parse_program(barrier_arrays(n), "arrays.sync", prog, errs));
  FastEngine fast;
  Hazard h;
  EXPECT_TRUE(run_program(prog, fast, h, nullptr)) << h.summary();
  return fast.stats();
}

TEST(SyncArriveStreams, LongBarrierArraysCostTheSamePerElement) {
  const FastEngineStats small = run_barrier_arrays(200), large = run_barrier_arrays(1600);
  // 8x the elements: scan visits, waiter and subscriber visits grow 8x, not
  // 64x (before arrive streams and the change log, each grew with n^2).
  EXPECT_LT(large.visited, 10 * small.visited);
  EXPECT_LT(large.waiters_visited + large.subscribers_visited,
            10 * (small.waiters_visited + small.subscribers_visited));
  // The records the Arrives saw in full are ordered through their streams.
  EXPECT_GT(large.subscribers_visited, 1600u);
}

} // namespace
} // namespace exgc::sync
