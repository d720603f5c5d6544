// emu/exec/scheduler.cpp - seeded cooperative scheduling of warps -----------//
// A cluster's CTAs are resident together; clusters run one after another in a
// seeded order (they cannot communicate except through global memory, which
// a launch may not rely on). The scheduler picks a warp with runnable lanes at
// random, runs it for a quantum (Options::quantum, or seeded 1..64), and
// between quanta may land one pending async event. Inside a warp, the lanes
// at the lowest program counter run together (so divergent paths reconverge
// where their PCs meet); a collective instruction waits for the lanes of its
// mask. When nothing can run, a pending event lands; with none pending the
// launch is deadlocked and every waiting thread is listed.
#include "emu/exec/scheduler.h"

#include "emu/exec/device_impl.h"
#include "emu/exec/ops.h"

#include <algorithm>
#include <cstring>

namespace emu::exec {

namespace {

void build_cluster(Run &run, Cluster &cl, const uint32_t cid[3]) {
  const Decoded &k = *run.k;
  cl.run = &run;
  std::memcpy(cl.id, cid, sizeof cl.id);
  uint32_t n = run.cluster_dim[0] * run.cluster_dim[1] * run.cluster_dim[2];
  uint32_t threads = run.block[0] * run.block[1] * run.block[2];
  uint32_t smem_bytes = k.dyn_smem_offset - kSmemBase + run.dyn_smem;
  uint8_t fill = run.opt->adversarial ? kPoison : 0;
  BufferPool &pool = *run.pool;
  for (uint32_t r = 0; r < n; ++r) {
    auto cta = std::make_unique<Cta>();
    cta->cluster = &cl;
    cta->rank = r;
    cta->cluster_ctaid[0] = r % run.cluster_dim[0];
    cta->cluster_ctaid[1] = r / run.cluster_dim[0] % run.cluster_dim[1];
    cta->cluster_ctaid[2] = r / (run.cluster_dim[0] * run.cluster_dim[1]);
    for (int d = 0; d < 3; ++d)
      cta->ctaid[d] = cid[d] * run.cluster_dim[d] + cta->cluster_ctaid[d];
    cta->nthreads = threads;
    // Shared and local memory start undefined on the GPU: poisoned under the adversary.
    size_t local_bytes = size_t(k.local_bytes) * threads;
    cta->smem = pool.bytes.take(smem_bytes);
    cta->smem.assign(smem_bytes, fill);
    cta->local = pool.bytes.take(local_bytes);
    cta->local.assign(local_bytes, fill);
    cta->proxy_shadow = pool.words.take(smem_bytes); // sized on first use (async_proxy.cpp)
    uint32_t nwarps = (threads + 31) / 32;
    for (uint32_t w = 0; w < nwarps; ++w) {
      auto wp = std::make_unique<Warp>();
      wp->cta = cta.get();
      wp->id = w;
      uint32_t count = std::min<uint32_t>(32, threads - w * 32);
      wp->lanes = count == 32 ? 0xffffffffu : ((1u << count) - 1);
      // Registers start undefined too: all ones (NaN, -1) under the adversary.
      wp->regs = pool.words.take(size_t(k.nslots) * 32);
      wp->regs.assign(size_t(k.nslots) * 32, run.opt->adversarial ? ~0ull : 0);
      for (uint32_t l = 0; l < count; ++l) {
        uint32_t t = w * 32 + l;
        wp->tid[0][l] = t % run.block[0];
        wp->tid[1][l] = t / run.block[0] % run.block[1];
        wp->tid[2][l] = t / (run.block[0] * run.block[1]);
      }
      wp->nregs = run.regs_per_thread;
      cta->reg_pool_used += wp->nregs * 32;
      cta->warps.push_back(std::move(wp));
    }
    cl.ctas.push_back(std::move(cta));
  }
  cl.nthreads = n * threads;
}

// Hands a finished cluster's buffers back for the next one.
void recycle(Run &run, Cluster &cl) {
  for (auto &cta : cl.ctas) {
    run.pool->bytes.give(std::move(cta->smem));
    run.pool->bytes.give(std::move(cta->local));
    run.pool->words.give(std::move(cta->proxy_shadow));
    for (auto &w : cta->warps)
      run.pool->words.give(std::move(w->regs));
  }
}

bool satisfied(Cluster &cl, Warp &w, const Wait &wt);

// Clears the blocked bits of waits whose condition holds.
void poll(Cluster &cl, Warp &w) {
  if (w.waits.empty())
    return;
  for (size_t i = 0; i < w.waits.size();) {
    if (satisfied(cl, w, w.waits[i])) {
      w.blocked &= ~w.waits[i].mask;
      w.waits[i] = w.waits.back();
      w.waits.pop_back();
    } else {
      ++i;
    }
  }
}

bool satisfied(Cluster &cl, Warp &w, const Wait &wt) {
  switch (wt.kind) {
  case WaitKind::Bar: return w.cta->bars[wt.a].generation > wt.b;
  case WaitKind::ClusterBar: return cl.bar_phase >= wt.b;
  case WaitKind::Wgmma: return wgmma_groups_pending(w) <= wt.a;
  case WaitKind::Bulk: {
    bool read_only = wt.b != 0;
    FOR_LANES(wt.mask, l) {
      if ((read_only ? w.bulk_read_pending[l] : w.bulk_pending[l]) > wt.a)
        return false;
    }
    return true;
  }
  case WaitKind::Mbarrier: return mbarrier_parity_done(cl, *w.cta, wt.a, uint32_t(wt.b));
  case WaitKind::RegPool: {
    uint32_t want = uint32_t(wt.a);
    if (want <= w.nregs)
      return true;
    uint32_t extra = (want - w.nregs) * 32;
    if (w.cta->reg_pool_used + extra > 65536)
      return false;
    w.cta->reg_pool_used += extra;
    w.nregs = want;
    return true;
  }
  }
  return false;
}

std::string lanes_text(uint32_t mask) {
  std::string s;
  for (int l = 0; l < 32;) {
    if (!(mask >> l & 1)) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < 32 && (mask >> (e + 1) & 1))
      ++e;
    if (!s.empty())
      s += ",";
    s += std::to_string(l) + (e > l ? "-" + std::to_string(e) : "");
    l = e + 1;
  }
  return s;
}

const char *wait_name(WaitKind k) {
  switch (k) {
  case WaitKind::Bar: return "named barrier";
  case WaitKind::ClusterBar: return "cluster barrier";
  case WaitKind::Mbarrier: return "mbarrier phase";
  case WaitKind::Wgmma: return "wgmma groups";
  case WaitKind::Bulk: return "bulk async-groups";
  case WaitKind::RegPool: return "registers (setmaxnreg.inc)";
  }
  return "?";
}

// What an mbarrier wait waits for, with the barrier's state.
std::string mbarrier_wait_text(Cluster &cl, uint64_t key, uint64_t parity) {
  Cta *c = cl.cta_of_rank(uint32_t(key >> 32));
  char b[200];
  std::snprintf(b, sizeof b, "mbarrier 0x%x (CTA rank %u), phase parity %llu",
                uint32_t(key) + kSmemBase, uint32_t(key >> 32), (unsigned long long)parity);
  std::string s = b;
  if (!c || uint64_t(uint32_t(key)) + 8 > c->smem.size())
    return s;
  uint64_t w;
  std::memcpy(&w, c->smem.data() + uint32_t(key), 8);
  auto ph = cl.mbar_phases.find(key);
  s += " (";
  if (ph != cl.mbar_phases.end())
    s += "current phase " + std::to_string(ph->second.completed) + ", ";
  return s + mbarrier_state_text(w) + ")";
}

// One blocked group of lanes: where, and what it waits for.
struct Blocked {
  const Cta *cta;
  uint32_t warp, lanes, pc;
  std::string why;
};

[[noreturn]] void deadlock(Run &run, Cluster &cl) {
  bool regpool = false;
  std::vector<Blocked> all;
  for (auto &cta : cl.ctas)
    for (auto &w : cta->warps) {
      for (const Wait &wt : w->waits) {
        std::string why = wait_name(wt.kind);
        char b[120];
        switch (wt.kind) {
        case WaitKind::Bar:
          std::snprintf(b, sizeof b, " %llu (%u of %u threads arrived)", (unsigned long long)wt.a,
                        cta->bars[wt.a].arrived, cta->bars[wt.a].expected == ~0u ? cta->nthreads
                                                                                  : cta->bars[wt.a].expected);
          why += b;
          break;
        case WaitKind::ClusterBar:
          std::snprintf(b, sizeof b, " (%u of %u threads arrived)", cl.bar_arrived, cl.nthreads - cl.exited_threads);
          why += b;
          break;
        case WaitKind::Mbarrier: why = mbarrier_wait_text(cl, wt.a, wt.b); break;
        case WaitKind::Wgmma:
        case WaitKind::Bulk:
          std::snprintf(b, sizeof b, " (until at most %llu pending)", (unsigned long long)wt.a);
          why += b;
          break;
        case WaitKind::RegPool:
          regpool = true;
          std::snprintf(b, sizeof b, ": %llu per thread wanted, %u of 65536 in use", (unsigned long long)wt.a,
                        cta->reg_pool_used);
          why += b;
          break;
        }
        // Lanes that blocked at different times on the same thing: one entry.
        bool merged = false;
        for (size_t i = all.size(); i-- > 0 && all[i].cta == cta.get() && all[i].warp == w->id;)
          if (all[i].pc == wt.pc && all[i].why == why) {
            all[i].lanes |= wt.mask;
            merged = true;
            break;
          }
        if (!merged)
          all.push_back({cta.get(), w->id, wt.mask, wt.pc, why});
      }
      if (w->warpsync) {
        uint32_t m = w->warpsync;
        all.push_back({cta.get(), w->id, m, w->pc[__builtin_ctz(m)],
                       "a warp-collective instruction, for the rest of its mask"});
      }
    }
  // Consecutive warps of one CTA with the same lanes, instruction and reason: one line.
  std::string what = "nothing can run and no asynchronous operation is pending; waiting:\n";
  int lines = 0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i + 1;
    while (j < all.size() && all[j].cta == all[i].cta && all[j].warp == all[j - 1].warp + 1 &&
           all[j].lanes == all[i].lanes && all[j].pc == all[i].pc && all[j].why == all[i].why)
      ++j;
    if (lines++ < 64) {
      const Blocked &g = all[i];
      const ptx::Instr *in = g.pc < run.k->code.size() ? run.k->code[g.pc].src : nullptr;
      char b[200];
      std::snprintf(b, sizeof b, "    CTA (%u,%u,%u) %s %u%s (lanes %s) wait", g.cta->ctaid[0], g.cta->ctaid[1],
                    g.cta->ctaid[2], j - i > 1 ? "warps" : "warp", g.warp,
                    j - i > 1 ? ("-" + std::to_string(all[j - 1].warp)).c_str() : "", lanes_text(g.lanes).c_str());
      what += b;
      if (in)
        what += " at PTX line " + std::to_string(in->ptx_line);
      what += " on " + g.why;
      if (in)
        what += ": " + in->text;
      what += "\n";
    }
    i = j;
  }
  if (lines > 64)
    what += "    ... " + std::to_string(lines - 64) + " more\n";
  what.pop_back();
  Where first;
  if (!all.empty()) {
    Exec x;
    x.run = &run;
    x.cluster = &cl;
    x.cta = const_cast<Cta *>(all[0].cta);
    x.warp = x.cta->warps[all[0].warp].get();
    x.cur = all[0].pc < run.k->code.size() ? &run.k->code[all[0].pc] : nullptr;
    first = where_of(x, __builtin_ctz(all[0].lanes));
  }
  first.kernel = run.kernel;
  report(regpool ? Hazard::RegisterPool : Hazard::Deadlock, first, what);
}

