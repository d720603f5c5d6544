// emu/exec/ops_mem.cpp - memory instructions and address-space arithmetic --//
// ld/ldu/st (every space, .v2/.v4/.v8, any .volatile/.relaxed/.acquire/
// .release/.nc/cache-hint decoration: ordering is trivially satisfied by a
// sequentially consistent emulator), atom/red, cvta(.to), isspacep, mapa,
// getctarank; and the checked translation of an address in a space to host
// memory (machine.h describes the windows). Every access is checked for
// bounds and natural alignment.
#include "emu/exec/device_impl.h"
#include "emu/exec/ops.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace emu::exec {

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

const char *space_name(ptx::Space s) {
  switch (s) {
  case ptx::Space::Global: return "global";
  case ptx::Space::Shared: return "shared";
  case ptx::Space::Local: return "local";
  case ptx::Space::Param: return "param";
  case ptx::Space::Const: return "const";
  case ptx::Space::Generic: return "generic";
  default: return "register";
  }
}

[[noreturn]] void oob(Exec &x, int lane, const char *space, uint64_t addr, uint32_t bytes, bool write,
                      const std::string &detail) {
  fail(x, lane, Hazard::OutOfBounds,
       std::string(write ? "write" : "read") + " of " + std::to_string(bytes) + " bytes at " +
           space + " address " + hex(addr) + " " + detail);
}

} // namespace

Cta *smem_owner(Exec &x, uint32_t addr, uint32_t &offset) {
  uint32_t tag = addr >> kClusterShift;
  Cta *c = tag == 0 ? x.cta : x.cluster->cta_of_rank(tag - 1);
  offset = (addr & ((1u << kClusterShift) - 1)) - kSmemBase;
  return c;
}

std::string exited_cta_text(const Cta &c) {
  return "CTA rank " + std::to_string(c.rank) + " of the cluster has exited; its shared memory is gone";
}

uint8_t *smem_ptr(Exec &x, uint32_t addr, uint32_t bytes, int lane, bool cta_only) {
  if (bytes > 1 && (addr & (bytes - 1)))
    oob(x, lane, "shared", addr, bytes, false, "is misaligned (natural alignment " + std::to_string(bytes) + ")");
  uint32_t off;
  Cta *c = smem_owner(x, addr, off);
  if (!c)
    oob(x, lane, "shared::cluster", addr, bytes, false,
        "names CTA rank " + std::to_string((addr >> kClusterShift) - 1) + ", outside the cluster of " +
            std::to_string(x.cluster->ctas.size()));
  if (c != x.cta && cta_exited(*c)) // allowed, the CTA's memory stays until its cluster ends
    detected(x, lane, Detector::ExitedCta, Hazard::OutOfBounds,
             "read of " + std::to_string(bytes) + " bytes at shared::cluster address " + hex(addr) + " (" +
                 exited_cta_text(*c) + ")");
  if (cta_only && c != x.cta)
    oob(x, lane, "shared::cta", addr, bytes, false, "names another CTA of the cluster (a shared::cluster address)");
  uint32_t low = addr & ((1u << kClusterShift) - 1);
  if (low < kSmemBase || uint64_t(off) + bytes > c->smem.size())
    oob(x, lane, "shared", addr, bytes, false,
        "outside the CTA's shared memory [" + hex(kSmemBase) + ", " + hex(kSmemBase + c->smem.size()) + ")");
  return c->smem.data() + off;
}

