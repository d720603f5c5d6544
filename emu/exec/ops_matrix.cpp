// emu/exec/ops_matrix.cpp - ldmatrix / stmatrix (m8n8, .b16, x1/x2/x4, .trans) //
// Warp-collective: threads 8j..8j+7 give the row addresses of matrix j; thread
// t holds, in register j, the elements (row t/4, cols 2(t%4) and 2(t%4)+1) of
// matrix j, low half first; .trans swaps rows and columns (PTX ISA,
// "Warp-level matrix load instruction: ldmatrix" and "stmatrix").
#include "emu/exec/ops.h"

#include <cstring>

namespace emu::exec {

namespace {

// The shared byte address of element (r, c) of matrix j, as lane rows give them.
uint8_t *element(Exec &x, const DInstr &in, uint32_t j, uint32_t r, uint32_t c) {
  uint32_t lane = 8 * j + r;
  uint64_t row = addr_of(x, in.s[0], int(lane));
  if (in.space == ptx::Space::Generic)
    return mem_ptr(x, ptx::Space::Generic, row + 2 * c, 2, int(lane), in.sub2);
  return smem_ptr(x, uint32_t(row + 2 * c), 2, int(lane), false);
}

void h_matrix(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  if (!rendezvous(x, w.lanes & ~w.exited, m))
    return;
  const bool store = in.sub2, trans = in.flags & kTrans;
  const Opd &regs = store ? in.s[1] : in.d;
  const uint32_t count = in.vec;
  FOR_LANES(m, t) {
    for (uint32_t j = 0; j < count; ++j) {
      const Opd &reg = regs.kind == Opd::V ? regs.elems[j] : regs;
      uint32_t v = store ? uint32_t(rd(x, reg, int(t))) : 0;
      for (uint32_t h = 0; h < 2; ++h) {
        uint32_t r = t / 4, c = 2 * (t % 4) + h;
        if (trans)
          std::swap(r, c);
        uint8_t *p = element(x, in, j, r, c);
        uint16_t e;
        if (store) {
          e = uint16_t(v >> (16 * h));
          std::memcpy(p, &e, 2);
          proxy_write(x, p, 2, int(t));
        } else {
          std::memcpy(&e, p, 2);
          v |= uint32_t(e) << (16 * h);
        }
      }
      if (!store)
        wr(x, reg, t, v);
    }
  }
}

} // namespace

bool decode_matrix(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  if (in.opcode != "ldmatrix" && in.opcode != "stmatrix")
    return false;
  d.collective = true;
  d.sub2 = in.opcode == "stmatrix";
  d.space = space_of(in);
  d.flags |= c.has("trans") ? kTrans : 0;
  d.vec = c.has("x4") ? 4 : c.has("x2") ? 2 : 1;
  if (!c.has("m8n8") || !c.has("b16"))
    return true; // m16n16 / b8 forms are sm_100
  if (d.sub2) {
    d.s[0] = c.opd(0);
    d.s[1] = c.opd(1);
    if (d.s[0].kind != Opd::A || (d.s[1].kind == Opd::V && d.s[1].elems.size() != d.vec))
      return true;
  } else {
    d.d = c.opd(0);
    d.s[0] = c.opd(1);
    if (d.s[0].kind != Opd::A || (d.d.kind == Opd::V && d.d.elems.size() != d.vec))
      return true;
  }
  d.run = h_matrix;
  return true;
}

} // namespace emu::exec
