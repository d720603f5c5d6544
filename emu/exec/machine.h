// emu/exec/machine.h - the state of a running launch: warps, CTAs, clusters //
// Owns: what one launch keeps while it runs (registers, program counters,
// shared and local memory, barriers, waits, async events) and the address
// windows that generic addresses use. The scheduler (scheduler.cpp) drives
// it; the handlers (ops_*.cpp) change it through Exec.
//
// Address spaces, as built:
// - global and const: host pointers, checked against the Device's live
//   allocations and module variables (memory.h);
// - generic: a host pointer, or one of three windows above user space:
//   local 0x0001'0000'0000'0000 + offset (the executing thread's frame),
//   shared 0x0002'0000'0000'0000 + a 32-bit shared address, param
//   0x0003'0000'0000'0000 + offset (the launch's parameter buffer; param-space
//   addresses are these same values, so cvta.param is the identity);
// - shared (32-bit): a CTA's shared::cta addresses start at kSmemBase (1 KiB,
//   like Hopper's per-CTA reservation, so a null shared pointer faults); static
//   .shared variables follow in declaration order, then the dynamic array,
//   1024-aligned (or off by 16 with Options::misalign_dynamic_smem). A
//   shared::cluster address of CTA rank r is ((r + 1) << 24) | offset; one
//   below 1 << 24 names the executing CTA. mapa produces the encoded form.
#pragma once

#include "emu/exec/buffer_pool.h"
#include "emu/exec/decoded.h"
#include "emu/support/report.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace emu {
class DeviceImpl;
}

