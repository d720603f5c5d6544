// emu/exec/ops_mbarrier.cpp - mbarrier instructions --------------------------//
// The object's encoding and transitions are emu/sm90/mbarrier.h's; this file
// finds the object (shared::cta, shared::cluster through mapa, or generic),
// applies one transition per arriving thread, reports misuse, and blocks
// waiters. try_wait/test_wait that find the phase incomplete block the
// thread until the phase completes and then run again (so it sees true):
// a thread that waits cannot be told from one that is merely slow. Under
// Options::adversarial a try_wait also returns false now and then (a
// timeout), so the kernel's retry loop runs.
#include "emu/exec/ops.h"

#include "emu/sm90/mbarrier.h"

#include <cstring>

namespace emu::exec {

namespace {

enum MOp : uint8_t { MInit, MInval, MArrive, MArriveDrop, MArriveTx, MExpectTx, MCompleteTx, MTestWait,
                     MTryWait, MPending };

struct Found {
  Cta *cta;
  uint32_t off; ///< from kSmemBase
  uint64_t *word;
  uint64_t key() const { return (uint64_t(cta->rank) << 32) | off; }
};

Found find(Exec &x, const DInstr &in, int lane) {
  uint64_t a = addr_of(x, in.s[0], lane);
  if (in.space == ptx::Space::Generic) {
    if ((a & kWindowMask) != kSharedWindow)
      fail(x, lane, Hazard::BarrierMisuse, "an mbarrier must be in shared memory (generic address outside it)");
    a -= kSharedWindow;
  }
  uint8_t *p = smem_ptr(x, uint32_t(a), 8, lane, in.sub2 == 0 && in.sub != MArrive && in.sub != MArriveTx &&
                                                      in.sub != MCompleteTx && in.sub != MExpectTx);
  Found f;
  f.cta = smem_owner(x, uint32_t(a), f.off);
  f.word = reinterpret_cast<uint64_t *>(p);
  return f;
}

std::string where_text(const Found &f);

[[noreturn]] void misuse(Exec &x, int lane, const Found &f, const std::string &what) {
  fail(x, lane, Hazard::BarrierMisuse, what + where_text(f));
}

std::string where_text(const Found &f) {
  char b[64];
  std::snprintf(b, sizeof b, " (mbarrier at shared 0x%x of CTA rank %u)", f.off + kSmemBase, f.cta->rank);
  return b;
}

void detected_at(Exec &x, int lane, const Found &f, Detector d, const std::string &what) {
  detected(x, lane, d, Hazard::BarrierMisuse, what + where_text(f));
}

void check(Exec &x, int lane, const Found &f, const sm90::MbarrierResult &r) {
  if (!r.ok())
    misuse(x, lane, f, r.error);
}

// Aliased phases. A parity wait cannot tell phase k from k + 2, so a wait
// that the barrier has lapped returns for the wrong phase. The engine keeps
// each mbarrier's full count of completed phases (since its init), and per
// (thread, mbarrier) the phase L that the thread's last successful wait saw
// complete (the newest completed phase at that moment; before any wait L =
// -2, so that a first wait on parity 1 is for the virtual phase -1 that a
// fresh barrier counts as complete, and one on parity 0 for phase 0). A
// successful parity wait on parity P is for phase k, the first phase after L
// with parity P (L + 1 or L + 2). If the newest completed phase O is k + 2
// or later when it succeeds, the thread was lapped: BarrierMisuse. Either
// way L becomes O. Token waits (no parity) only update L.
void saw_phase(Exec &x, int lane, const Found &f, bool parity_form, uint32_t parity) {
  auto it = x.cluster->mbar_phases.find(f.key());
  if (it == x.cluster->mbar_phases.end())
    return;
  MbarrierPhases &ph = it->second;
  const Cta &c = *x.cta;
  size_t t = size_t(c.rank) * c.nthreads + x.warp->id * 32 + uint32_t(lane);
  if (ph.seen.size() <= t)
    ph.seen.resize(x.cluster->ctas.size() * size_t(c.nthreads), -2);
  int64_t last = ph.seen[t], observed = ph.completed - 1;
  ph.seen[t] = observed;
  if (!parity_form)
    return;
  int64_t need = (uint64_t(last + 1) & 1) == parity ? last + 1 : last + 2;
  if (observed >= need + 2)
    detected_at(x, lane, f, Detector::AliasedPhase,
                "a parity wait was lapped: " +
                    (last == -2 ? std::string("this thread had not waited on this mbarrier before")
                                : "this thread's last wait saw phase " + std::to_string(last) + " complete") +
                    ", so its wait for parity " + std::to_string(parity) + " is for phase " +
                    std::to_string(need) + ", but phases up to " + std::to_string(observed) +
                    " have completed and parity cannot tell them apart (phases count from 0 at "
                    "mbarrier.init)");
}

void count_phase(Cluster &cl, uint64_t key, const sm90::MbarrierResult &r) {
  if (r.completed)
    cl.mbar_phases[key].completed++;
}

void h_mbarrier(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    Found f = find(x, in, int(l));
    uint64_t w;
    std::memcpy(&w, f.word, 8);
    sm90::MbarrierResult r;
    switch (in.sub) {
    case MInit: r = sm90::mbarrier_init(w, uint32_t(rd(x, in.s[1], l))); break;
    case MInval: r = sm90::mbarrier_inval(w); break;
    case MArrive: r = sm90::mbarrier_arrive(w, in.s[1].kind == Opd::None ? 1 : uint32_t(rd(x, in.s[1], l))); break;
    case MArriveDrop:
      r = sm90::mbarrier_arrive_drop(w, in.s[1].kind == Opd::None ? 1 : uint32_t(rd(x, in.s[1], l)));
      break;
    case MArriveTx: r = sm90::mbarrier_arrive_expect_tx(w, uint32_t(rd(x, in.s[1], l))); break;
    case MExpectTx: r = sm90::mbarrier_expect_tx(w, uint32_t(rd(x, in.s[1], l))); break;
    case MCompleteTx: r = sm90::mbarrier_complete_tx(w, uint32_t(rd(x, in.s[1], l))); break;
    }
    if (in.sub != MInit && in.sub != MInval)
      check_init_released(x, *f.cta, f.off, int(l), "a remote mbarrier operation");
    check(x, int(l), f, r);
    std::memcpy(f.word, &w, 8);
    if (in.sub == MInit) {
      x.cluster->mbar_phases[f.key()] = MbarrierPhases{};
      mbarrier_init_noted(x, *f.cta, f.off, int(l));
    } else if (in.sub == MInval) {
      x.cluster->mbar_phases.erase(f.key());
      mbarrier_inval_noted(*f.cta, f.off);
    } else {
      count_phase(*x.cluster, f.key(), r);
    }
    if (in.d.kind == Opd::R)
      wr(x, in.d, l, r.token);
  }
}

void h_wait(Exec &x, const DInstr &in, uint32_t m) {
  const bool parity_form = in.flags & kUni; // .parity
  uint32_t waiting = 0;
  uint64_t key = 0, parity = 0;
  FOR_LANES(m, l) {
    Found f = find(x, in, int(l));
    uint64_t w;
    std::memcpy(&w, f.word, 8);
    uint64_t arg = rd(x, in.s[1], l);
    bool complete = false;
    sm90::MbarrierResult r = parity_form ? sm90::mbarrier_test_wait_parity(w, uint32_t(arg & 1), &complete)
                                         : sm90::mbarrier_test_wait(w, arg, &complete);
    check(x, int(l), f, r);
    if (complete) {
      saw_phase(x, int(l), f, parity_form, uint32_t(arg & 1));
      wr(x, in.d, l, 1);
      continue;
    }
    // try_wait may time out; test_wait returns at once. Both return false
    // sometimes under the adversary, and otherwise wait for the phase.
    if (x.run->opt->adversarial && x.run->below(4) == 0) {
      wr(x, in.d, l, 0);
      continue;
    }
    waiting |= 1u << l;
    key = f.key();
    parity = parity_form ? (arg & 1) : ((arg >> 20) & 1);
  }
  if (waiting) {
    // Lanes of one warp at one instruction wait on one object in practice;
    // any that wait elsewhere are re-checked when they run again.
    block(x, waiting, WaitKind::Mbarrier, key, parity);
    x.advance &= ~waiting;
    x.end_quantum = true;
    x.rerun = waiting == x.group;
  }
}

void h_pending(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    uint32_t n = 0;
    sm90::MbarrierResult r = sm90::mbarrier_pending_count(rd(x, in.s[0], l), &n);
    if (!r.ok())
      fail(x, int(l), Hazard::BarrierMisuse, r.error);
    wr(x, in.d, l, n);
  }
}

} // namespace

