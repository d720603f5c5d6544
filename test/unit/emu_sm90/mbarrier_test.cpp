// mbarrier_test.cpp - each transition of emu/sm90/mbarrier.h and each misuse
// it reports (PTX ISA 9.7.13.15).
#include "emu/sm90/mbarrier.h"

#include <gtest/gtest.h>

using namespace emu::sm90;

namespace {
MbarrierFields fields(uint64_t w) {
  MbarrierFields f;
  EXPECT_TRUE(mbarrier_decode(w, &f));
  return f;
}
uint64_t fresh(uint32_t count) {
  uint64_t w = 0;
  EXPECT_TRUE(mbarrier_init(w, count).ok());
  return w;
}
} // namespace

TEST(Sm90Mbarrier, InitChecksTheCountRange) {
  uint64_t w = 0;
  EXPECT_FALSE(mbarrier_init(w, 0).ok());
  EXPECT_FALSE(mbarrier_init(w, 1u << 20).ok());
  EXPECT_EQ(w, 0u); // refused: unchanged
  EXPECT_TRUE(mbarrier_init(w, (1u << 20) - 1).ok());
  MbarrierFields f = fields(w);
  EXPECT_EQ(f.pending, (1u << 20) - 1);
  EXPECT_EQ(f.expected, (1u << 20) - 1);
  EXPECT_EQ(f.tx, 0);
  EXPECT_EQ(f.parity, 0u);
  // Initializing a live object again is undefined behaviour: refused.
  EXPECT_NE(mbarrier_init(w, 4).error.find("mbarrier.inval"), std::string::npos);
}

TEST(Sm90Mbarrier, PoisonedOrFreedMemoryIsNoMbarrier) {
  for (uint64_t poison : {uint64_t(0), ~uint64_t(0), uint64_t(0x7FC000007FC00000),
                          uint64_t(0xFFC00000FFC00000), uint64_t(0x7FFFFFFF7FFFFFFF),
                          uint64_t(0x7FF8000000000000)}) {
    uint64_t w = poison;
    EXPECT_FALSE(mbarrier_arrive(w, 1).ok()) << std::hex << poison;
    EXPECT_FALSE(mbarrier_complete_tx(w, 16).ok());
    bool done;
    EXPECT_FALSE(mbarrier_test_wait_parity(w, 0, &done).ok());
    EXPECT_EQ(w, poison);
    EXPECT_TRUE(mbarrier_init(w, 2).ok()); // init is the one operation allowed
  }
  uint64_t w = fresh(1);
  EXPECT_TRUE(mbarrier_inval(w).ok());
  EXPECT_NE(mbarrier_arrive(w, 1).error.find("no initialized mbarrier"), std::string::npos);
  EXPECT_FALSE(mbarrier_inval(w).ok());
}

TEST(Sm90Mbarrier, ArrivalsCompleteThePhaseAndFlipTheParity) {
  uint64_t w = fresh(3);
  bool done = true;
  MbarrierResult r = mbarrier_arrive(w, 2);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(fields(w).pending, 1u);
  EXPECT_TRUE(mbarrier_test_wait(w, r.token, &done).ok());
  EXPECT_FALSE(done);
  EXPECT_TRUE(mbarrier_test_wait_parity(w, 0, &done).ok());
  EXPECT_FALSE(done); // phase 0 still pending
  MbarrierResult last = mbarrier_arrive(w, 1);
  ASSERT_TRUE(last.ok());
  EXPECT_TRUE(last.completed);
  MbarrierFields f = fields(w);
  EXPECT_EQ(f.pending, 3u); // reset to expected
  EXPECT_EQ(f.parity, 1u);
  EXPECT_TRUE(mbarrier_test_wait(w, r.token, &done).ok());
  EXPECT_TRUE(done);
  EXPECT_TRUE(mbarrier_test_wait_parity(w, 0, &done).ok());
  EXPECT_TRUE(done);  // the phase of parity 0 completed
  EXPECT_TRUE(mbarrier_test_wait_parity(w, 1, &done).ok());
  EXPECT_FALSE(done); // the current phase (parity 1) has not
  EXPECT_FALSE(mbarrier_test_wait_parity(w, 2, &done).ok());
}

