// emu/exec/async_proxy.cpp - generic writes the async proxy reads unfenced --//
// The async proxy (TMA and bulk stores, wgmma's shared operands) sees a
// generic-proxy write to shared memory only after the writing thread has
// executed fence.proxy.async (PTX ISA 9.0, 8.6 "Proxies" and 9.7.15.4
// "Async Proxy"; a barrier alone is not enough). When a kernel has such
// reads (Decoded::async_reads), each CTA keeps a shadow of its shared
// memory: per byte, the last generic write that its writer has not yet
// fenced. One 64-bit word per byte:
//   bits  0-15  the writer + 1: cluster rank * threads per CTA + linear thread id (0: none)
//   bits 16-39  the writer's fence.proxy.async count at the write (mod 2^24)
//   bits 40-63  the writing instruction's index in the kernel
// A fence only bumps the thread's count, so it costs nothing per byte; a
// read finds a byte unfenced when its writer's count is still the recorded
// one. Async-proxy writes (TMA loads, bulk copies) clear the bytes they
// write, so a later async read of them is clean.
#include "emu/exec/ops.h"

#include <cstdio>

namespace emu::exec {

namespace {

constexpr uint64_t kCountMask = (1u << 24) - 1;

uint32_t linear_tid(const Warp &w, uint32_t lane) { return w.id * 32 + lane; }

} // namespace

void proxy_note_write(Exec &x, const uint8_t *p, uint32_t n, int lane) {
  if (!x.run->k->async_reads)
    return;
  Cta *c = x.cta;
  if (p < c->smem.data() || p >= c->smem.data() + c->smem.size()) {
    c = nullptr; // another CTA's shared memory (shared::cluster), or not shared at all
    for (auto &o : x.cluster->ctas)
      if (p >= o->smem.data() && p < o->smem.data() + o->smem.size())
        c = o.get();
    if (!c)
      return;
  }
  if (c->proxy_shadow.empty())
    c->proxy_shadow.assign(c->smem.size(), 0);
  uint32_t t = linear_tid(*x.warp, uint32_t(lane));
  uint64_t writer = uint64_t(x.cta->rank) * x.cta->nthreads + t + 1;
  uint64_t fences = x.cta->proxy_fences.empty() ? 0 : x.cta->proxy_fences[t];
  uint64_t word = writer | (fences & kCountMask) << 16 | uint64_t(x.cur->index) << 40;
  size_t off = size_t(p - c->smem.data());
  for (uint32_t i = 0; i < n && off + i < c->proxy_shadow.size(); ++i)
    c->proxy_shadow[off + i] = word;
}

void proxy_note_async_write(Cta &c, uint32_t off, uint32_t n) {
  if (c.proxy_shadow.empty())
    return;
  for (uint32_t i = 0; i < n && size_t(off) + i < c.proxy_shadow.size(); ++i)
    c.proxy_shadow[off + i] = 0;
}

void proxy_fence(Exec &x, uint32_t mask) {
  if (!x.run->k->async_reads)
    return;
  Cta &c = *x.cta;
  if (c.proxy_fences.empty())
    c.proxy_fences.assign(c.warps.size() * 32, 0);
  FOR_LANES(mask, l) c.proxy_fences[linear_tid(*x.warp, l)]++;
}

void proxy_check_read(Exec &x, Cta &owner, uint32_t off, uint32_t n, int lane, const char *what) {
  if (owner.proxy_shadow.empty())
    return;
  for (uint32_t i = 0; i < n && size_t(off) + i < owner.proxy_shadow.size(); ++i) {
    uint64_t &word = owner.proxy_shadow[off + i];
    if (!word)
      continue;
    uint32_t writer = uint32_t(word & 0xffff) - 1;
    Cta *wc = x.cluster->cta_of_rank(writer / owner.nthreads);
    uint32_t t = writer % owner.nthreads;
    uint64_t now = !wc || wc->proxy_fences.empty() ? 0 : wc->proxy_fences[t];
    if ((now & kCountMask) != ((word >> 16) & kCountMask)) {
      word = 0; // the writer has fenced since: visible from now on
      continue;
    }
    const Run &r = *x.run;
    const DInstr &wi = r.k->code[size_t(word >> 40)];
    char b[320];
    std::snprintf(b, sizeof b,
                  "%s reads shared 0x%x (CTA rank %u), which thread (%u,%u,%u) of CTA rank %u wrote "
                  "with a generic store at PTX line %u (%s) and has not made visible to the async "
                  "proxy: fence.proxy.async is missing in the writing thread between its store and "
                  "the read",
                  what, off + i + kSmemBase, owner.rank, t % r.block[0], t / r.block[0] % r.block[1],
                  t / (r.block[0] * r.block[1]), writer / owner.nthreads,
                  wi.src ? wi.src->ptx_line : 0, wi.src ? wi.src->text.c_str() : "?");
    detected(x, lane, Detector::AsyncProxy, Hazard::AsyncHazard, b);
    // Allowed (exg-emu --allow=async-proxy): one count per read.
    for (uint32_t k = i; k < n && size_t(off) + k < owner.proxy_shadow.size(); ++k)
      owner.proxy_shadow[off + k] = 0;
    return;
  }
}

} // namespace emu::exec