uint8_t *mem_ptr(Exec &x, ptx::Space space, uint64_t addr, uint32_t bytes, int lane, bool write) {
  if (space == ptx::Space::Generic) {
    switch (addr & kWindowMask) {
    case 0: space = ptx::Space::Global; break;
    case kLocalWindow: space = ptx::Space::Local; addr -= kLocalWindow; break;
    case kSharedWindow:
      addr -= kSharedWindow;
      if (addr >> 32)
        oob(x, lane, "generic", addr + kSharedWindow, bytes, write, "lies in the shared window but past 32 bits");
      return smem_ptr(x, uint32_t(addr), bytes, lane, false);
    case kParamWindow: space = ptx::Space::Param; break;
    default: oob(x, lane, "generic", addr, bytes, write, "is in no address space");
    }
  }
  if (bytes > 1 && (addr & (bytes - 1)))
    oob(x, lane, space_name(space), addr, bytes, write,
        "is misaligned (natural alignment " + std::to_string(bytes) + ")");
  switch (space) {
  case ptx::Space::Global:
  case ptx::Space::Const: {
    Warp &w = *x.warp;
    if (addr >= w.last_lo && addr + bytes <= w.last_hi)
      return reinterpret_cast<uint8_t *>(uintptr_t(addr));
    uint64_t lo, hi;
    if (!x.run->dev->find_range(addr, bytes, lo, hi))
      oob(x, lane, space_name(space), addr, bytes, write, "is outside every live allocation");
    w.last_lo = lo;
    w.last_hi = hi;
    return reinterpret_cast<uint8_t *>(uintptr_t(addr));
  }
  case ptx::Space::Shared:
    if (addr >> 32)
      oob(x, lane, "shared", addr, bytes, write, "is not a 32-bit shared address");
    return smem_ptr(x, uint32_t(addr), bytes, lane, false);
  case ptx::Space::Local: {
    uint32_t lb = x.run->k->local_bytes;
    if (addr + bytes > lb)
      oob(x, lane, "local", addr, bytes, write, "is outside the thread's " + std::to_string(lb) + "-byte frame");
    size_t t = size_t(x.warp->id) * 32 + size_t(lane);
    return x.cta->local.data() + t * lb + addr;
  }
  case ptx::Space::Param: {
    if ((addr & kWindowMask) == kLocalWindow) // a .func's parameters and call sequences (ops_call.cpp)
      return mem_ptr(x, ptx::Space::Local, addr - kLocalWindow, bytes, lane, write);
    uint64_t off = addr - kParamWindow;
    if ((addr & kWindowMask) != kParamWindow || off + bytes > x.run->params.size())
      oob(x, lane, "param", addr, bytes, write, "is outside the kernel's parameters");
    if (write)
      oob(x, lane, "param", addr, bytes, write, "writes a kernel parameter (read-only)");
    return x.run->params.data() + off;
  }
  default: break;
  }
  oob(x, lane, "unknown", addr, bytes, write, "");
}