namespace emu::exec {

constexpr uint64_t kLocalWindow = 0x0001'0000'0000'0000ull;
constexpr uint64_t kSharedWindow = 0x0002'0000'0000'0000ull;
constexpr uint64_t kParamWindow = 0x0003'0000'0000'0000ull;
constexpr uint64_t kWindowMask = 0xffff'0000'0000'0000ull;
constexpr uint32_t kSmemBase = 1024;
constexpr uint32_t kClusterShift = 24;
/// Fresh shared and local memory under Options::adversarial: 0xFF bytes read as
/// NaN for f16/bf16/f32/f64 and as -1 for integers.
constexpr uint8_t kPoison = 0xff;

struct Cta;
struct Cluster;
struct WgRecord;
struct Run;

/// Why lanes of a warp are not runnable.
enum class WaitKind : uint8_t {
  Bar,        ///< bar.sync: a = barrier id, b = its generation at arrival
  ClusterBar, ///< barrier.cluster.wait: b = the cluster phase that must have completed
  Mbarrier,   ///< try_wait/test_wait false: a = shared address (cluster form), b = parity/phase
  Wgmma,      ///< wgmma.wait_group: a = groups allowed pending
  Bulk,       ///< cp.async.bulk.wait_group: a = groups allowed pending
  RegPool,    ///< setmaxnreg.inc: a = requested registers per thread
};

struct Wait {
  uint32_t mask = 0;
  WaitKind kind = WaitKind::Bar;
  uint64_t a = 0, b = 0;
  uint32_t pc = 0; ///< the instruction that waits (for reports)
};

/// One activation of a .func on a thread's call stack (ops_call.cpp).
struct CallFrame {
  uint32_t ret_pc = 0;            ///< where the caller continues
  uint32_t func = 0;              ///< the callee (Decoded::funcs index)
  uint32_t call_pc = 0;           ///< the call instruction (its return variables)
  std::vector<uint64_t> regs;     ///< the callee's registers before the call
  std::vector<uint8_t> frame;     ///< the callee's local frame before the call
};

struct Warp {
  Cta *cta = nullptr;
  uint32_t id = 0;            ///< warp index in the CTA
  uint32_t lanes = 0;         ///< lanes that exist (a partial last warp has fewer)
  uint32_t exited = 0;
  uint32_t blocked = 0;       ///< lanes in some Wait
  uint32_t warpsync = 0;      ///< lanes waiting at a collective for the rest of its mask
  uint32_t yielded = 0;       ///< lanes that gave way (nanosleep, a spinning test)
  uint32_t pc[32] = {};
  std::vector<uint64_t> regs; ///< [slot][lane]
  std::vector<Wait> waits;
  uint32_t tid[3][32] = {};
  uint32_t nregs = 0;         ///< registers per thread (setmaxnreg)
  uint64_t wgmma_seq = 0;     ///< mma_async instructions this warp has joined
  std::vector<std::shared_ptr<WgRecord>> wg_open; ///< joined since the last commit_group
  std::deque<std::vector<std::shared_ptr<WgRecord>>> wg_groups; ///< committed, oldest first
  std::vector<std::function<void()>> bulk_open[32]; ///< per lane: the open bulk async-group
  uint32_t bulk_pending[32] = {}; ///< per lane: bulk async-groups not yet complete
  uint32_t bulk_read_pending[32] = {}; ///< per lane: groups whose sources are not yet read
  uint32_t bulk_uncommitted[32] = {};
  uint64_t red_gen[32] = {};  ///< bar.red: 1 + the generation a lane waits on (0: none)
  uint64_t cbar_target[32] = {}; ///< barrier.cluster: the phase a lane's arrive completes
  uint32_t cbar_arrived = 0;  ///< lanes that arrived at the cluster barrier and not yet waited
  uint32_t carry = 0;         ///< per lane: the .cc carry flag
  uint64_t last_lo = 1, last_hi = 0; ///< the last global allocation hit (bounds cache)
  // wgmma register hazards (wgmma_regs.cpp): D and A registers of an mma_async
  // are locked from its issue until a wait_group covers its group, and any
  // access to them between a wgmma.fence and an mma_async needs another fence.
  std::vector<uint16_t> reg_locks;  ///< per slot: in-flight mma_async holding it
  std::vector<uint32_t> lock_pc;    ///< per slot: the mma_async that locked it last
  uint32_t locked = 0;              ///< slots with a nonzero lock
  std::vector<uint32_t> lock_open;  ///< slots locked since the last commit_group
  std::deque<std::vector<uint32_t>> lock_groups; ///< committed, oldest first
  std::vector<uint32_t> reg_access; ///< per slot: the fence epoch of its last non-wgmma access
  std::vector<uint32_t> reg_access_pc; ///< per slot: the instruction of that access
  uint32_t wg_fences = 0;           ///< wgmma.fence executed (the fence epoch)
  std::vector<CallFrame> calls[32]; ///< per lane: active .func calls, innermost last

