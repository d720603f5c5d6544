// emu/exec/ops_call.cpp - call and ret of .func functions, and vprintf ------//
// Calls are flattened: decode.cpp places every .func a kernel can reach after
// it in one code array, with its own register slots and a frame in each
// thread's local memory (FuncLayout). `call` copies the arguments (the .param
// variables of the call sequence) into the callee's formal parameters and
// jumps; `ret` copies the formal returns into the call sequence's return
// variables and continues after the call. Each call first saves the callee's
// registers and frame, and the return restores them, so recursion works:
// each activation sees its own values. Calls nest up to kMaxCallDepth per
// thread (more is reported as a bad program: unbounded recursion, most
// likely). A call to vprintf (the .extern declaration nvcc's printf calls)
// prints at once, per thread in execution order (vprintf.cpp).
#include "emu/exec/ops.h"

#include <cstdio>
#include <cstring>

namespace emu::exec {

namespace {

constexpr size_t kMaxCallDepth = 64;

uint8_t *frame_of(Exec &x, uint32_t lane) {
  size_t t = size_t(x.warp->id) * 32 + lane;
  return x.cta->local.data() + t * x.run->k->local_bytes;
}

// The local offset of a call-sequence variable (its symbol value).
uint32_t local_offset(const Opd &o) { return uint32_t(uint64_t(o.imm) - kLocalWindow); }

void h_call(Exec &x, const DInstr &in, uint32_t m) {
  Warp &w = *x.warp;
  const Decoded &k = *x.run->k;
  const FuncLayout &F = k.funcs[size_t(in.ints[0])];
  const uint32_t nregs = uint32_t(F.fn->regs.size());
  const auto &args = in.s[0].elems;
  if (args.size() != F.params.size() || in.d.elems.size() > F.returns.size())
    fail(x, __builtin_ctz(m), Hazard::BadProgram,
         "call of " + F.fn->name + " with " + std::to_string(args.size()) + " arguments and " +
             std::to_string(in.d.elems.size()) + " return values; it has " + std::to_string(F.params.size()) +
             " parameters and " + std::to_string(F.returns.size()) + " returns");
  FOR_LANES(m, l) {
    auto &stack = w.calls[l];
    if (stack.size() >= kMaxCallDepth)
      fail(x, int(l), Hazard::BadProgram,
           "call of " + F.fn->name + " nested " + std::to_string(kMaxCallDepth) +
               " calls deep in this thread: unbounded recursion?");
    CallFrame cf;
    cf.ret_pc = w.pc[l] + 1;
    cf.func = uint32_t(in.ints[0]);
    cf.call_pc = in.index;
    cf.regs.resize(nregs);
    for (uint32_t r = 0; r < nregs; ++r)
      cf.regs[r] = w.reg(F.slot + r)[l];
    uint8_t *frame = frame_of(x, l);
    cf.frame.assign(frame + F.frame_lo, frame + F.frame_hi);
    for (size_t i = 0; i < args.size(); ++i)
      std::memmove(frame + F.params[i].first, frame + local_offset(args[i]), F.params[i].second);
    stack.push_back(std::move(cf));
    w.pc[l] = F.pc;
  }
  x.advance &= ~m;
}

void h_ret(Exec &x, const DInstr &, uint32_t m) {
  Warp &w = *x.warp;
  const Decoded &k = *x.run->k;
  FOR_LANES(m, l) {
    auto &stack = w.calls[l];
    if (stack.empty())
      fail(x, int(l), Hazard::Internal, "ret in a .func with no call on the thread's stack");
    CallFrame cf = std::move(stack.back());
    stack.pop_back();
    const FuncLayout &F = k.funcs[cf.func];
    uint8_t *frame = frame_of(x, l);
    std::vector<uint8_t> values; // the returns, before the restore (recursion shares the frame)
    for (const auto &r : F.returns)
      values.insert(values.end(), frame + r.first, frame + r.first + r.second);
    for (uint32_t r = 0; r < cf.regs.size(); ++r)
      w.reg(F.slot + r)[l] = cf.regs[r];
    std::memcpy(frame + F.frame_lo, cf.frame.data(), cf.frame.size());
    const auto &dest = k.code[cf.call_pc].d.elems;
    size_t at = 0;
    for (size_t i = 0; i < dest.size(); ++i) {
      std::memcpy(frame + local_offset(dest[i]), values.data() + at, F.returns[i].second);
      at += F.returns[i].second;
    }
    w.pc[l] = cf.ret_pc;
  }
  x.advance &= ~m;
}

// call.uni (retval0), vprintf, (param0, param1): the format's and the
// argument buffer's generic addresses, 8 bytes each; returns the argument count.
void h_vprintf(Exec &x, const DInstr &in, uint32_t m) {
  FOR_LANES(m, l) {
    uint8_t *frame = frame_of(x, l);
    uint64_t fmt = 0, buf = 0;
    std::memcpy(&fmt, frame + local_offset(in.s[0].elems[0]), 8);
    std::memcpy(&buf, frame + local_offset(in.s[0].elems[1]), 8);
    int nargs = 0;
    std::string text = format_vprintf(x, int(l), fmt, buf, nargs);
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (!in.d.elems.empty()) {
      int32_t r = nargs;
      std::memcpy(frame + local_offset(in.d.elems[0]), &r, 4);
    }
  }
}

} // namespace

Handler ret_handler() { return h_ret; }

bool decode_call(DecodeCtx &c, DInstr &d) {
  const ptx::Instr &in = *c.in;
  if (in.operands.size() < 3 || in.operands[1].kind != ptx::Operand::Kind::Symbol) {
    unsupported(c, d, "indirect calls (through a register) are not emulated");
    return true;
  }
  const std::string &name = in.operands[1].name;
  d.d = c.opd(0);
  d.s[0] = c.opd(2);
  for (const Opd *v : {&d.d, &d.s[0]})
    for (const Opd &e : v->elems)
      if (e.kind != Opd::I || (uint64_t(e.imm) & kWindowMask) != kLocalWindow) {
        unsupported(c, d, "a call whose arguments or returns are not .param variables of its call sequence");
        return true;
      }
  const ptx::Function *f = c.mod->find(name);
  if (name == "vprintf" && f && f->is_declaration) {
    if (d.s[0].elems.size() != 2) {
      unsupported(c, d, "vprintf with other than 2 arguments");
      return true;
    }
    d.run = h_vprintf;
    return true;
  }
  for (size_t i = 0; i < c.k->funcs.size(); ++i)
    if (c.k->funcs[i].fn == f && f && !f->is_entry) {
      d.ints = {int32_t(i)};
      d.run = h_call;
      return true;
    }
  unsupported(c, d, "call of '" + name + "', which has no body in the module (only vprintf is provided)");
  return true;
}

} // namespace emu::exec
