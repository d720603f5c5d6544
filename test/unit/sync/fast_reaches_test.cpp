// fast_reaches_test.cpp - the fast engine's answer to task replay's `reaches` //
//
// Replay asks, per task, whether a live record holds a thread at or above
// the task's first; the engine answers from a heap of records by their
// largest thread, whose entries go stale when records die or change.
#include "compiler/sync/fast_engine.h"

#include <gtest/gtest.h>

#include <memory>

namespace exgc::sync {
namespace {

Box span(int64_t lo, int64_t hi) {
  Box b;
  b.lo.resize(1);
  b.hi.resize(1);
  b.lo[0] = lo;
  b.hi[0] = hi;
  return b;
}

// A write of tensor[lo, hi) by threads [t0, t1): it replaces what was there.
AccessEvent write(uint64_t seq, int64_t lo, int64_t hi, uint64_t t0, uint64_t t1,
                  int tensor = 0) {
  AccessEvent e;
  e.ctx = Ctx{seq, nullptr, std::make_shared<const ThreadSet>(ThreadSet::range(t0, t1))};
  e.tensor = tensor;
  e.boxes = {span(lo, hi)};
  e.mutate = true;
  return e;
}

TEST(SyncFastReaches, FollowsTheLiveRecordsLargestThread) {
  TensorInfo y;
  y.name = "y";
  y.shape = {64};
  y.strides = {1};
  y.size = 64;
  TensorTable tensors;
  tensors.add(y);
  y.name = "z";
  tensors.add(y);
  FastEngine fast;
  fast.attach(&tensors);
  fast.alloc(0, Ctx{0, nullptr, std::make_shared<const ThreadSet>(ThreadSet::range(0, 8))});
  EXPECT_FALSE(fast.reaches(0));
  ASSERT_TRUE(fast.access(write(1, 0, 8, 40, 48)));
  EXPECT_TRUE(fast.reaches(0));
  EXPECT_TRUE(fast.reaches(47));
  EXPECT_FALSE(fast.reaches(48));
  // A second region by later threads raises the answer.
  ASSERT_TRUE(fast.access(write(2, 8, 16, 100, 108)));
  EXPECT_TRUE(fast.reaches(107));
  EXPECT_FALSE(fast.reaches(108));
  // A join by threads 0..127 makes both writes visible to all of them: the
  // records' visibility, so their reach, grows to 127.
  fast.join(Ctx{4, nullptr, std::make_shared<const ThreadSet>(ThreadSet::range(0, 128))});
  EXPECT_TRUE(fast.reaches(127));
  EXPECT_FALSE(fast.reaches(128));
  // Freeing y kills those records (their heap entries go stale): nothing
  // reaches any thread, and a write of z reaches only its own threads.
  const Ctx all{6, nullptr, std::make_shared<const ThreadSet>(ThreadSet::range(0, 128))};
  ASSERT_TRUE(fast.free(0, all, false, 0));
  EXPECT_FALSE(fast.reaches(0));
  fast.alloc(1, all);
  ASSERT_TRUE(fast.access(write(7, 0, 16, 0, 8, 1)));
  EXPECT_TRUE(fast.reaches(7));
  EXPECT_FALSE(fast.reaches(8));
}

} // namespace
} // namespace exgc::sync
