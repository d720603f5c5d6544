// arrive_streams_test.cpp - implicit pending entries and the change log ----//
//
// ArriveStreams (compiler/sync/arrive_streams.h) alone: which subscribers an
// Await orders, once per awaiting (collective, sync-tl), with counts that go
// down and elements that are freed. (differential_test.cpp checks the engine
// that uses them, and that long arrays cost the same per element.)
#include "compiler/sync/arrive_streams.h"

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

// Arrives of stream 1 (element, count, records subscribing), then Awaits by
// one collective (element, count bound, the records due).
struct ArriveStep {
  uint64_t bar;
  int64_t count;
  std::vector<uint32_t> subs;
};
struct AwaitStep {
  uint64_t bar;
  int64_t kmax;
  std::vector<uint32_t> due;
};
void expect_due(const std::vector<ArriveStep> &arrives, const std::vector<AwaitStep> &awaits) {
  ArriveStreams s;
  for (const ArriveStep &a : arrives)
    arrive(s, 1, {a.bar}, a.count, a.subs);
  const ThreadSetP c = threads(0, 8);
  for (const AwaitStep &w : awaits)
    EXPECT_EQ(due(s, w.bar, w.kmax, c), w.due) << "await on " << w.bar << " <= " << w.kmax;
}

TEST(SyncArriveStreams, AnAwaitOrdersOnlyEntriesWithinItsCount) {
  // 100's entry on 7 is the first Arrive (count 0); 101's and 102's the second (1).
  expect_due({{7, 0, {100}}, {8, 0, {101}}, {7, 1, {102}}},
             {{7, 0, {100}}, {7, 1, {101, 102}}, {7, 1, {}}});
  // Counts that go down: a multicast Arrive brings its home's count (5) to
  // element 9, whose own Arrive later has count 0. The watermark cannot pass
  // 100, so 101 comes up again (augmenting twice is harmless); 100 only once
  // its count is reached.
  expect_due({{9, 5, {100}}, {9, 0, {101}}}, {{9, 0, {101}}, {9, 5, {100, 101}}, {9, 5, {}}});
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

} // namespace
} // namespace exgc::sync