bool mbarrier_parity_done(Cluster &cl, Cta &, uint64_t key, uint32_t parity) {
  Cta *c = cl.cta_of_rank(uint32_t(key >> 32));
  uint64_t w;
  std::memcpy(&w, c->smem.data() + uint32_t(key), 8);
  bool complete = false;
  sm90::MbarrierResult r = sm90::mbarrier_test_wait_parity(w, parity, &complete);
  return !r.ok() || complete; // an error wakes the thread, which then reports it
}

std::string mbarrier_state_text(uint64_t word) {
  sm90::MbarrierFields f;
  if (!sm90::mbarrier_decode(word, &f))
    return "not an initialized mbarrier";
  return "pending arrivals " + std::to_string(f.pending) + " of " + std::to_string(f.expected) + ", tx-count " +
         std::to_string(f.tx) + ", current parity " + std::to_string(f.parity);
}

/// complete-tx on the mbarrier at `key` (from an async event, ops_tma.cpp).
std::string mbarrier_complete_tx_at(Cluster &cl, uint64_t key, uint32_t bytes) {
  Cta *c = cl.cta_of_rank(uint32_t(key >> 32));
  uint64_t w;
  std::memcpy(&w, c->smem.data() + uint32_t(key), 8);
  sm90::MbarrierResult r = sm90::mbarrier_complete_tx(w, bytes);
  if (!r.ok())
    return r.error;
  std::memcpy(c->smem.data() + uint32_t(key), &w, 8);
  count_phase(cl, key, r);
  return "";
}

