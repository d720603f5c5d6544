// emu/exec/ops_control.cpp - mov, branches, exit, and the no-effect hints --//
#include "emu/exec/ops.h"

namespace emu::exec {

namespace {

void h_mov(Exec &x, const DInstr &in, uint32_t m) {
  const Opd &a = in.s[0];
  uint64_t mask = in.ty == Ty::Pred ? 1 : (type_bits(in.ty) >= 64 ? ~0ull : ((1ull << type_bits(in.ty)) - 1));
  if (in.ty == Ty::Pred) {
    FOR_LANES(m, l) wr(x, in.d, l, rdp(x, a, l) ? 1 : 0);
    return;
  }
  if (a.kind == Opd::R) {
    const uint64_t *src = x.regs + size_t(a.slot) * 32;
    uint64_t *dst = x.regs + size_t(in.d.slot) * 32;
    FOR_LANES(m, l) dst[l] = src[l] & mask;
    return;
  }
  FOR_LANES(m, l) wr(x, in.d, l, rd(x, a, l) & mask);
}

// mov.b64 %rd, {%r1, %r2}: the first element in the low bits.
void h_pack(Exec &x, const DInstr &in, uint32_t m) {
  const auto &e = in.s[0].elems;
  unsigned w = type_bits(in.ty) / unsigned(e.size());
  uint64_t em = w >= 64 ? ~0ull : ((1ull << w) - 1);
  FOR_LANES(m, l) {
    uint64_t v = 0;
    for (size_t i = 0; i < e.size(); ++i)
      v |= (rd(x, e[i], l) & em) << (w * i);
    wr(x, in.d, l, v);
  }
}

// mov.b32 {%h1, %h2}, %r: the low bits to the first element.
void h_unpack(Exec &x, const DInstr &in, uint32_t m) {
  const auto &e = in.d.elems;
  unsigned w = type_bits(in.ty) / unsigned(e.size());
  uint64_t em = w >= 64 ? ~0ull : ((1ull << w) - 1);
  FOR_LANES(m, l) {
    uint64_t v = rd(x, in.s[0], l);
    for (size_t i = 0; i < e.size(); ++i)
      wr(x, e[i], l, (v >> (w * i)) & em);
  }
}

void h_bra(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) x.warp->pc[l] = uint32_t(in.target);
  x.advance &= ~m;
}

void h_exit(Exec &x, const DInstr &in, uint32_t m) { thread_exit(x, m); }

void h_nop(Exec &, const DInstr &, uint32_t) {}

void h_yield(Exec &x, const DInstr &, uint32_t m) {
  x.warp->yielded |= m;
  x.end_quantum = true;
}

void h_trap(Exec &x, const DInstr &, uint32_t m) {
  fail(x, __builtin_ctz(m), Hazard::BadProgram, "the kernel executed trap (an assertion failed?)");
}

} // namespace

Handler exit_handler() { return h_exit; }

bool decode_control(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  const std::string &op = in.opcode;
  if (op == "mov") {
    d.ty = first_type(in);
    if (c.nops() != 2)
      return true;
    d.d = c.opd(0, d.ty);
    d.s[0] = c.opd(1, d.ty);
    if (d.d.kind == Opd::V)
      d.run = h_unpack;
    else if (d.s[0].kind == Opd::V)
      d.run = h_pack;
    else if (d.s[0].kind != Opd::None && d.d.kind == Opd::R)
      d.run = h_mov;
    else if (in.operands[1].kind == ptx::Operand::Kind::Special)
      unsupported(c, d, "unknown special register " + in.operands[1].name);
    else if (in.operands[1].kind == ptx::Operand::Kind::Symbol)
      unsupported(c, d, "unknown symbol " + in.operands[1].name);
    return true;
  }
  if (op == "bra" || op == "brx") {
    if (op == "brx" || c.nops() != 1 || in.operands[0].target < 0)
      return true;
    d.target = in.operands[0].target + int32_t(c.pc_base);
    d.flags |= c.has("uni") ? kUni : 0;
    d.run = h_bra;
    return true;
  }
  if (op == "exit") {
    d.run = h_exit;
    return true;
  }
  if (op == "ret") {
    d.run = c.fn->is_entry ? h_exit : ret_handler();
    return true;
  }
  if (op == "call")
    return decode_call(c, d);
  if (op == "nanosleep") {
    d.run = h_yield; // a thread that sleeps gives way to others
    return true;
  }
  if (op == "trap") {
    d.run = h_trap;
    return true;
  }
  // Hints and ordering-only instructions: correct as no-ops in a sequentially
  // consistent, cache-less emulator (prefetch, griddepcontrol with one launch at a time).
  if (op == "prefetch" || op == "prefetchu" || op == "pmevent" || op == "griddepcontrol" ||
      op == "discard" || op == "applypriority" || op == "createpolicy") {
    if (op == "createpolicy") {
      d.d = c.opd(0);
      unsupported(c, d, "createpolicy is not emulated");
      return true;
    }
    d.run = h_nop;
    return true;
  }
  return false;
}

} // namespace emu::exec