TEST(Sm90Mbarrier, OverArrivalIsReported) {
  uint64_t w = fresh(2);
  MbarrierResult r = mbarrier_arrive(w, 3);
  EXPECT_NE(r.error.find("over-arrival"), std::string::npos);
  EXPECT_EQ(fields(w).pending, 2u);
  EXPECT_FALSE(mbarrier_arrive(w, 0).ok());
  // Pending 0 while bytes are outstanding: one more arrival is one too many.
  ASSERT_TRUE(mbarrier_arrive_expect_tx(w, 64).ok());
  ASSERT_TRUE(mbarrier_arrive(w, 1).ok());
  EXPECT_EQ(fields(w).pending, 0u);
  EXPECT_FALSE(mbarrier_arrive(w, 1).ok());
}

TEST(Sm90Mbarrier, TxCountHoldsThePhaseUntilTheBytesLand) {
  uint64_t w = fresh(1);
  MbarrierResult r = mbarrier_arrive_expect_tx(w, 4096);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(fields(w).tx, 4096);
  EXPECT_EQ(fields(w).pending, 0u);
  r = mbarrier_complete_tx(w, 1024);
  EXPECT_FALSE(r.completed);
  r = mbarrier_complete_tx(w, 3072);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(fields(w).parity, 1u);
  EXPECT_EQ(fields(w).tx, 0);
  // Bytes may land before the expect-tx (a multicast from another CTA): the
  // tx-count goes negative and the phase waits for the arrival.
  r = mbarrier_complete_tx(w, 512);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(fields(w).tx, -512);
  EXPECT_FALSE(mbarrier_arrive(w, 1).completed);
  EXPECT_TRUE(mbarrier_expect_tx(w, 512).ok());
  EXPECT_EQ(fields(w).tx, 0);
}

TEST(Sm90Mbarrier, TxCountRangeIsChecked) {
  uint64_t w = fresh(1);
  EXPECT_TRUE(mbarrier_expect_tx(w, kMbarrierMaxTx).ok());
  EXPECT_NE(mbarrier_expect_tx(w, 1).error.find("overflows"), std::string::npos);
  EXPECT_EQ(fields(w).tx, kMbarrierMaxTx);
  uint64_t v = fresh(1);
  EXPECT_TRUE(mbarrier_complete_tx(v, kMbarrierMaxTx).ok());
  EXPECT_EQ(fields(v).tx, -kMbarrierMaxTx);
  EXPECT_NE(mbarrier_complete_tx(v, 1).error.find("underflows"), std::string::npos);
  EXPECT_EQ(fields(v).tx, -kMbarrierMaxTx);
  uint64_t u = fresh(1);
  EXPECT_FALSE(mbarrier_arrive_expect_tx(u, 1u << 20).ok());
  EXPECT_EQ(fields(u).pending, 1u); // the arrival did not happen either
}

TEST(Sm90Mbarrier, ArriveDropLowersEveryLaterPhase) {
  uint64_t w = fresh(4);
  MbarrierResult r = mbarrier_arrive_drop(w, 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(fields(w).expected, 3u);
  EXPECT_EQ(fields(w).pending, 3u);
  ASSERT_TRUE(mbarrier_arrive(w, 3).completed);
  EXPECT_EQ(fields(w).pending, 3u); // the next phase expects 3
  EXPECT_FALSE(mbarrier_arrive_drop(w, 4).ok());
  ASSERT_TRUE(mbarrier_arrive_drop(w, 3).completed); // everyone leaves
  EXPECT_EQ(fields(w).expected, 0u);
}

TEST(Sm90Mbarrier, PendingCountComesFromTheToken) {
  uint64_t w = fresh(5);
  MbarrierResult r = mbarrier_arrive(w, 2);
  uint32_t count = 0;
  ASSERT_TRUE(mbarrier_pending_count(r.token, &count).ok());
  EXPECT_EQ(count, 5u);
  EXPECT_FALSE(mbarrier_pending_count(12345, &count).ok());
  bool done;
  EXPECT_FALSE(mbarrier_test_wait(w, 12345, &done).ok());
}

TEST(Sm90Mbarrier, DescribeNamesTheCounts) {
  uint64_t w = fresh(4);
  mbarrier_arrive(w, 1);
  mbarrier_expect_tx(w, 128);
  EXPECT_EQ(mbarrier_describe(w), "pending 3 of 4, tx-count 128, phase parity 0");
  EXPECT_EQ(mbarrier_describe(0), "not an mbarrier");
}
