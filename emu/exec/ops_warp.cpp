// emu/exec/ops_warp.cpp - warp-collective instructions ----------------------//
// shfl.sync, vote.sync, match.sync, redux.sync, activemask, elect.sync and
// bar.warp.sync. Each waits until every (live) lane that some executing lane's
// member mask names has arrived at the same instruction (rendezvous), then
// runs for them together. elect.sync picks a seeded leader per (run, mask):
// the same every time within a run, different across seeds (the ISA leaves
// the choice unspecified).
//
// Member masks are per lane. The ISA (9.7.9.6 shfl.sync; vote.sync, match.sync,
// redux.sync, elect.sync, bar.warp.sync say the same) makes each thread "wait
// until all non-exited threads corresponding to membermask have executed
// shfl.sync with the same qualifiers and same membermask value", and "the
// behavior ... is undefined if the executing thread is not in the membermask";
// for shfl.sync, "results are undefined if a thread sources a register from an
// inactive thread or a thread that is not in membermask". So BarrierMisuse
// when a lane is not in its own mask, when a lane its mask names executes the
// instruction with another mask or with its guard false, and when a shuffle's
// computed source lane j (with pval true: the ISA defines an out-of-range j as
// the own value) is outside the mask or has exited. Exited lanes named in a
// mask are not waited for, as the ISA says.
#include "emu/exec/ops.h"

#include <cstdio>

