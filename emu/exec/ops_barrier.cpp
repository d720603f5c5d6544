// emu/exec/ops_barrier.cpp - CTA and cluster barriers, fences, setmaxnreg --//
// Named barriers count threads: bar.sync/barrier.sync without a count waits
// for every thread of the CTA (exited threads count as arrived); with a
// count, it must be a multiple of 32, and every participant of one
// generation must give the same count (else Hazard::BarrierMisuse).
// barrier.cluster.arrive/wait is a per-cluster phase counter; a second arrive
// before the wait, or a wait without an arrive, is misuse. Fences order
// memory that a sequentially consistent emulator already orders; what they
// still do here: fence.proxy.async makes generic writes visible to the async
// proxy (async_proxy.cpp), and releases at cluster scope (fence.mbarrier_init,
// cluster-scope fences, barrier.cluster.arrive without .relaxed) publish
// mbarrier inits to the other CTAs (mbarrier_release.cpp). setmaxnreg moves registers between
// the warp and the CTA's 64K pool; an .inc that does not fit blocks until
// registers are freed (deadlock detection reports Hazard::RegisterPool).
#include "emu/exec/ops.h"

#include <algorithm>

namespace emu::exec {

namespace {

uint32_t popc(uint32_t m) { return uint32_t(__builtin_popcount(m)); }

void complete(NamedBarrier &b) {
  b.generation++;
  b.arrived = 0;
  b.expected = 0;
  b.last_popc = b.red_popc, b.last_and = b.red_and, b.last_or = b.red_or;
  b.red_popc = 0, b.red_and = true, b.red_or = false;
}

bool done(const Cta &c, const NamedBarrier &b) {
  if (b.expected == ~0u) // every thread of the CTA
    return b.arrived + c.exited_threads >= c.nthreads;
  return b.arrived >= b.expected;
}

// Arrival of `active` lanes at barrier `id` expecting `count` threads (0: all).
// Returns true when this arrival completed the barrier.
bool arrive(Exec &x, const DInstr &in, uint32_t active, uint32_t id, uint32_t count) {
  Cta &c = *x.cta;
  if (id >= 16)
    fail(x, __builtin_ctz(active), Hazard::BarrierMisuse, "barrier id " + std::to_string(id) + " is not in 0..15");
  if (count && count % 32)
    fail(x, __builtin_ctz(active), Hazard::BarrierMisuse,
         "barrier thread count " + std::to_string(count) + " is not a multiple of 32");
  if (count > c.nthreads + 31 - (c.nthreads + 31) % 32)
    fail(x, __builtin_ctz(active), Hazard::BarrierMisuse,
         "barrier thread count " + std::to_string(count) + " exceeds the CTA's " + std::to_string(c.nthreads) + " threads");
  NamedBarrier &b = c.bars[id];
  uint32_t want = count ? count : ~0u;
  if (b.arrived && b.expected != want)
    fail(x, __builtin_ctz(active), Hazard::BarrierMisuse,
         "barrier " + std::to_string(id) + " used with thread count " +
             (count ? std::to_string(count) : std::string("all")) + " while threads already wait on it with " +
             (b.expected == ~0u ? std::string("all") : std::to_string(b.expected)));
  b.expected = want;
  b.arrived += popc(active);
  if (count && b.arrived > count)
    fail(x, __builtin_ctz(active), Hazard::BarrierMisuse,
         "more threads than the count " + std::to_string(count) + " arrived at barrier " + std::to_string(id));
  if (done(c, b)) {
    complete(b);
    return true;
  }
  return false;
}

uint32_t count_of(Exec &x, const DInstr &in, uint32_t active) {
  return in.s[1].kind == Opd::None ? 0 : uint32_t(rd(x, in.s[1], __builtin_ctz(active)));
}

void h_bar_sync(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t id = uint32_t(rd(x, in.s[0], __builtin_ctz(m)));
  uint64_t gen = x.cta->bars[id & 15].generation;
  if (!arrive(x, in, m, id, count_of(x, in, m)))
    block(x, m, WaitKind::Bar, id, gen);
  x.end_quantum = true;
}

void h_bar_arrive(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t id = uint32_t(rd(x, in.s[0], __builtin_ctz(m)));
  uint32_t n = count_of(x, in, m);
  if (!n)
    fail(x, __builtin_ctz(m), Hazard::BarrierMisuse, "bar.arrive needs a thread count");
  arrive(x, in, m, id, n);
}

// bar.red: lanes arrive (pc stays), then re-execute after the release to read the result.
void h_bar_red(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  uint32_t id = uint32_t(rd(x, in.s[0], __builtin_ctz(m))) & 15;
  NamedBarrier &b = x.cta->bars[id];
  uint32_t fresh = 0, finished = 0;
  FOR_LANES(m, l) {
    if (w.red_gen[l] == 0)
      fresh |= 1u << l;
    else if (b.generation >= w.red_gen[l])
      finished |= 1u << l;
  }
  FOR_LANES(finished, l) {
    w.red_gen[l] = 0;
    uint64_t r = in.sub == 0 ? b.last_popc : in.sub == 1 ? b.last_and : b.last_or;
    wr(x, in.d, l, r);
  }
  x.advance &= ~(m & ~finished);
  x.rerun = (m & ~finished) == x.group;
  if (!fresh)
    return;
  FOR_LANES(fresh, l) {
    bool p = rdp(x, in.s[2], l);
    b.red_popc += p;
    b.red_and = b.red_and && p;
    b.red_or = b.red_or || p;
    w.red_gen[l] = b.generation + 1;
  }
  uint64_t gen = b.generation;
  if (!arrive(x, in, fresh, uint32_t(rd(x, in.s[0], __builtin_ctz(m))), count_of(x, in, fresh)))
    block(x, fresh, WaitKind::Bar, id, gen);
  x.end_quantum = true;
}

void cluster_complete_if_done(Cluster &cl) {
  if (cl.bar_arrived && cl.bar_arrived + cl.exited_threads >= cl.nthreads) {
    cl.bar_phase++;
    cl.bar_arrived = 0;
  }
}

void h_cluster_arrive(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  Cluster &cl = *x.cluster;
  if (w.cbar_arrived & m)
    fail(x, __builtin_ctz(w.cbar_arrived & m), Hazard::BarrierMisuse,
         "barrier.cluster.arrive again before barrier.cluster.wait");
  w.cbar_arrived |= m;
  if (!(in.flags & kRelaxed)) // .release is the default
    cluster_release(x, m, false);
  FOR_LANES(m, l) w.cbar_target[l] = cl.bar_phase + 1;
  cl.bar_arrived += popc(m);
  cluster_complete_if_done(cl);
}

void h_cluster_wait(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  if (m & ~w.cbar_arrived)
    fail(x, __builtin_ctz(m & ~w.cbar_arrived), Hazard::BarrierMisuse,
         "barrier.cluster.wait without a preceding barrier.cluster.arrive");
  w.cbar_arrived &= ~m;
  uint64_t target = 0;
  FOR_LANES(m, l) target = std::max(target, w.cbar_target[l]);
  if (x.cluster->bar_phase < target)
    block(x, m, WaitKind::ClusterBar, 0, target);
  x.end_quantum = true;
}

void h_fence(Exec &, const DInstr &, uint32_t) {}

// A release at cluster scope or wider (decode_barrier says which fences are).
void h_cluster_release_fence(Exec &x, const DInstr &in, uint32_t m) { cluster_release(x, m, in.sub == 1); }

void h_proxy_fence(Exec &x, const DInstr &, uint32_t m) { proxy_fence(x, m); }

void h_setmaxnreg(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  if (!rendezvous(x, w.lanes, m))
    return;
  uint32_t v = uint32_t(in.s[0].imm);
  if (v < 24 || v > 256 || v % 8)
    fail(x, __builtin_ctz(m), Hazard::BadProgram,
         "setmaxnreg count " + std::to_string(v) + " is not a multiple of 8 in 24..256");
  if (in.sub == 0) { // dec
    if (v > w.nregs)
      fail(x, __builtin_ctz(m), Hazard::RegisterPool,
           "setmaxnreg.dec to " + std::to_string(v) + " above the warp's current " + std::to_string(w.nregs));
    x.cta->reg_pool_used -= (w.nregs - v) * 32;
    w.nregs = v;
    return;
  }
  if (v < w.nregs)
    fail(x, __builtin_ctz(m), Hazard::RegisterPool,
         "setmaxnreg.inc to " + std::to_string(v) + " below the warp's current " + std::to_string(w.nregs));
  uint32_t extra = (v - w.nregs) * 32;
  if (x.cta->reg_pool_used + extra <= 65536) {
    x.cta->reg_pool_used += extra;
    w.nregs = v;
  } else {
    block(x, m, WaitKind::RegPool, v, 0);
    x.end_quantum = true;
  }
}

} // namespace

void barriers_after_exit(Exec &x) {
  Cta &c = *x.cta;
  for (NamedBarrier &b : c.bars)
    if (b.arrived && b.expected == ~0u && done(c, b))
      complete(b);
  cluster_complete_if_done(*x.cluster);
}

bool decode_barrier(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  const std::string &op = in.opcode;
  if (op == "barrier" && c.has("cluster")) {
    if (c.has("arrive"))
      d.run = h_cluster_arrive;
    else if (c.has("wait"))
      d.run = h_cluster_wait;
    d.flags |= c.has("relaxed") ? kRelaxed : 0;
    return true;
  }
  if (op == "bar" || op == "barrier") {
    bool red = c.has("red");
    size_t base = red ? 1 : 0;
    d.s[0] = c.opd(base);
    if (red) {
      d.d = c.opd(0);
      // bar.red.op d, a{, b}, {!}c: the predicate is last.
      size_t n = c.nops();
      d.s[1] = n == 4 ? c.opd(2) : Opd{};
      d.s[2] = c.opd(n - 1);
      d.sub = c.has("popc") ? 0 : c.has("and") ? 1 : c.has("or") ? 2 : 3;
      d.run = d.sub < 3 ? h_bar_red : nullptr;
      return true;
    }
    d.s[1] = c.nops() > base + 1 ? c.opd(base + 1) : Opd{};
    if (c.has("arrive"))
      d.run = h_bar_arrive;
    else if (c.has("sync") || op == "barrier" || in.mods.empty())
      d.run = h_bar_sync;
    return true;
  }
  if (op == "membar" || op == "fence") {
    d.run = h_fence;
    // fence.proxy.async{.shared::cta,.shared::cluster,.global} and the
    // async::generic release form: the thread's generic writes become visible
    // to the async proxy (async_proxy.cpp); the other fences order nothing more.
    if (c.has("proxy") && (c.has("async") || c.has("async::generic")))
      d.run = h_proxy_fence;
    else if (c.has("mbarrier_init"))
      d.run = h_cluster_release_fence, d.sub = 1;
    else if (!c.has("proxy") && !c.has("acquire") && !c.has("relaxed") &&
             (op == "membar" ? c.has("gl") || c.has("sys") : c.has("cluster") || c.has("gpu") || c.has("sys")))
      d.run = h_cluster_release_fence;
    return true;
  }
  if (op == "setmaxnreg") {
    d.s[0] = c.opd(0);
    d.sub = c.has("inc") ? 1 : 0;
    if (d.s[0].kind == Opd::I && (c.has("inc") || c.has("dec"))) {
      d.run = h_setmaxnreg;
      c.k->largest_setmaxnreg = std::max(c.k->largest_setmaxnreg, uint32_t(d.s[0].imm));
    }
    d.collective = true;
    return true;
  }
  return false;
}

} // namespace emu::exec
