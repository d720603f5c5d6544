// emu/exec/ops_tma.cpp - TMA and bulk copies (cp.async.bulk*) ---------------//
// Which bytes move is emu/sm90/tma.h's; this file decides when. A load is
// checked at issue (tensor map, box, alignment) and becomes an async event:
// when it lands, the box is read from global memory, written to the shared
// memory of each destination CTA (one, or each of a multicast mask, at the
// same offset) and complete_tx signals each CTA's mbarrier at the same
// offset; under Options::adversarial the complete_tx comes in several parts
// that land separately. Stores and reduce-adds join the issuing thread's open
// bulk async-group; commit_group closes it into one event (a thread's groups
// land in order), and wait_group(.read) N blocks until at most N of its groups
// are pending. A store's shared source is snapshotted at issue and compared
// when it lands: a change in between is an async hazard (the kernel wrote
// the source before wait_group.read said it was read).
#include "emu/exec/device_impl.h"
#include "emu/exec/ops.h"

#include "emu/sm90/tma.h"

#include <cstring>
#include <memory>

namespace emu::exec {

std::string mbarrier_complete_tx_at(Cluster &cl, uint64_t key, uint32_t bytes);

namespace {

enum TOp : uint8_t { TLoad, TStore, TReduce, BLoad, BStore, Commit, TWait, WaitRead };

// Global memory from an event: checked against live allocations; a bad
// access reports at the issuing instruction.
struct GlobalAccess {
  DeviceImpl *dev;
  Where where;
  bool check(uint64_t a, uint32_t n, bool write) const {
    uint64_t lo, hi;
    if (!dev->find_range(a, n, lo, hi)) {
      char b[128];
      std::snprintf(b, sizeof b, "asynchronous %s of %u bytes at global address 0x%llx is outside every live allocation",
                    write ? "write" : "read", n, (unsigned long long)a);
      report(Hazard::OutOfBounds, where, b);
    }
    return true;
  }
  sm90::GlobalRead reader() const {
    return [this](uint64_t a, void *dst, uint32_t n) {
      check(a, n, false);
      std::memcpy(dst, reinterpret_cast<void *>(uintptr_t(a)), n);
      return true;
    };
  }
  /// An event issued by CTA rank `issuer` that lands in CTA rank `rank`'s
  /// shared memory (`what`): OutOfBounds when that CTA has exited since.
  void check_alive(Cluster &cl, uint32_t rank, uint32_t issuer, const char *what) const {
    const Cta *c = cl.cta_of_rank(rank);
    if (rank != issuer && c && cta_exited(*c))
      report_detected(*cl.run->opt, Detector::ExitedCta, Hazard::OutOfBounds, where,
             std::string(what) + " of CTA rank " + std::to_string(issuer) + " reaches shared memory of " +
                 "another CTA after it exited (" + exited_cta_text(*c) + ")");
  }
  sm90::GlobalWrite writer() const {
    return [this](uint64_t a, const void *src, uint32_t n) {
      check(a, n, true);
      std::memcpy(reinterpret_cast<void *>(uintptr_t(a)), src, n);
      return true;
    };
  }
};

sm90::TensorMap read_map(Exec &x, const DInstr &in, int lane) {
  uint64_t a = addr_of(x, in.s[0], lane);
  const uint8_t *p = mem_ptr(x, ptx::Space::Generic, a, 64, lane, false);
  mem_ptr(x, ptx::Space::Generic, a + 64, 64, lane, false);
  sm90::TensorMap map;
  if (!sm90::decode_tensor_map(p, &map))
    fail(x, lane, Hazard::BadProgram, "the tensor map is not one cuTensorMapEncodeTiled made (or was changed)");
  if (map.rank != in.ints.size())
    fail(x, lane, Hazard::BadProgram,
         "a " + std::to_string(in.ints.size()) + "d copy with a rank-" + std::to_string(map.rank) + " tensor map");
  return map;
}

void coords_of(Exec &x, const DInstr &in, int lane, int32_t *c) {
  for (size_t i = 0; i < in.s[1].elems.size(); ++i)
    c[i] = int32_t(rd(x, in.s[1].elems[i], lane));
}

uint32_t shared_addr(Exec &x, const Opd &o, int lane) {
  uint64_t a = addr_of(x, o, lane);
  if ((a & kWindowMask) == kSharedWindow)
    a -= kSharedWindow;
  return uint32_t(a);
}

// Splits `bytes` into 1..3 parts under the adversary.
std::vector<uint32_t> parts_of(Exec &x, uint32_t bytes) {
  std::vector<uint32_t> p;
  if (!x.run->opt->adversarial || bytes < 32) {
    p.push_back(bytes);
    return p;
  }
  uint32_t n = 1 + x.run->below(3), left = bytes;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    uint32_t part = 16 * (1 + x.run->below(std::max<uint32_t>(1, left / 16 - 1)));
    if (part >= left)
      break;
    p.push_back(part);
    left -= part;
  }
  p.push_back(left);
  return p;
}

void h_tma_load(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    int lane = int(l);
    auto map = std::make_shared<sm90::TensorMap>(read_map(x, in, lane));
    int32_t coords[5] = {};
    coords_of(x, in, lane, coords);
    uint32_t dst = shared_addr(x, in.d, lane), mbar = shared_addr(x, in.s[2], lane);
    uint32_t doff, moff;
    Cta *dcta = smem_owner(x, dst, doff);
    Cta *mcta = smem_owner(x, mbar, moff);
    smem_ptr(x, mbar, 8, lane, false);
    std::vector<uint32_t> ranks;
    if (in.sub2) { // multicast: each CTA of the mask, same offsets
      uint16_t mask = uint16_t(rd(x, in.s[3], l));
      ranks = sm90::multicast_ranks(mask);
      for (uint32_t r : ranks)
        if (r >= x.cluster->ctas.size())
          fail(x, lane, Hazard::OutOfBounds,
               "multicast mask names CTA rank " + std::to_string(r) + " outside the cluster");
    } else {
      if (!dcta || !mcta)
        fail(x, lane, Hazard::OutOfBounds, "a TMA destination or mbarrier outside the cluster");
      ranks.push_back(dcta->rank);
    }
    uint32_t local = (dst & ((1u << kClusterShift) - 1));
    sm90::TmaBox box;
    std::string err = sm90::tma_box(*map, coords, local, &box);
    if (!err.empty())
      fail(x, lane, Hazard::BadProgram, "TMA load: " + err);
    for (uint32_t r : ranks) {
      Cta *c = x.cluster->cta_of_rank(r);
      if (c != x.cta && cta_exited(*c))
        fail(x, lane, Hazard::OutOfBounds, "a multicast TMA load names an exited CTA (" + exited_cta_text(*c) + ")");
      check_init_released(x, *c, moff, lane, "a TMA load's complete_tx");
      if (doff + uint64_t(box.bytes) > c->smem.size() || local < kSmemBase)
        fail(x, lane, Hazard::OutOfBounds,
             "TMA load of " + std::to_string(box.bytes) + " bytes to shared 0x" + std::to_string(local) +
                 " runs past the CTA's shared memory");
    }
    auto ga = std::make_shared<GlobalAccess>(GlobalAccess{x.run->dev, where_of(x, lane)});
    Cluster *cl = x.cluster;
    const uint32_t issuer = x.cta->rank;
    std::vector<uint32_t> parts = parts_of(x, box.bytes);
    std::array<int32_t, 5> cs;
    std::copy(coords, coords + 5, cs.begin());
    for (uint32_t r : ranks) {
      uint64_t mkey = (uint64_t(r) << 32) | moff;
      AsyncEvent e;
      e.what = "TMA load";
      // The data and the first part of complete_tx land together; later parts after.
      e.land = [=]() {
        std::vector<uint8_t> image;
        sm90::TmaBox b;
        std::string er = sm90::tma_load(*map, cs.data(), local, ga->reader(), &image, &b);
        if (!er.empty())
          report(Hazard::BadProgram, ga->where, "TMA load: " + er);
        ga->check_alive(*cl, r, issuer, "a multicast TMA load");
        std::memcpy(cl->cta_of_rank(r)->smem.data() + doff, image.data(), image.size());
        proxy_note_async_write(*cl->cta_of_rank(r), doff, uint32_t(image.size()));
        std::string mer = mbarrier_complete_tx_at(*cl, mkey, parts[0]);
        if (!mer.empty())
          report(Hazard::BarrierMisuse, ga->where, "complete_tx of a TMA load: " + mer);
      };
      push_event(x, std::move(e));
      for (size_t i = 1; i < parts.size(); ++i) {
        AsyncEvent p;
        p.what = "TMA load complete_tx part";
        uint32_t bytes = parts[i];
        p.land = [=]() {
          ga->check_alive(*cl, r, issuer, "the complete_tx of a multicast TMA load");
          std::string mer = mbarrier_complete_tx_at(*cl, mkey, bytes);
          if (!mer.empty())
            report(Hazard::BarrierMisuse, ga->where, "complete_tx of a TMA load: " + mer);
        };
        push_event(x, std::move(p));
      }
    }
  }
}