namespace emu::exec {

bool rendezvous(Exec &x, uint32_t need, uint32_t active) {
  Warp &w = *x.warp;
  need &= w.lanes & ~w.exited;
  if (need & ~x.group) {
    w.warpsync |= active;
    x.advance &= ~active;
    return false;
  }
  w.warpsync &= ~x.group;
  return true;
}

namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

void mask_misuse(Exec &x, int lane, const std::string &what) {
  detected(x, lane, Detector::ShflMask, Hazard::BarrierMisuse, what);
}

// "shfl", "vote", ..., "bar.warp" (for reports).
std::string op_name(Exec &x) {
  const std::string opc = x.cur && x.cur->src ? x.cur->src->opcode : "";
  return opc == "bar" ? "bar.warp" : opc;
}

// Reads each active lane's member mask into mm, waits for the lanes they name,
// then checks them (see the top of the file). False: the lanes wait.
bool gather(Exec &x, const Opd &o, uint32_t active, uint32_t mm[32]) {
  uint32_t need = 0;
  FOR_LANES(active, l) {
    mm[l] = o.kind == Opd::None ? 0xffffffffu : uint32_t(rd(x, o, int(l)));
    need |= mm[l];
  }
  if (!rendezvous(x, need, active))
    return false;
  const Warp &w = *x.warp;
  const uint32_t live = w.lanes & ~w.exited;
  // The common case: one mask, naming exactly the lanes that execute.
  const uint32_t first = mm[__builtin_ctz(active)];
  bool uniform = true;
  FOR_LANES(active, l) uniform = uniform && mm[l] == first;
  if (uniform && (first & live) == active)
    return true;
  FOR_LANES(active, l) {
    const uint32_t m = mm[l];
    if (!(m >> l & 1))
      mask_misuse(x, int(l), "lane " + std::to_string(l) + " executes " + op_name(x) + ".sync with member mask " + hex(m) +
                                 ", which does not include the lane itself (undefined in the PTX ISA)");
    if (uint32_t off = m & live & ~active) {
      uint32_t k = uint32_t(__builtin_ctz(off));
      mask_misuse(x, int(l), "lane " + std::to_string(l) + "'s member mask " + hex(m) + " names lane " +
                                 std::to_string(k) + ", which reaches this " + op_name(x) +
                                 ".sync with its guard predicate false and so never executes it");
    }
    FOR_LANES(m & active, k) {
      if (mm[k] != m)
        mask_misuse(x, int(l), "lanes " + std::to_string(l) + " and " + std::to_string(k) + " meet at this " + op_name(x) +
                                   ".sync with different member masks (" + hex(m) + " and " + hex(mm[k]) +
                                   "); every thread in a member mask must use the same mask");
    }
  }
  return true;
}

void h_shfl(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t mm[32];
  if (!gather(x, in.s[3], m, mm))
    return;
  uint64_t val[32];
  FOR_LANES(m, l) val[l] = rd(x, in.s[0], l);
  const Opd &d = in.d.kind == Opd::V ? in.d.elems[0] : in.d;
  const Opd *p = in.d.kind == Opd::V ? &in.d.elems[1] : nullptr;
  FOR_LANES(m, l) {
    int lane = int(l);
    int b = int(rd(x, in.s[1], l) & 31);
    uint32_t c = uint32_t(rd(x, in.s[2], l));
    int cval = int(c & 31), seg = int((c >> 8) & 31);
    int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg;
    int j = lane;
    bool pv = false;
    switch (in.sub) {
    case 0: j = lane - b; pv = j >= maxl; break;               // up
    case 1: j = lane + b; pv = j <= maxl; break;               // down
    case 2: j = lane ^ b; pv = j <= maxl; break;               // bfly
    default: j = minl | (b & ~seg); pv = j <= maxl; break;     // idx
    }
    if (!pv)
      j = lane;
    if (!(m >> j & 1 && mm[l] >> j & 1)) {
      bool named = mm[l] >> j & 1;
      mask_misuse(x, lane, "lane " + std::to_string(lane) + " shuffles from lane " + std::to_string(j) + ", which " +
                               (named ? std::string("has exited or does not exist")
                                      : "is not in its member mask " + hex(mm[l])) +
                               " (the PTX ISA leaves the value undefined)");
    }
    uint64_t v = m >> j & 1 ? val[j] : val[lane]; // (an allowed misuse: the own value)
    wr(x, d, l, uint32_t(v));
    if (p)
      wr(x, *p, l, pv);
  }
}

// Runs `body(members)` once per set of lanes sharing a member mask (gather has
// checked that each mask's live lanes all execute with that same mask).
template <class F> void per_mask(uint32_t active, const uint32_t mm[32], F body) {
  for (uint32_t todo = active; todo;) {
    uint32_t members = mm[__builtin_ctz(todo)] & active;
    body(members);
    todo &= ~members;
  }
}

void h_vote(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t mm[32];
  if (!gather(x, in.s[1], m, mm))
    return;
  per_mask(m, mm, [&](uint32_t members) {
    uint32_t ballot = 0;
    FOR_LANES(members, l) if (rdp(x, in.s[0], l)) ballot |= 1u << l;
    uint64_t r = 0;
    switch (in.sub) {
    case 0: r = ballot == members; break;                         // all
    case 1: r = ballot != 0; break;                               // any
    case 2: r = ballot == 0 || ballot == members; break;          // uni
    default: r = ballot; break;                                   // ballot
    }
    FOR_LANES(members, l) wr(x, in.d, l, r);
  });
}

void h_match(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t mm[32];
  if (!gather(x, in.s[1], m, mm))
    return;
  uint64_t val[32];
  FOR_LANES(m, l) val[l] = rd(x, in.s[0], l) & (in.ty == Ty::B64 ? ~0ull : 0xffffffffull);
  const Opd &d = in.d.kind == Opd::V ? in.d.elems[0] : in.d;
  per_mask(m, mm, [&](uint32_t members) {
    bool all_equal = true;
    FOR_LANES(members, l) if (val[l] != val[__builtin_ctz(members)]) all_equal = false;
    FOR_LANES(members, l) {
      if (in.sub == 0) { // any
        uint32_t same = 0;
        FOR_LANES(members, k) if (val[k] == val[l]) same |= 1u << k;
        wr(x, d, l, same);
      } else {
        wr(x, d, l, all_equal ? members : 0);
        if (in.d.kind == Opd::V)
          wr(x, in.d.elems[1], l, all_equal);
      }
    }
  });
}

void h_redux(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t mm[32];
  if (!gather(x, in.s[1], m, mm))
    return;
  const bool sgn = in.ty == Ty::S32;
  per_mask(m, mm, [&](uint32_t members) {
    int64_t acc = 0;
    bool first = true;
    FOR_LANES(members, l) {
      int64_t v = sgn ? int64_t(int32_t(rd(x, in.s[0], l))) : int64_t(uint32_t(rd(x, in.s[0], l)));
      if (first) { acc = v; first = false; continue; }
      switch (in.sub) {
      case 0: acc += v; break;
      case 1: acc = std::min(acc, v); break;
      case 2: acc = std::max(acc, v); break;
      case 3: acc &= v; break;
      case 4: acc |= v; break;
      default: acc ^= v; break;
      }
    }
    FOR_LANES(members, l) wr(x, in.d, l, uint32_t(acc));
  });
}

void h_activemask(Exec &x, const DInstr &in, uint32_t m) { FOR_LANES(m, l) wr(x, in.d, l, m); }

void h_elect(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t mm[32];
  if (!gather(x, in.s[0], m, mm))
    return;
  const Opd *d = in.d.kind == Opd::V ? &in.d.elems[0] : &in.d;
  const Opd *p = in.d.kind == Opd::V ? &in.d.elems[1] : nullptr;
  per_mask(m, mm, [&](uint32_t members) {
    uint32_t mask = mm[__builtin_ctz(members)];
    uint64_t h = (x.run->opt->seed + 0x9E3779B97F4A7C15ull) ^ (uint64_t(mask) * 0xBF58476D1CE4E5B9ull);
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    uint32_t k = x.run->opt->adversarial ? uint32_t(h % uint32_t(__builtin_popcount(members))) : 0;
    uint32_t leader = members;
    for (uint32_t i = 0; i < k; ++i)
      leader &= leader - 1;
    uint32_t lead = uint32_t(__builtin_ctz(leader));
    FOR_LANES(members, l) {
      wr(x, *d, l, lead);
      if (p)
        wr(x, *p, l, l == lead);
    }
  });
}

void h_warp_sync(Exec &x, const DInstr &in, uint32_t m) {
  uint32_t masks[32];
  gather(x, in.s[0], m, masks);
}

} // namespace

