// emu/sm90/mbarrier.cpp - mbarrier transitions (see mbarrier.h) -------------//
#include "emu/sm90/mbarrier.h"

namespace emu::sm90 {
namespace {

constexpr uint64_t kLive = 2;        // bits 62-63
constexpr uint64_t kTokenTag = 0xA5; // bits 56-63 of a state token

uint64_t encode(const MbarrierFields &f) {
  return uint64_t(f.pending) | uint64_t(f.expected) << 20 |
         (uint64_t(uint32_t(f.tx)) & 0x1FFFFF) << 40 | uint64_t(f.parity & 1) << 61 | kLive << 62;
}

MbarrierResult fail(std::string why) {
  MbarrierResult r;
  r.error = std::move(why);
  return r;
}

MbarrierResult not_live(uint64_t word, const char *op) {
  return fail(std::string(op) + " on memory that holds no initialized mbarrier (" +
              mbarrier_describe(word) + ")");
}

// Completes the phase when both counts reached 0 (ISA 9.7.13.15.6).
bool complete_if_done(MbarrierFields &f) {
  if (f.pending != 0 || f.tx != 0)
    return false;
  f.pending = f.expected;
  f.parity ^= 1;
  return true;
}

MbarrierResult arrive_on(uint64_t &word, MbarrierFields f, uint32_t count, const char *op) {
  if (count == 0 || count > kMbarrierMaxCount)
    return fail(std::string(op) + " count " + std::to_string(count) + " is not 1 to 2^20-1");
  if (count > f.pending)
    return fail(std::string(op) + " of " + std::to_string(count) + " is an over-arrival: " +
                mbarrier_describe(word));
  MbarrierResult r;
  r.token = kTokenTag << 56 | uint64_t(f.parity) << 20 | f.pending;
  f.pending -= count;
  r.completed = complete_if_done(f);
  word = encode(f);
  return r;
}

} // namespace

bool mbarrier_decode(uint64_t word, MbarrierFields *out) {
  if (word >> 62 != kLive)
    return false;
  MbarrierFields f;
  f.pending = uint32_t(word & 0xFFFFF);
  f.expected = uint32_t((word >> 20) & 0xFFFFF);
  uint32_t tx = uint32_t((word >> 40) & 0x1FFFFF);
  f.tx = int32_t(tx << 11) >> 11; // sign-extend 21 bits
  f.parity = uint32_t((word >> 61) & 1);
  if (f.pending > f.expected || f.tx < -kMbarrierMaxTx)
    return false;
  *out = f;
  return true;
}

std::string mbarrier_describe(uint64_t word) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return "not an mbarrier";
  return "pending " + std::to_string(f.pending) + " of " + std::to_string(f.expected) +
         ", tx-count " + std::to_string(f.tx) + ", phase parity " + std::to_string(f.parity);
}

MbarrierResult mbarrier_init(uint64_t &word, uint32_t count) {
  MbarrierFields f;
  if (mbarrier_decode(word, &f))
    return fail("mbarrier.init on a live mbarrier (" + mbarrier_describe(word) +
                "); mbarrier.inval it first");
  if (count == 0 || count > kMbarrierMaxCount)
    return fail("mbarrier.init count " + std::to_string(count) + " is not 1 to 2^20-1");
  f = MbarrierFields{count, count, 0, 0};
  word = encode(f);
  return {};
}

MbarrierResult mbarrier_inval(uint64_t &word) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return not_live(word, "mbarrier.inval");
  word = 0;
  return {};
}

MbarrierResult mbarrier_arrive(uint64_t &word, uint32_t count) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return not_live(word, "mbarrier.arrive");
  return arrive_on(word, f, count, "mbarrier.arrive");
}

MbarrierResult mbarrier_arrive_drop(uint64_t &word, uint32_t count) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return not_live(word, "mbarrier.arrive_drop");
  if (count > f.expected)
    return fail("mbarrier.arrive_drop of " + std::to_string(count) + " drops more than the " +
                std::to_string(f.expected) + " expected arrivals");
  MbarrierFields dropped = f;
  dropped.expected -= count;
  uint64_t before = word;
  MbarrierResult r = arrive_on(word, dropped, count, "mbarrier.arrive_drop");
  if (!r.ok())
    word = before;
  return r;
}

MbarrierResult mbarrier_expect_tx(uint64_t &word, uint32_t bytes) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return not_live(word, "mbarrier.expect_tx");
  if (int64_t(f.tx) + bytes > kMbarrierMaxTx)
    return fail("expect-tx of " + std::to_string(bytes) + " bytes overflows the tx-count past " +
                "2^20-1: " + mbarrier_describe(word));
  f.tx += int32_t(bytes);
  word = encode(f);
  return {};
}

MbarrierResult mbarrier_arrive_expect_tx(uint64_t &word, uint32_t bytes) {
  uint64_t before = word;
  MbarrierResult r = mbarrier_expect_tx(word, bytes);
  if (!r.ok())
    return r;
  r = mbarrier_arrive(word, 1);
  if (!r.ok())
    word = before;
  return r;
}

MbarrierResult mbarrier_complete_tx(uint64_t &word, uint32_t bytes) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return not_live(word, "complete-tx");
  if (int64_t(f.tx) - int64_t(bytes) < -int64_t(kMbarrierMaxTx))
    return fail("complete-tx of " + std::to_string(bytes) + " bytes underflows the tx-count below " +
                "-(2^20-1): " + mbarrier_describe(word));
  f.tx -= int32_t(bytes);
  MbarrierResult r;
  r.completed = complete_if_done(f);
  word = encode(f);
  return r;
}

MbarrierResult mbarrier_test_wait(uint64_t word, uint64_t token, bool *complete) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return not_live(word, "mbarrier.test_wait/try_wait");
  if (token >> 56 != kTokenTag)
    return fail("mbarrier.test_wait/try_wait state operand was not returned by mbarrier.arrive");
  *complete = ((token >> 20) & 1) != f.parity;
  return {};
}

MbarrierResult mbarrier_test_wait_parity(uint64_t word, uint32_t parity, bool *complete) {
  MbarrierFields f;
  if (!mbarrier_decode(word, &f))
    return not_live(word, "mbarrier.test_wait/try_wait.parity");
  if (parity > 1)
    return fail("phaseParity " + std::to_string(parity) + " is not 0 or 1");
  *complete = parity != f.parity;
  return {};
}

MbarrierResult mbarrier_pending_count(uint64_t token, uint32_t *count) {
  if (token >> 56 != kTokenTag)
    return fail("mbarrier.pending_count state operand was not returned by mbarrier.arrive");
  *count = uint32_t(token & 0xFFFFF);
  return {};
}

} // namespace emu::sm90
