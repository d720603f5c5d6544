// emu/sm90/mbarrier.h - the mbarrier object as it lies in shared memory ------//
// Owns: the emulator's 64-bit encoding of an mbarrier object and its pure
// transitions (PTX ISA 9.0 section 9.7.13.15: contents, phases, expect-tx,
// complete-tx, arrive-on, test_wait/try_wait, pending_count, inval). The
// engine loads the 8 bytes, calls one transition, stores the result, and
// reports any error as a barrier-misuse hazard; blocking, wake-ups, memory
// ordering and remote (cluster) routing are its business.
//
// Encoding (the ISA calls the object opaque; it is 8 bytes, 8-aligned):
//   bits  0-19  pending arrivals of the current phase   (0 .. 2^20-1)
//   bits 20-39  expected arrivals of each phase          (1 .. 2^20-1)
//   bits 40-60  tx-count, 21-bit two's complement        (-(2^20-1) .. 2^20-1)
//   bit  61     parity of the current phase
//   bits 62-63  0b10: a live object. Zeroed memory, all-ones, and NaN poison
//               (0x7F.. or 0xFF.. high bytes) never carry it, so an operation
//               on uninitialized or invalidated memory is caught.
// A state token (what mbarrier.arrive returns) holds 0xA5 in bits 56-63, the
// phase parity before the arrival in bit 20 and the pending count before it
// in bits 0-19 (for mbarrier.pending_count).
#pragma once

#include <cstdint>
#include <string>

namespace emu::sm90 {

constexpr uint32_t kMbarrierMaxCount = (1u << 20) - 1; ///< ISA 9.7.13.15.2 table
constexpr int32_t kMbarrierMaxTx = (1 << 20) - 1;      ///< tx-count in [-max, max]

struct MbarrierFields {
  uint32_t pending = 0, expected = 0;
  int32_t tx = 0;
  uint32_t parity = 0;
};

/// The outcome of a transition. On error the object is left unchanged.
struct MbarrierResult {
  std::string error;       ///< empty on success; else what was misused and how
  uint64_t token = 0;      ///< arrive/arrive_drop: the state token
  bool completed = false;  ///< this operation completed the current phase
  bool ok() const { return error.empty(); }
};

/// The fields of a live object; false for uninitialized or invalidated memory.
bool mbarrier_decode(uint64_t word, MbarrierFields *out);
/// "pending 3 of 4, tx-count 128, phase parity 1" or "not an mbarrier".
std::string mbarrier_describe(uint64_t word);

/// mbarrier.init: count in 1..2^20-1; phase 0, pending = expected = count, tx
/// 0 (9.7.13.15.9). Refused on a live object (undefined without inval first).
MbarrierResult mbarrier_init(uint64_t &word, uint32_t count);
/// mbarrier.inval: the memory stops being an mbarrier (9.7.13.15.10).
MbarrierResult mbarrier_inval(uint64_t &word);
/// arrive-on with `count` (1..2^20-1): over-arrival when count > pending.
/// The phase completes when pending and tx-count are both 0; pending then
/// resets to expected and the parity flips (9.7.13.15.6-7).
MbarrierResult mbarrier_arrive(uint64_t &word, uint32_t count);
/// mbarrier.arrive_drop: expected -= count for this and every later phase,
/// then arrive-on with count (9.7.13.15.14). Expected may reach 0 (every
/// participant dropped out), below the ISA's range of 1..2^20-1 for a phase
/// yet to be waited on; going below 0 is refused.
MbarrierResult mbarrier_arrive_drop(uint64_t &word, uint32_t count);
/// expect-tx: tx-count += bytes; refused past 2^20-1 (9.7.13.15.5.1).
MbarrierResult mbarrier_expect_tx(uint64_t &word, uint32_t bytes);
/// mbarrier.arrive.expect_tx: expect-tx(bytes), then arrive-on with count 1.
MbarrierResult mbarrier_arrive_expect_tx(uint64_t &word, uint32_t bytes);
/// complete-tx: tx-count -= bytes; refused below -(2^20-1) (tx-count
/// underflow); may complete the phase (9.7.13.15.5.2).
MbarrierResult mbarrier_complete_tx(uint64_t &word, uint32_t bytes);

/// test_wait / try_wait with a state token: true once the phase the token
/// was taken in has completed (9.7.13.15.16). Only the current and the
/// immediately preceding phase can be told apart.
MbarrierResult mbarrier_test_wait(uint64_t word, uint64_t token, bool *complete);
/// test_wait / try_wait .parity: true when the phase of that parity has
/// completed, i.e. the current phase has the other parity.
MbarrierResult mbarrier_test_wait_parity(uint64_t word, uint32_t parity, bool *complete);
/// mbarrier.pending_count: the pending count before the arrive that made `token`.
MbarrierResult mbarrier_pending_count(uint64_t token, uint32_t *count);

} // namespace emu::sm90
