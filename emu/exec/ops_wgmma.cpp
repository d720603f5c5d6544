// emu/exec/ops_wgmma.cpp - wgmma.fence / mma_async / commit_group / wait_group //
// The product is emu/sm90/wgmma.h's; this file gathers the warpgroup and
// owns the asynchrony. mma_async is warpgroup-collective: each of the four
// warps arrives at its n-th mma_async (after its own lanes rendezvous); the
// fourth arrival issues the operation as an async event. Each warp commits
// the operations it joined into its own group, and wait_group N blocks the
// warp until at most N of its groups have landed operations outstanding.
// Accumulators: when an operation issues, D is taken from the registers,
// or from the result of the previous in-flight operation on the same
// registers (chained mma_async need no wait in between); under
// Options::adversarial the registers then read NaN until it lands, so a read
// before wgmma.wait_group shows. Shared memory is read when it lands.
#include "emu/exec/ops.h"

#include "emu/sm90/wgmma.h"

#include <cstdio>
#include <cstring>
#include <map>

namespace emu::exec {

struct WgRecord {
  sm90::WgmmaOp op;
  std::vector<uint32_t> slots;   ///< D register slots (R per thread)
  uint32_t arrived = 0;          ///< warps (bit i: warp 4g + i)
  std::vector<uint32_t> a_regs;  ///< [128][4] when A is in registers
  std::vector<uint32_t> d;       ///< [128][R]
  std::shared_ptr<WgRecord> prev;///< the in-flight operation whose D this one continues
  bool landed = false;
  Where where;
  std::vector<uint8_t> sources;  ///< the shared operand bytes at issue, in read order
};

namespace {

struct WgState { // per CTA and warpgroup: the records being gathered, by sequence number
  std::map<uint64_t, std::shared_ptr<WgRecord>> gathering;
  std::vector<std::shared_ptr<WgRecord>> in_flight;
};

WgState &state_of(Cta &c, uint32_t wg) {
  if (c.wgmma.size() <= wg)
    c.wgmma.resize(wg + 1);
  if (!c.wgmma[wg])
    c.wgmma[wg] = std::make_shared<WgState>();
  return *std::static_pointer_cast<WgState>(c.wgmma[wg]);
}

sm90::WgmmaType type_of(Ty t) {
  switch (t) {
  case Ty::F16: return sm90::WgmmaType::F16;
  case Ty::BF16: return sm90::WgmmaType::BF16;
  case Ty::TF32: return sm90::WgmmaType::TF32;
  case Ty::E4M3: return sm90::WgmmaType::E4M3;
  case Ty::E5M2: return sm90::WgmmaType::E5M2;
  default: return sm90::WgmmaType::F32;
  }
}

// The shared operand bytes of `rec`, read at issue in the order wgmma_execute
// reads them (k, then B's columns, then A's rows): each byte's generic writer
// must have fenced (async_proxy.cpp), and the copy lets the landing tell
// whether the memory changed in between.
void snapshot_sources(Exec &x, WgRecord &rec) {
  const sm90::WgmmaOp &op = rec.op;
  const uint32_t K = sm90::wgmma_k(op.a), ea = 32 / K, eb = 32 / sm90::wgmma_k(op.b);
  const sm90::SmemDescriptor da = sm90::decode_smem_descriptor(op.desc_a);
  const sm90::SmemDescriptor db = sm90::decode_smem_descriptor(op.desc_b);
  Cta &c = *x.cta;
  rec.sources.reserve(size_t(K) * (op.n * eb + (op.a_in_regs ? 0 : 64 * ea)));
  auto take = [&](uint32_t addr, uint32_t e) {
    if (addr < kSmemBase || uint64_t(addr - kSmemBase) + e > c.smem.size())
      return false; // the landing reports it
    proxy_check_read(x, c, addr - kSmemBase, e, 0, "wgmma.mma_async");
    const uint8_t *p = c.smem.data() + (addr - kSmemBase);
    rec.sources.insert(rec.sources.end(), p, p + e);
    return true;
  };
  for (uint32_t k = 0; k < K; ++k) {
    for (uint32_t n = 0; n < op.n; ++n)
      if (!take(sm90::wgmma_element_address(db, op.tnsp_b, eb, n, k), eb))
        return;
    if (!op.a_in_regs)
      for (uint32_t m = 0; m < 64; ++m)
        if (!take(sm90::wgmma_element_address(da, op.tnsp_a, ea, m, k), ea))
          return;
  }
}

void issue(Exec &x, WgState &st, uint32_t wg, std::shared_ptr<WgRecord> rec) {
  Cta *cta = x.cta;
  snapshot_sources(x, *rec);
  const uint32_t R = uint32_t(rec->slots.size());
  // Continue an in-flight chain on the same registers, else read D now.
  for (auto it = st.in_flight.rbegin(); it != st.in_flight.rend(); ++it)
    if (!(*it)->landed && (*it)->slots == rec->slots) {
      rec->prev = *it;
      break;
    }
  if (!rec->prev) {
    rec->d.assign(size_t(128) * R, 0);
    for (uint32_t w = 0; w < 4; ++w) {
      Warp &wp = *cta->warps[4 * wg + w];
      for (uint32_t r = 0; r < R; ++r)
        for (uint32_t l = 0; l < 32; ++l)
          rec->d[(w * 32 + l) * R + r] = uint32_t(wp.reg(rec->slots[r])[l]);
    }
  }
  if (x.run->opt->adversarial)
    for (uint32_t w = 0; w < 4; ++w) {
      Warp &wp = *cta->warps[4 * wg + w];
      for (uint32_t r = 0; r < R; ++r)
        for (uint32_t l = 0; l < 32; ++l)
          wp.reg(rec->slots[r])[l] = 0x7fffffffu; // NaN for f32 and for both f16 halves
    }
  st.in_flight.push_back(rec);
  AsyncEvent e;
  e.what = "wgmma.mma_async";
  e.stream = (uint64_t(uintptr_t(cta)) << 3) ^ (wg + 1); // a warpgroup's operations land in order
  e.land = [rec, cta, wg, R]() {
    if (rec->prev) {
      rec->d = rec->prev->d;
      rec->prev.reset();
    }
    size_t pos = 0;
    int64_t changed = -1;
    sm90::SmemRead read = [cta, &rec, &pos, &changed](uint32_t addr, void *dst, uint32_t n) {
      if (addr < kSmemBase || uint64_t(addr - kSmemBase) + n > cta->smem.size())
        return false;
      std::memcpy(dst, cta->smem.data() + (addr - kSmemBase), n);
      if (changed < 0 && pos + n <= rec->sources.size() && std::memcmp(dst, &rec->sources[pos], n) != 0)
        changed = addr;
      pos += n;
      return true;
    };
    std::string err = sm90::wgmma_execute(rec->op, read, rec->a_regs.data(), rec->d.data());
    if (!err.empty())
      report(Hazard::BadProgram, rec->where, "wgmma.mma_async: " + err);
    if (changed >= 0) {
      char b[96];
      std::snprintf(b, sizeof b, "the shared operand byte at 0x%llx", (unsigned long long)changed);
      report(Hazard::AsyncHazard, rec->where,
             std::string(b) + " of this wgmma.mma_async changed between its issue and its completion: "
             "the memory was written before a wgmma.wait_group covering the operation");
    }
    rec->sources.clear();
    rec->sources.shrink_to_fit();
    rec->landed = true;
    // The registers get the result unless a later operation continues the chain
    // (it lands after this one and writes them itself).
    for (uint32_t w = 0; w < 4; ++w) {
      Warp &wp = *cta->warps[4 * wg + w];
      for (uint32_t r = 0; r < R; ++r)
        for (uint32_t l = 0; l < 32; ++l)
          wp.reg(rec->slots[r])[l] = rec->d[(w * 32 + l) * R + r];
    }
  };
  push_event(x, std::move(e));
}

void h_mma(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  if (!rendezvous(x, w.lanes & ~w.exited, m))
    return;
  if (m != w.lanes)
    fail(x, __builtin_ctz(m), Hazard::BadProgram, "wgmma.mma_async executed by part of a warp");
  uint32_t wg = w.id / 4;
  if (x.cta->warps.size() < 4 * wg + 4)
    fail(x, 0, Hazard::BadProgram, "wgmma.mma_async in a warpgroup with fewer than 4 warps");
  wgmma_regs_issue(x, in);
  WgState &st = state_of(*x.cta, wg);
  auto &slot = st.gathering[w.wgmma_seq++];
  if (!slot) {
    slot = std::make_shared<WgRecord>();
    WgRecord &r = *slot;
    r.op.n = uint32_t(in.ints[0]);
    r.op.a = type_of(in.ty2);
    r.op.b = type_of(Ty(in.ints[1]));
    r.op.d = type_of(in.ty);
    r.op.a_in_regs = in.s[0].kind == Opd::V;
    for (const Opd &e : in.d.elems)
      r.slots.push_back(e.slot);
    if (r.op.a_in_regs)
      r.a_regs.assign(128 * 4, 0);
    r.where = where_of(x, 0);
  }
  WgRecord &r = *slot;
  uint32_t bit = 1u << (w.id % 4);
  if (r.arrived & bit)
    fail(x, 0, Hazard::Internal, "a warp joined one wgmma twice");
  r.arrived |= bit;
  // Operands (uniform across the warpgroup; the first warp's count).
  int l0 = __builtin_ctz(m);
  if (!r.op.a_in_regs)
    r.op.desc_a = rd(x, in.s[0], l0);
  r.op.desc_b = rd(x, in.s[1], l0);
  r.op.scale_d = in.s[2].kind == Opd::R ? rdp(x, in.s[2], l0) : in.s[2].imm != 0;
  r.op.scale_a = int(in.s[3].imm);
  r.op.scale_b = int(in.s[4].imm);
  r.op.tnsp_a = in.ints.size() > 2 ? in.ints[2] : 0;
  r.op.tnsp_b = in.ints.size() > 3 ? in.ints[3] : 0;
  if (r.op.a_in_regs)
    for (uint32_t l = 0; l < 32; ++l)
      for (uint32_t i = 0; i < 4; ++i)
        r.a_regs[((w.id % 4) * 32 + l) * 4 + i] = uint32_t(rd(x, in.s[0].elems[i], int(l)));
  w.wg_open.push_back(slot);
  if (r.arrived == 0xf) {
    std::shared_ptr<WgRecord> rec = slot;
    st.gathering.erase(w.wgmma_seq - 1);
    issue(x, st, wg, rec);
  }
}

void h_commit(Exec &x, const DInstr &, uint32_t m) {
  Warp &w = *x.warp;
  if (!rendezvous(x, w.lanes & ~w.exited, m))
    return;
  w.wg_groups.push_back(std::move(w.wg_open));
  w.wg_open.clear();
  wgmma_regs_commit(w);
}

void h_wait(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  if (!rendezvous(x, w.lanes & ~w.exited, m))
    return;
  uint32_t n = uint32_t(in.s[0].imm);
  wgmma_regs_wait(w, n);
  if (wgmma_groups_pending(w) > n) {
    block(x, m, WaitKind::Wgmma, n, 0);
    x.end_quantum = true;
  }
}

void h_fence(Exec &x, const DInstr &, uint32_t m) {
  Warp &w = *x.warp;
  if (rendezvous(x, w.lanes & ~w.exited, m))
    wgmma_regs_fence(w);
}

} // namespace

uint32_t wgmma_groups_pending(Warp &w) {
  while (!w.wg_groups.empty()) {
    bool done = true;
    for (auto &r : w.wg_groups.front())
      done = done && r->landed;
    if (!done)
      break;
    w.wg_groups.pop_front();
  }
  return uint32_t(w.wg_groups.size());
}

bool decode_wgmma(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  if (in.opcode != "wgmma")
    return false;
  d.collective = true;
  if (c.has("fence")) {
    d.run = h_fence;
    return true;
  }
  if (c.has("commit_group")) {
    d.run = h_commit;
    return true;
  }
  if (c.has("wait_group")) {
    d.s[0] = c.opd(0);
    if (d.s[0].kind == Opd::I)
      d.run = h_wait;
    return true;
  }
  if (!c.has("mma_async") || c.has("sp"))
    return true;
  uint32_t n = 0;
  for (const std::string &m : in.mods)
    if (m.size() > 4 && m[0] == 'm' && m.compare(0, 3, "m64") == 0) {
      size_t np = m.find('n'), kp = m.find('k');
      if (np != std::string::npos && kp != std::string::npos)
        n = uint32_t(std::stoul(m.substr(np + 1, kp - np - 1)));
    }
  // .dtype.atype.btype: the three type modifiers in order.
  std::vector<Ty> types;
  for (const std::string &m : in.mods)
    if (type_from_name(m) != Ty::None)
      types.push_back(type_from_name(m));
  if (!n || types.size() != 3 || (types[0] != Ty::F32 && types[0] != Ty::F16))
    return true;
  d.ty = types[0];
  d.ty2 = types[1];
  d.ints = {int32_t(n), int32_t(types[2])};
  d.d = c.opd(0);
  d.s[0] = c.opd(1);
  d.s[1] = c.opd(2);
  d.s[2] = c.opd(3);
  d.s[3] = c.opd(4);
  d.s[4] = c.opd(5);
  size_t nops = c.nops();
  bool a_regs = d.s[0].kind == Opd::V;
  if (d.d.kind != Opd::V || d.s[3].kind != Opd::I || d.s[4].kind != Opd::I)
    return true;
  // Transpose immediates: f16/bf16 only, after the scales (one for A in registers).
  if (!a_regs && nops == 8) {
    Opd ta = c.opd(6), tb = c.opd(7);
    if (ta.kind != Opd::I || tb.kind != Opd::I)
      return true;
    d.ints.push_back(int32_t(ta.imm));
    d.ints.push_back(int32_t(tb.imm));
  } else if (a_regs && nops == 7) {
    Opd tb = c.opd(6);
    if (tb.kind != Opd::I)
      return true;
    d.ints.push_back(0);
    d.ints.push_back(int32_t(tb.imm));
  } else if (nops != 6) {
    return true;
  }
  uint32_t want = d.ty == Ty::F32 ? n / 2 : n / 4;
  if (d.d.elems.size() != want || (a_regs && d.s[0].elems.size() != 4))
    return true;
  d.run = h_mma;
  c.k->async_reads = true;
  c.k->has_wgmma = true;
  return true;
}

} // namespace emu::exec