namespace {

void h_ld(Exec &x, const DInstr &in, uint32_t m) {
  const unsigned eb = type_bits(in.ty) / 8;
  const unsigned n = in.vec;
  const bool sgn = is_signed(in.ty);
  FOR_LANES(m, l) {
    uint64_t a = addr_of(x, in.s[0], l);
    const uint8_t *p = mem_ptr(x, in.space, a, eb * n, int(l), false);
    if (n == 1) {
      uint64_t v = 0;
      std::memcpy(&v, p, eb);
      wr(x, in.d, l, extend(v, eb * 8, sgn));
    } else {
      for (unsigned i = 0; i < n; ++i) {
        uint64_t v = 0;
        std::memcpy(&v, p + i * eb, eb);
        wr(x, in.d.elems[i], l, extend(v, eb * 8, sgn));
      }
    }
  }
}

void h_st(Exec &x, const DInstr &in, uint32_t m) {
  const unsigned eb = type_bits(in.ty) / 8;
  const unsigned n = in.vec;
  FOR_LANES(m, l) {
    uint64_t a = addr_of(x, in.d, l);
    uint8_t *p = mem_ptr(x, in.space, a, eb * n, int(l), true);
    if (in.space == ptx::Space::Shared || in.space == ptx::Space::Generic)
      proxy_write(x, p, eb * n, int(l));
    if (n == 1) {
      uint64_t v = rd(x, in.s[0], l);
      std::memcpy(p, &v, eb);
    } else {
      for (unsigned i = 0; i < n; ++i) {
        uint64_t v = rd(x, in.s[0].elems[i], l);
        std::memcpy(p + i * eb, &v, eb);
      }
    }
  }
}

enum AOp : uint8_t { AAdd, AMin, AMax, AInc, ADec, ACas, AExch, AAnd, AOr, AXor };

uint64_t atom_apply(Ty t, uint8_t op, uint64_t old, uint64_t b, uint64_t c) {
  const unsigned bits = type_bits(t);
  const uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  old &= mask;
  switch (op) {
  case ACas: return (old == (b & mask)) ? (c & mask) : old;
  case AExch: return b & mask;
  case AAnd: return old & b & mask;
  case AOr: return (old | b) & mask;
  case AXor: return (old ^ b) & mask;
  case AInc: return old >= (b & mask) ? 0 : old + 1;
  case ADec: return (old == 0 || old > (b & mask)) ? (b & mask) : old - 1;
  default: break;
  }
  if (t == Ty::F32) {
    float o = f32_of(old), v = f32_of(b);
    float r = op == AAdd ? o + v : op == AMin ? std::fmin(o, v) : std::fmax(o, v);
    return bits_of(r);
  }
  if (t == Ty::F64) {
    double o = f64_of(old), v = f64_of(b);
    double r = op == AAdd ? o + v : op == AMin ? std::fmin(o, v) : std::fmax(o, v);
    return bits_of(r);
  }
  if (t == Ty::F16 || t == Ty::BF16 || t == Ty::F16x2 || t == Ty::BF16x2) {
    bool bf = t == Ty::BF16 || t == Ty::BF16x2;
    int halves = bits / 16;
    uint64_t r = 0;
    for (int h = 0; h < halves; ++h) {
      uint16_t ou = uint16_t(old >> (16 * h)), vu = uint16_t(b >> (16 * h));
      float o = bf ? bf16_to_float(ou) : half_to_float(ou), v = bf ? bf16_to_float(vu) : half_to_float(vu);
      float s = op == AAdd ? o + v : op == AMin ? std::fmin(o, v) : std::fmax(o, v);
      r |= uint64_t(bf ? float_to_bf16(s) : float_to_half(s)) << (16 * h);
    }
    return r;
  }
  if (is_signed(t)) {
    int64_t o = int64_t(extend(old, bits, true)), v = int64_t(extend(b, bits, true));
    int64_t r = op == AAdd ? o + v : op == AMin ? std::min(o, v) : std::max(o, v);
    return uint64_t(r) & mask;
  }
  uint64_t r = op == AAdd ? old + b : op == AMin ? std::min(old, b & mask) : std::max(old, b & mask);
  return r & mask;
}

void h_atom(Exec &x, const DInstr &in, uint32_t m) {
  const unsigned eb = type_bits(in.ty) / 8;
  const bool has_d = in.sub2 == 0;
  FOR_LANES(m, l) {
    uint64_t a = addr_of(x, in.s[0], l);
    uint8_t *p = mem_ptr(x, in.space, a, eb, int(l), true);
    if (in.space == ptx::Space::Shared || in.space == ptx::Space::Generic)
      proxy_write(x, p, eb, int(l));
    uint64_t old = 0;
    std::memcpy(&old, p, eb);
    uint64_t nv = atom_apply(in.ty, in.sub, old, rd(x, in.s[1], l), rd(x, in.s[2], l));
    std::memcpy(p, &nv, eb);
    if (has_d)
      wr(x, in.d, l, extend(old, eb * 8, is_signed(in.ty)));
  }
}

// cvta.space: space address to generic; cvta.to.space: generic to space.
void h_cvta(Exec &x, const DInstr &in, uint32_t m) {
  const bool to = in.sub2;
  uint64_t win = 0;
  switch (in.space) {
  case ptx::Space::Shared: win = kSharedWindow; break;
  case ptx::Space::Local: win = kLocalWindow; break;
  default: win = 0; break; // global, const and param addresses are generic already
  }
  FOR_LANES(m, l) {
    uint64_t a = rd(x, in.s[0], l);
    uint64_t r = to ? (win && (a & kWindowMask) == win ? a - win : win ? a - win : a) : a + win;
    if (type_bits(in.ty) == 32)
      r &= 0xffffffffu;
    wr(x, in.d, l, r);
  }
}

void h_isspacep(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    uint64_t a = rd(x, in.s[0], l), w = a & kWindowMask;
    bool r = false;
    switch (in.space) {
    case ptx::Space::Global:
    case ptx::Space::Const: r = w == 0; break;
    case ptx::Space::Local: r = w == kLocalWindow; break;
    case ptx::Space::Param: r = w == kParamWindow; break;
    case ptx::Space::Shared:
      r = w == kSharedWindow && (in.sub || ((a - kSharedWindow) >> kClusterShift) == 0 ||
                                 ((a - kSharedWindow) >> kClusterShift) == x.cta->rank + 1);
      break;
    default: break;
    }
    wr(x, in.d, l, r);
  }
}