// A store or reduce-add joins the thread's open bulk group.
void h_tma_store(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    int lane = int(l);
    auto map = std::make_shared<sm90::TensorMap>(read_map(x, in, lane));
    std::array<int32_t, 5> cs{};
    coords_of(x, in, lane, cs.data());
    uint32_t src = shared_addr(x, in.s[2], lane);
    sm90::TmaBox box;
    std::string err = sm90::tma_box(*map, cs.data(), src, &box);
    if (!err.empty())
      fail(x, lane, Hazard::BadProgram, "TMA store: " + err);
    const uint8_t *p = smem_ptr(x, src, 16, lane, true);
    uint32_t off;
    smem_owner(x, src, off);
    if (off + uint64_t(box.bytes) > x.cta->smem.size())
      fail(x, lane, Hazard::OutOfBounds, "TMA store source runs past the CTA's shared memory");
    proxy_check_read(x, *x.cta, off, box.bytes, lane, in.sub == TReduce ? "a TMA reduce" : "a TMA store");
    auto snapshot = std::make_shared<std::vector<uint8_t>>(p, p + box.bytes);
    auto ga = std::make_shared<GlobalAccess>(GlobalAccess{x.run->dev, where_of(x, lane)});
    Cta *cta = x.cta;
    bool reduce = in.sub == TReduce;
    sm90::TmaReduceOp rop = sm90::TmaReduceOp(in.sub2);
    x.warp->bulk_open[l].push_back([=]() {
      const uint8_t *now = cta->smem.data() + off;
      if (std::memcmp(now, snapshot->data(), snapshot->size()) != 0)
        report(Hazard::AsyncHazard, ga->where,
               "the shared source of a TMA store changed before the store read it (write after "
               "cp.async.bulk without cp.async.bulk.wait_group.read first)");
      sm90::TmaBox b;
      std::string er = reduce ? sm90::tma_reduce(*map, rop, cs.data(), src, now, ga->reader(), ga->writer(), &b)
                              : sm90::tma_store(*map, cs.data(), src, now, ga->writer(), &b);
      if (!er.empty())
        report(Hazard::BadProgram, ga->where, std::string(reduce ? "TMA reduce: " : "TMA store: ") + er);
    });
  }
}

// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
void h_bulk_load(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    int lane = int(l);
    uint32_t dst = shared_addr(x, in.d, lane), mbar = shared_addr(x, in.s[2], lane);
    uint64_t src = addr_of(x, in.s[0], lane);
    uint32_t n = uint32_t(rd(x, in.s[1], l));
    if (n % 16 || dst % 16 || src % 16)
      fail(x, lane, Hazard::OutOfBounds, "a bulk copy needs 16-byte aligned addresses and size");
    uint8_t *d = smem_ptr(x, dst, 16, lane, false);
    uint32_t doff, moff;
    Cta *dc = smem_owner(x, dst, doff);
    Cta *mc = smem_owner(x, mbar, moff);
    if (doff + uint64_t(n) > dc->smem.size())
      fail(x, lane, Hazard::OutOfBounds, "a bulk copy runs past the CTA's shared memory");
    check_init_released(x, *mc, moff, lane, "a bulk copy's complete_tx");
    mem_ptr(x, ptx::Space::Global, src, 16, lane, false);
    auto ga = std::make_shared<GlobalAccess>(GlobalAccess{x.run->dev, where_of(x, lane)});
    Cluster *cl = x.cluster;
    uint64_t mkey = (uint64_t(mc->rank) << 32) | moff;
    const uint32_t issuer = x.cta->rank;
    AsyncEvent e;
    e.what = "bulk copy";
    e.land = [=]() {
      ga->check(src, n, false);
      ga->check_alive(*cl, dc->rank, issuer, "a bulk copy");
      ga->check_alive(*cl, mc->rank, issuer, "the complete_tx of a bulk copy");
      std::memcpy(d, reinterpret_cast<void *>(uintptr_t(src)), n);
      proxy_note_async_write(*dc, doff, n);
      std::string mer = mbarrier_complete_tx_at(*cl, mkey, n);
      if (!mer.empty())
        report(Hazard::BarrierMisuse, ga->where, "complete_tx of a bulk copy: " + mer);
    };
    push_event(x, std::move(e));
  }
}

// cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size
void h_bulk_store(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    int lane = int(l);
    uint64_t dst = addr_of(x, in.d, lane);
    uint32_t src = shared_addr(x, in.s[0], lane);
    uint32_t n = uint32_t(rd(x, in.s[1], l));
    if (n % 16 || dst % 16 || src % 16)
      fail(x, lane, Hazard::OutOfBounds, "a bulk copy needs 16-byte aligned addresses and size");
    const uint8_t *p = smem_ptr(x, src, 16, lane, true);
    uint32_t off;
    smem_owner(x, src, off);
    if (off + uint64_t(n) > x.cta->smem.size())
      fail(x, lane, Hazard::OutOfBounds, "a bulk copy source runs past the CTA's shared memory");
    proxy_check_read(x, *x.cta, off, n, lane, "a bulk copy to global memory");
    auto snapshot = std::make_shared<std::vector<uint8_t>>(p, p + n);
    auto ga = std::make_shared<GlobalAccess>(GlobalAccess{x.run->dev, where_of(x, lane)});
    x.warp->bulk_open[l].push_back([=]() {
      if (std::memcmp(p, snapshot->data(), n) != 0)
        report(Hazard::AsyncHazard, ga->where, "the shared source of a bulk copy changed before it was read");
      ga->check(dst, n, true);
      std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), p, n);
    });
  }
}