void land_one(Run &run, Cluster &cl) {
  size_t i = run.opt->adversarial ? run.below(uint32_t(cl.events.size())) : 0;
  uint64_t s = cl.events[i].stream;
  if (s)
    for (size_t j = 0; j < i; ++j)
      if (cl.events[j].stream == s) {
        i = j;
        break;
      }
  AsyncEvent e = std::move(cl.events[i]);
  cl.events.erase(cl.events.begin() + long(i));
  e.land();
}

// Runs up to `quantum` instructions of warp `w`.
void run_warp(Run &run, Cluster &cl, Warp &w, uint32_t quantum) {
  const Decoded &k = *run.k;
  Exec x;
  x.run = &run;
  x.cluster = &cl;
  x.cta = w.cta;
  x.warp = &w;
  x.regs = w.regs.data();
  w.yielded = 0;
  const uint32_t ncode = uint32_t(k.code.size());
  for (uint32_t i = 0; i < quantum; ++i) {
    uint32_t r = w.runnable();
    if (!r)
      break;
    uint32_t pc = w.pc[__builtin_ctz(r)];
    uint32_t group = 0;
    for (uint32_t m = r; m; m &= m - 1) {
      uint32_t l = __builtin_ctz(m), p = w.pc[l];
      if (p < pc) {
        pc = p;
        group = 0;
      }
      if (p == pc)
        group |= 1u << l;
    }
    for (uint32_t m = w.warpsync; m; m &= m - 1)
      if (w.pc[__builtin_ctz(m)] == pc)
        group |= m & -m;
    if (pc >= ncode) { // fell off the end: an implicit exit
      thread_exit(x, group);
      continue;
    }
    const DInstr &in = k.code[pc];
    uint32_t active = group;
    if (in.guard >= 0) {
      const uint64_t *g = x.regs + size_t(in.guard) * 32;
      active = 0;
      for (uint32_t m = group; m; m &= m - 1) {
        uint32_t l = __builtin_ctz(m);
        if ((g[l] != 0) != in.guard_neg)
          active |= 1u << l;
      }
    }
    x.group = group;
    x.advance = group;
    x.end_quantum = false;
    x.rerun = false;
    x.cur = &in;
    if (active && (in.checks & kCheckWgRegs))
      wgmma_reg_access(x, in, active);
    if (active)
      in.run(x, in, active);
    if (!run.profile.empty() && !x.rerun)
      ++run.profile[w.id][size_t(in.pclass)];
    for (uint32_t m = x.advance; m; m &= m - 1)
      ++w.pc[__builtin_ctz(m)];
    ++run.instructions;
    if (x.end_quantum)
      break;
  }
  if (run.opt->max_instructions && run.instructions > run.opt->max_instructions) {
    Where wh = where_of(x, -1);
    report(Hazard::Deadlock, wh,
           "the launch ran past EXG_EMU_MAX_INSTRUCTIONS (" +
               std::to_string(run.opt->max_instructions) + " warp instructions): a livelock?");
  }
}