  uint32_t runnable() const { return lanes & ~exited & ~blocked & ~warpsync & ~yielded; }
  uint64_t *reg(uint32_t slot) { return regs.data() + size_t(slot) * 32; }
};

struct NamedBarrier {
  uint32_t arrived = 0;  ///< threads arrived in this generation
  uint32_t expected = 0; ///< 0: not in progress
  uint64_t generation = 0;
  uint32_t red_popc = 0; bool red_and = true, red_or = false; ///< bar.red accumulators
  uint32_t last_popc = 0; bool last_and = true, last_or = false;
};

struct Cta {
  Cluster *cluster = nullptr;
  uint32_t rank = 0;           ///< %cluster_ctarank
  uint32_t ctaid[3] = {};
  uint32_t cluster_ctaid[3] = {};
  uint32_t nthreads = 0;
  uint32_t exited_threads = 0;
  std::vector<uint8_t> smem;   ///< from kSmemBase
  std::vector<uint8_t> local;  ///< local_bytes per thread
  std::vector<std::unique_ptr<Warp>> warps;
  NamedBarrier bars[16];
  uint32_t reg_pool_used = 0;  ///< sum over warps of nregs * 32
  std::vector<std::shared_ptr<void>> wgmma; ///< per warpgroup: ops_wgmma.cpp's state
  /// Per byte of smem when the kernel's async proxy reads shared memory: the
  /// last generic write not yet made visible to the async proxy (0: none);
  /// async_proxy.cpp encodes it. Per thread: fence.proxy.async executed.
  std::vector<uint64_t> proxy_shadow;
  std::vector<uint32_t> proxy_fences;
  /// mbarrier.init not yet released to the cluster: (offset from kSmemBase,
  /// initializing thread), in clusters of 2+ CTAs (mbarrier_release.cpp).
  std::vector<std::pair<uint32_t, uint32_t>> unreleased_inits;
};

/// An mbarrier's full phase count and who saw which phase (ops_mbarrier.cpp).
struct MbarrierPhases {
  int64_t completed = 0;     ///< phases completed since mbarrier.init
  std::vector<int64_t> seen; ///< per cluster thread: the last phase a wait saw complete
};

/// An asynchronous operation that lands later (TMA, wgmma, bulk copies).
struct AsyncEvent {
  uint64_t stream = 0;        ///< events of one stream land in issue order (0: independent)
  std::function<void()> land; ///< applies its effect (data, complete_tx, group counters)
  std::string what;           ///< for deadlock reports
};

struct Cluster {
  Run *run = nullptr;
  uint32_t id[3] = {};
  std::vector<std::unique_ptr<Cta>> ctas;
  uint32_t nthreads = 0, exited_threads = 0;
  uint32_t bar_arrived = 0;    ///< barrier.cluster arrivals in the current phase
  uint64_t bar_phase = 0;      ///< completed cluster-barrier phases
  std::deque<AsyncEvent> events;
  std::unordered_map<uint64_t, MbarrierPhases> mbar_phases; ///< by (rank << 32 | offset)
  Cta *cta_of_rank(uint32_t r) { return r < ctas.size() ? ctas[r].get() : nullptr; }
};

/// One launch.
struct Run {
  DeviceImpl *dev = nullptr;
  const Decoded *k = nullptr;
  const Options *opt = nullptr;
  uint32_t grid[3] = {}, block[3] = {}, cluster_dim[3] = {};
  bool explicit_cluster = false;
  uint32_t dyn_smem = 0, total_smem = 0;
  std::vector<uint8_t> params;
  uint64_t rng = 0;
  uint64_t instructions = 0;
  std::vector<ProfileCounts> profile; ///< per warp of a CTA, when profiling (else empty)
  uint32_t regs_per_thread = 0; ///< the starting count (setmaxnreg's pool)
  std::string kernel;
  BufferPool *pool = nullptr;   ///< buffers reused across clusters and launches (the Device's)
  uint64_t next() { // xorshift64*
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
  }
  uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }
};

/// What a handler sees: the executing warp and where it sits.
struct Exec {
  Run *run = nullptr;
  Cluster *cluster = nullptr;
  Cta *cta = nullptr;
  Warp *warp = nullptr;
  uint64_t *regs = nullptr;
  uint32_t group = 0;   ///< lanes at this pc (guard-false included)
  uint32_t advance = 0; ///< lanes whose pc moves to the next instruction afterwards
  bool end_quantum = false; ///< the warp gives way after this instruction
  bool rerun = false;       ///< every lane waits and runs this instruction again (a profile counts that run)
  const DInstr *cur = nullptr;
};

/// A located report for `lane` of the executing warp (lane < 0: no thread).
[[noreturn]] void fail(Exec &x, int lane, Hazard h, const std::string &what);
/// A hazard that detector `d` found, for `lane`: fail() unless the run's
/// options allow `d` (exg-emu --allow); then it is counted and this returns.
void detected(Exec &x, int lane, Detector d, Hazard h, const std::string &what);
/// The location fields of a report, for callers that build their own.
Where where_of(Exec &x, int lane);

} // namespace emu::exec