// mapa(.shared::cluster).u32/u64 d, a, rank: the address of the same offset in CTA `rank`.
void h_mapa(Exec &x, const DInstr &in, uint32_t m) {
  const bool generic = in.space == ptx::Space::Generic;
  FOR_LANES(m, l) {
    uint64_t a = rd(x, in.s[0], l);
    uint32_t rank = uint32_t(rd(x, in.s[1], l));
    if (rank >= x.cluster->ctas.size())
      fail(x, int(l), Hazard::OutOfBounds,
           "mapa to CTA rank " + std::to_string(rank) + " of a cluster of " + std::to_string(x.cluster->ctas.size()));
    uint32_t sa = uint32_t(generic ? a - kSharedWindow : a);
    uint32_t r = ((rank + 1) << kClusterShift) | (sa & ((1u << kClusterShift) - 1));
    wr(x, in.d, l, generic ? kSharedWindow + r : r);
  }
}

void h_getctarank(Exec &x, const DInstr &in, uint32_t m) {
  const bool generic = in.space == ptx::Space::Generic;
  FOR_LANES(m, l) {
    uint64_t a = rd(x, in.s[0], l);
    uint32_t sa = uint32_t(generic ? a - kSharedWindow : a);
    uint32_t tag = sa >> kClusterShift;
    wr(x, in.d, l, tag ? tag - 1 : x.cta->rank);
  }
}

} // namespace

bool decode_mem(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  const std::string &op = in.opcode;
  if (op == "ld" || op == "ldu" || op == "st") {
    d.ty = first_type(in);
    d.space = space_of(in);
    for (const std::string &m : in.mods)
      if (m == "v2") d.vec = 2;
      else if (m == "v4") d.vec = 4;
      else if (m == "v8") d.vec = 8;
    if (d.ty == Ty::None || d.ty == Ty::B128 || c.nops() < 2)
      return true;
    if (op == "st") {
      d.d = c.opd(0);
      d.s[0] = c.opd(1, d.ty);
      if (d.d.kind != Opd::A || (d.vec > 1) != (d.s[0].kind == Opd::V))
        return true;
      d.run = h_st;
    } else {
      d.d = c.opd(0, d.ty);
      d.s[0] = c.opd(1);
      if (d.s[0].kind != Opd::A || (d.vec > 1) != (d.d.kind == Opd::V))
        return true;
      d.run = h_ld;
    }
    return true;
  }
  if (op == "atom" || op == "red") {
    d.ty = first_type(in);
    d.space = space_of(in);
    static const char *ops[] = {"add", "min", "max", "inc", "dec", "cas", "exch", "and", "or", "xor"};
    int found = -1;
    for (int i = 0; i < 10; ++i)
      if (c.has(ops[i]))
        found = i;
    if (found < 0 || d.ty == Ty::None || c.has("v2") || c.has("v4") || c.has("v8"))
      return true;
    d.sub = uint8_t(found);
    d.sub2 = op == "red";
    size_t base = op == "red" ? 0 : 1;
    if (!d.sub2)
      d.d = c.opd(0, d.ty);
    d.s[0] = c.opd(base);
    d.s[1] = c.opd(base + 1, d.ty);
    d.s[2] = c.opd(base + 2, d.ty);
    if (d.s[0].kind != Opd::A)
      return true;
    d.run = h_atom;
    return true;
  }
  if (op == "cvta") {
    d.sub2 = c.has("to");
    d.ty = first_type(in);
    d.space = space_of(in);
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.run = h_cvta;
    return true;
  }
  if (op == "isspacep") {
    bool cluster = false;
    d.space = space_of(in, &cluster);
    d.sub = cluster;
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.run = h_isspacep;
    return true;
  }
  if (op == "mapa" || op == "getctarank") {
    d.space = space_of(in);
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.run = op == "mapa" ? h_mapa : h_getctarank;
    return true;
  }
  return false;
}

} // namespace emu::exec