void h_commit(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  FOR_LANES(m, l) {
    auto ops = std::make_shared<std::vector<std::function<void()>>>(std::move(w.bulk_open[l]));
    w.bulk_open[l].clear();
    w.bulk_pending[l]++;
    w.bulk_read_pending[l]++;
    Warp *wp = &w;
    AsyncEvent e;
    e.what = "bulk async-group";
    e.stream = (uint64_t(uintptr_t(wp)) << 5) | l; // one thread's groups complete in order
    e.land = [ops, wp, l]() {
      for (auto &f : *ops)
        f();
      wp->bulk_pending[l]--;
      wp->bulk_read_pending[l]--;
    };
    push_event(x, std::move(e));
  }
}

void h_wait_group(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t n = uint32_t(in.s[0].imm);
  bool read = in.sub == WaitRead;
  uint32_t waiting = 0;
  FOR_LANES(m, l) if ((read ? x.warp->bulk_read_pending[l] : x.warp->bulk_pending[l]) > n) waiting |= 1u << l;
  if (waiting) {
    block(x, waiting, WaitKind::Bulk, n, read);
    x.end_quantum = true;
  }
}

} // namespace

bool decode_tma(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  if (in.opcode != "cp" || !c.has("bulk"))
    return false;
  if (c.has("commit_group")) {
    d.sub = Commit;
    d.run = h_commit;
    return true;
  }
  if (c.has("wait_group")) {
    d.sub = c.has("read") ? WaitRead : TWait;
    d.s[0] = c.opd(0);
    if (d.s[0].kind == Opd::I)
      d.run = h_wait_group;
    return true;
  }
  bool tensor = c.has("tensor");
  bool reduce = c.has("reduce");
  bool to_shared = in.mods.size() > 3 && (c.has("shared::cluster") || c.has("shared::cta")) && !c.has("bulk_group");
  if (tensor) {
    int dims = 0;
    for (const std::string &m : in.mods)
      if (m.size() == 2 && m[1] == 'd' && m[0] >= '1' && m[0] <= '5')
        dims = m[0] - '0';
    if (!dims || !c.has("tile"))
      return true; // im2col and the gather modes are not emulated
    d.ints.assign(size_t(dims), 0);
    // The tensor operand is `[map, {coords}]`: the map address, then the coordinates.
    size_t ti = to_shared ? 1 : 0;
    if (ti >= c.nops() || in.operands[ti].elems.size() < 2)
      return true;
    d.s[0] = c.opd(ti);
    ptx::Instr tmp;
    tmp.operands = {in.operands[ti].elems[1]};
    DecodeCtx sub = c;
    sub.in = &tmp;
    d.s[1] = sub.opd(0);
    if (d.s[1].kind != Opd::V || d.s[1].elems.size() != size_t(dims))
      return true;
    if (to_shared) {
      if (!c.has("mbarrier::complete_tx::bytes"))
        return true;
      d.d = c.opd(0);
      d.s[2] = c.opd(2);
      d.sub2 = c.has("multicast::cluster");
      if (d.sub2)
        d.s[3] = c.opd(3);
      d.sub = TLoad;
      d.run = h_tma_load;
      return true;
    }
    d.s[2] = c.opd(1);
    if (!c.has("bulk_group"))
      return true;
    d.sub = reduce ? TReduce : TStore;
    if (reduce) {
      static const char *ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
      bool found = false;
      for (int i = 0; i < 8; ++i)
        if (c.has(ops[i]))
          d.sub2 = uint8_t(i), found = true;
      if (!found)
        return true;
    }
    d.run = h_tma_store;
    c.k->async_reads = true;
    return true;
  }
  if (reduce || c.has("prefetch"))
    return true;
  if (to_shared && c.has("global") && c.has("mbarrier::complete_tx::bytes") && !c.has("multicast::cluster")) {
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.s[2] = c.opd(3);
    d.run = h_bulk_load;
    return true;
  }
  if (c.has("global") && c.has("bulk_group")) {
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.run = h_bulk_store;
    c.k->async_reads = true;
  }
  return true;
}

} // namespace emu::exec