bool decode_warp(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  const std::string &op = in.opcode;
  d.ty = first_type(in);
  if (op == "shfl") {
    if (!c.has("sync"))
      return true; // the pre-Volta form has no mask
    static const char *modes[] = {"up", "down", "bfly", "idx"};
    for (int i = 0; i < 4; ++i)
      if (c.has(modes[i]))
        d.sub = uint8_t(i), d.run = h_shfl;
    d.d = c.opd(0);
    for (int i = 0; i < 4; ++i)
      d.s[i] = c.opd(size_t(i) + 1);
    d.collective = true;
    return true;
  }
  if (op == "vote") {
    if (!c.has("sync"))
      return true;
    static const char *modes[] = {"all", "any", "uni", "ballot"};
    for (int i = 0; i < 4; ++i)
      if (c.has(modes[i]))
        d.sub = uint8_t(i), d.run = h_vote;
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.collective = true;
    return true;
  }
  if (op == "match") {
    d.sub = c.has("all") ? 1 : 0;
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.run = c.has("sync") ? h_match : nullptr;
    d.collective = true;
    return true;
  }
  if (op == "redux") {
    static const char *ops[] = {"add", "min", "max", "and", "or", "xor"};
    for (int i = 0; i < 6; ++i)
      if (c.has(ops[i]))
        d.sub = uint8_t(i), d.run = h_redux;
    if (d.ty == Ty::F32)
      d.run = nullptr; // redux.sync .f32 is sm_100a
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.s[1] = c.opd(2);
    d.collective = true;
    return true;
  }
  if (op == "activemask") {
    d.d = c.opd(0);
    d.run = h_activemask;
    return true;
  }
  if (op == "elect") {
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    d.run = h_elect;
    d.collective = true;
    return true;
  }
  if (op == "bar" && c.has("warp")) {
    d.s[0] = c.opd(0);
    d.run = h_warp_sync;
    d.collective = true;
    return true;
  }
  return false;
}

} // namespace emu::exec
