// emu/exec/wgmma_regs.cpp - registers an in-flight wgmma owns ---------------//
// PTX ISA 9.0, 9.7.15.5.2 (wgmma.mma_async): accessing the accumulator, or
// the registers holding A, of an mma_async before a wgmma.wait_group that
// covers its group is undefined. So an mma_async locks its D and A registers
// for the issuing warp; commit_group closes the locks into a group and
// wait_group N releases all but the newest N groups; any other instruction
// that reads or writes a locked register is Hazard::AsyncHazard. Another
// mma_async may continue a chain on the same accumulators (allowed).
//
// 9.7.15.7.1 (wgmma.fence): the fence is required before the first
// mma_async of a warpgroup, and between any register access by a thread and
// an mma_async that accesses the same registers as accumulator or A (except
// accumulator accesses across mma_async of the same shape). Each warp counts
// its fences; a non-wgmma access to a D or A register records the count, and
// an mma_async finding a count equal to the current one (accessed since the
// last fence) reports the missing wgmma.fence.
//
// Only instructions that name a register some mma_async uses (kCheckWgRegs,
// decode.cpp) come here, so other kernels pay one bit test per instruction.
#include "emu/exec/ops.h"

#include <cstdio>

namespace emu::exec {

namespace {

std::string reg_name(Exec &x, uint32_t slot) {
  const ptx::RegDecl *r = x.run->k->reg_decl(slot);
  return r ? r->name : "%?";
}

std::string line_of(Exec &x, uint32_t pc) {
  const auto &code = x.run->k->code;
  if (pc >= code.size() || !code[pc].src)
    return "?";
  return std::to_string(code[pc].src->ptx_line) + " (" + code[pc].src->text + ")";
}

void unlock_group(Warp &w, const std::vector<uint32_t> &slots) {
  for (uint32_t s : slots)
    if (w.reg_locks[s] && --w.reg_locks[s] == 0)
      w.locked--;
}

} // namespace

void wgmma_reg_access(Exec &x, const DInstr &in, uint32_t active) {
  Warp &w = *x.warp;
  if (w.locked)
    for (uint32_t r : in.regs)
      if (r < w.reg_locks.size() && w.reg_locks[r]) {
        detected(x, __builtin_ctz(active), Detector::WgmmaRegisters, Hazard::AsyncHazard,
                 "the instruction accesses " + reg_name(x, r) +
                     ", an accumulator or A register of a wgmma.mma_async still in flight (PTX line " +
                     line_of(x, w.lock_pc[r]) + "): a wgmma.wait_group must cover its group first");
        break; // allowed: once per instruction
      }
  if (w.reg_access.empty()) {
    w.reg_access.assign(x.run->k->nslots, 0);
    w.reg_access_pc.assign(x.run->k->nslots, 0);
  }
  for (uint32_t r : in.regs) {
    w.reg_access[r] = w.wg_fences;
    w.reg_access_pc[r] = in.index;
  }
}

void wgmma_regs_issue(Exec &x, const DInstr &in) {
  Warp &w = *x.warp;
  if (w.wg_fences == 0)
    detected(x, 0, Detector::WgmmaFence, Hazard::AsyncHazard,
             "wgmma.mma_async before any wgmma.fence in this warp: the ISA requires wgmma.fence before "
             "the first mma_async of a warpgroup");
  const uint32_t n = x.run->k->nslots;
  if (w.reg_locks.empty()) {
    w.reg_locks.assign(n, 0);
    w.lock_pc.assign(n, 0);
  }
  std::vector<uint32_t> slots;
  for (const Opd &e : in.d.elems)
    slots.push_back(e.slot);
  size_t nd = slots.size();
  if (in.s[0].kind == Opd::V)
    for (const Opd &e : in.s[0].elems)
      if (e.kind == Opd::R)
        slots.push_back(e.slot);
  // Accessed since the last fence by something other than a wgmma?
  if (!w.reg_access.empty() && w.wg_fences)
    for (size_t i = 0; i < slots.size(); ++i)
      if (w.reg_access[slots[i]] == w.wg_fences) {
        detected(x, 0, Detector::WgmmaFence, Hazard::AsyncHazard,
                 "missing wgmma.fence: " + reg_name(x, slots[i]) + ", " + (i < nd ? "an accumulator" : "an A") +
                     " register of this wgmma.mma_async, was accessed at PTX line " +
                     line_of(x, w.reg_access_pc[slots[i]]) + " after the warp's last wgmma.fence");
        break; // allowed: once per mma_async
      }
  // A chain continues on registers all locked by the same accumulators; a partial overlap is not one.
  uint32_t held = 0;
  for (size_t i = 0; i < nd; ++i)
    held += w.reg_locks[slots[i]] != 0;
  if (held && held != nd)
    for (size_t i = 0; i < nd; ++i)
      if (w.reg_locks[slots[i]]) {
        detected(x, 0, Detector::WgmmaRegisters, Hazard::AsyncHazard,
                 "wgmma.mma_async writes " + reg_name(x, slots[i]) +
                     ", held by another wgmma.mma_async in flight (PTX line " + line_of(x, w.lock_pc[slots[i]]) +
                     ") whose accumulators differ from this one's");
        break; // allowed: once per mma_async
      }
  for (uint32_t s : slots) {
    if (w.reg_locks[s]++ == 0)
      w.locked++;
    w.lock_pc[s] = in.index;
    w.lock_open.push_back(s);
  }
}

void wgmma_regs_commit(Warp &w) {
  w.lock_groups.push_back(std::move(w.lock_open));
  w.lock_open.clear();
}

void wgmma_regs_wait(Warp &w, uint32_t pending) {
  while (w.lock_groups.size() > pending) {
    unlock_group(w, w.lock_groups.front());
    w.lock_groups.pop_front();
  }
}

void wgmma_regs_fence(Warp &w) { w.wg_fences++; }

} // namespace emu::exec