bool decode_mbarrier(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  if (in.opcode != "mbarrier")
    return false;
  bool cluster = false;
  d.space = space_of(in, &cluster);
  d.sub2 = cluster;
  const std::string op = in.mods.empty() ? "" : in.mods[0];
  if (op == "init" || op == "inval" || op == "expect_tx" || op == "complete_tx") {
    d.sub = op == "init" ? MInit : op == "inval" ? MInval : op == "expect_tx" ? MExpectTx : MCompleteTx;
    d.s[0] = c.opd(0);
    d.s[1] = c.opd(1);
    d.run = h_mbarrier;
  } else if (op == "arrive" || op == "arrive_drop") {
    bool tx = c.has("expect_tx");
    if (c.has("noComplete"))
      return true;
    d.sub = tx ? MArriveTx : op == "arrive" ? MArrive : MArriveDrop;
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.nops() > 2 ? c.opd(2) : Opd{};
    if (tx && op != "arrive")
      return true; // arrive_drop.expect_tx: not emitted for these kernels
    d.run = h_mbarrier;
  } else if (op == "test_wait" || op == "try_wait") {
    d.sub = op == "test_wait" ? MTestWait : MTryWait;
    d.flags |= c.has("parity") ? kUni : 0;
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.run = h_wait;
  } else if (op == "pending_count") {
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.run = h_pending;
  }
  if (d.s[0].kind != Opd::A && d.sub != MPending && op != "pending_count")
    d.run = nullptr;
  return true;
}

} // namespace emu::exec