void run_cluster(Run &run, const uint32_t cid[3]) {
  Cluster cl;
  build_cluster(run, cl, cid);
  std::vector<Warp *> warps;
  for (auto &c : cl.ctas)
    for (auto &w : c->warps)
      warps.push_back(w.get());
  std::vector<Warp *> ready;
  for (;;) {
    ready.clear();
    bool live = false;
    for (Warp *w : warps) {
      if ((w->lanes & ~w->exited) == 0)
        continue;
      live = true;
      poll(cl, *w);
      if (w->runnable())
        ready.push_back(w);
    }
    if (!live) {
      while (!cl.events.empty()) // stores still in flight land before the launch ends
        land_one(run, cl);
      recycle(run, cl);
      return;
    }
    if (ready.empty()) {
      if (cl.events.empty())
        deadlock(run, cl);
      land_one(run, cl);
      continue;
    }
    Warp *w = ready[run.below(uint32_t(ready.size()))];
    uint32_t q = run.opt->quantum ? run.opt->quantum : 1 + run.below(64);
    run_warp(run, cl, *w, q);
    if (!cl.events.empty()) {
      if (!run.opt->adversarial)
        while (!cl.events.empty())
          land_one(run, cl);
      else if (run.below(4) == 0)
        land_one(run, cl);
    }
  }
}

} // namespace

void block(Exec &x, uint32_t mask, WaitKind k, uint64_t a, uint64_t b) {
  Wait wt;
  wt.mask = mask;
  wt.kind = k;
  wt.a = a;
  wt.b = b;
  wt.pc = x.cur ? x.cur->index : 0;
  x.warp->blocked |= mask;
  x.warp->waits.push_back(wt);
}

void push_event(Exec &x, AsyncEvent e) { x.cluster->events.push_back(std::move(e)); }

void thread_exit(Exec &x, uint32_t mask) {
  mask &= ~x.warp->exited;
  x.warp->exited |= mask;
  x.warp->warpsync &= ~mask;
  x.advance &= ~mask;
  uint32_t n = uint32_t(__builtin_popcount(mask));
  x.cta->exited_threads += n;
  x.cluster->exited_threads += n;
  barriers_after_exit(x);
}

void execute(Run &run) {
  BufferPool own; // a Run made without a Device (tests) reuses within the launch
  if (!run.pool)
    run.pool = &own;
  uint32_t n[3];
  for (int d = 0; d < 3; ++d)
    n[d] = run.grid[d] / run.cluster_dim[d];
  std::vector<uint32_t> order(size_t(n[0]) * n[1] * n[2]);
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  if (run.opt->adversarial) // a seeded order: a kernel must not depend on one
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[run.below(uint32_t(i))]);
  for (uint32_t id : order) {
    uint32_t cid[3] = {id % n[0], id / n[0] % n[1], id / (n[0] * n[1])};
    run_cluster(run, cid);
  }
  if (run.pool == &own)
    run.pool = nullptr;
}

} // namespace emu::exec
