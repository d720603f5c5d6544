// emu/exec/ops.h - what every instruction handler shares ---------------------//
// Owns: operand reads and writes for one lane, the decode context, and the
// decoders each ops_*.cpp file provides (one per opcode family). A decoder
// fills DInstr::run, or calls unsupported() so the instruction reports
// Hazard::Unsupported when (and only when) it executes.
#pragma once

#include "emu/exec/machine.h"

#include <string>

namespace emu::exec {

/// The value of a special register for `lane`.
uint64_t special(Exec &x, Sreg s, int lane);

inline uint64_t rd(Exec &x, const Opd &o, int lane) {
  if (o.kind == Opd::R)
    return x.regs[size_t(o.slot) * 32 + lane];
  if (o.kind == Opd::I)
    return uint64_t(o.imm);
  if (o.kind == Opd::S)
    return special(x, o.sreg, lane);
  return 0;
}
/// A predicate source (with `!` applied).
inline bool rdp(Exec &x, const Opd &o, int lane) {
  if (o.kind == Opd::R)
    return (x.regs[size_t(o.slot) * 32 + lane] != 0) != o.neg;
  return o.imm != 0;
}
inline void wr(Exec &x, const Opd &o, int lane, uint64_t v) {
  if (o.kind == Opd::R)
    x.regs[size_t(o.slot) * 32 + lane] = v;
}
/// The address an A operand names for `lane` (base register + offset, or constant).
inline uint64_t addr_of(Exec &x, const Opd &o, int lane) {
  uint64_t a = uint64_t(o.imm);
  if (o.addr_reg)
    a += x.regs[size_t(o.slot) * 32 + lane];
  return a;
}

#define FOR_LANES(mask, lane)                                                                      \
  for (uint32_t _m = (mask), lane; _m && ((lane = __builtin_ctz(_m)), true); _m &= _m - 1)

class DeviceImplAccess;

/// What decoders need: the instruction, its function and symbol addresses.
struct DecodeCtx {
  const ptx::Instr *in = nullptr;
  const ptx::Function *fn = nullptr;
  const ptx::Module *mod = nullptr;
  Decoded *k = nullptr;
  const emu::DeviceImpl *dev = nullptr;
  std::vector<std::string> *notes = nullptr; ///< unsupported messages, by instruction index
  const FuncLayout *layout = nullptr; ///< the function being decoded
  uint32_t slot_base = 0, pc_base = 0; ///< its register slots and code in the kernel's
  /// True when the instruction has modifier `m`.
  bool has(const char *m) const;
  /// Operand i decoded (types given to convert float immediates).
  Opd opd(size_t i, Ty ty = Ty::None) const;
  /// The address a symbol names (its space decides the window), or false.
  bool symbol(const std::string &name, uint64_t &addr) const;
  size_t nops() const { return in->operands.size(); }
};

/// Makes `d` report Hazard::Unsupported ("why") when executed.
void unsupported(DecodeCtx &c, DInstr &d, const std::string &why);

/// The first type modifier of the instruction (Ty::None if none), and the one after it.
Ty first_type(const ptx::Instr &in, Ty *second = nullptr);
Round round_of(const ptx::Instr &in, bool *given = nullptr);
ptx::Space space_of(const ptx::Instr &in, bool *cluster = nullptr);

// Decoders, one per opcode family; each returns false when it does not know
// the opcode (decode.cpp then reports it as unsupported).
bool decode_int(DecodeCtx &c, DInstr &d);     // ops_int.cpp
bool decode_cmp(DecodeCtx &c, DInstr &d);     // ops_cmp.cpp
bool decode_float(DecodeCtx &c, DInstr &d);   // ops_float.cpp
bool decode_cvt(DecodeCtx &c, DInstr &d);     // ops_cvt.cpp
bool decode_mem(DecodeCtx &c, DInstr &d);     // ops_mem.cpp
bool decode_control(DecodeCtx &c, DInstr &d); // ops_control.cpp
bool decode_warp(DecodeCtx &c, DInstr &d);    // ops_warp.cpp
bool decode_barrier(DecodeCtx &c, DInstr &d); // ops_barrier.cpp
bool decode_mbarrier(DecodeCtx &c, DInstr &d);// ops_mbarrier.cpp
bool decode_tma(DecodeCtx &c, DInstr &d);     // ops_tma.cpp
bool decode_wgmma(DecodeCtx &c, DInstr &d);   // ops_wgmma.cpp
bool decode_matrix(DecodeCtx &c, DInstr &d);  // ops_matrix.cpp (ldmatrix/stmatrix)
bool decode_call(DecodeCtx &c, DInstr &d);    // ops_call.cpp (call, and vprintf)
/// The handlers of an entry's and a .func's implicit end (ops_control.cpp, ops_call.cpp).
Handler exit_handler();
Handler ret_handler();

// Memory access (ops_mem.cpp / memory.cpp): a checked host pointer for `bytes`
// at `addr` in `space`, for `lane` of the executing warp. Reports OutOfBounds.
uint8_t *mem_ptr(Exec &x, ptx::Space space, uint64_t addr, uint32_t bytes, int lane, bool write);
/// A CTA's shared memory at a 32-bit shared::cluster address (checked).
uint8_t *smem_ptr(Exec &x, uint32_t addr, uint32_t bytes, int lane, bool cta_only);
/// The CTA that a shared::cluster address names, and its offset from kSmemBase.
Cta *smem_owner(Exec &x, uint32_t addr, uint32_t &offset);
/// True when every thread of `c` has exited: its shared memory is gone, and an
/// access to it from another CTA of the cluster is Hazard::OutOfBounds.
inline bool cta_exited(const Cta &c) { return c.exited_threads == c.nthreads; }
/// "CTA rank R of the cluster has exited; its shared memory is gone".
std::string exited_cta_text(const Cta &c);

// The async proxy's view of generic shared writes (async_proxy.cpp).
/// Records a generic write of `n` bytes at host pointer `p` (ignored outside shared memory).
void proxy_note_write(Exec &x, const uint8_t *p, uint32_t n, int lane);
inline void proxy_write(Exec &x, const uint8_t *p, uint32_t n, int lane) {
  if (x.run->k->async_reads)
    proxy_note_write(x, p, n, lane);
}
/// An async-proxy write (TMA load, bulk copy) of bytes [off, off + n) of `c`'s shared memory.
void proxy_note_async_write(Cta &c, uint32_t off, uint32_t n);
/// fence.proxy.async by the lanes of `mask`.
void proxy_fence(Exec &x, uint32_t mask);
/// An async-proxy read of [off, off + n) of `owner`'s shared memory by `what`:
/// Hazard::AsyncHazard when a byte's generic writer has not fenced since.
void proxy_check_read(Exec &x, Cta &owner, uint32_t off, uint32_t n, int lane, const char *what);

// Registers an in-flight wgmma owns, and wgmma.fence (wgmma_regs.cpp).
/// A non-wgmma instruction naming a D or A register of some mma_async (kCheckWgRegs).
void wgmma_reg_access(Exec &x, const DInstr &in, uint32_t active);
/// The executing warp joins mma_async `in`: checks the fence, locks D and A.
void wgmma_regs_issue(Exec &x, const DInstr &in);
void wgmma_regs_commit(Warp &w);
/// wait_group `pending`: releases the locks of all but the newest `pending` groups.
void wgmma_regs_wait(Warp &w, uint32_t pending);
void wgmma_regs_fence(Warp &w);

/// nvcc's printf (vprintf.cpp): the format at generic address `fmt`, the
/// arguments packed at generic address `args`; `nargs` gets how many it used.
std::string format_vprintf(Exec &x, int lane, uint64_t fmt, uint64_t args, int &nargs);

// mbarrier.init and its release to the cluster (mbarrier_release.cpp).
/// Thread `lane` initialized the mbarrier at `off` of `owner` (its own CTA).
void mbarrier_init_noted(Exec &x, Cta &owner, uint32_t off, int lane);
void mbarrier_inval_noted(Cta &owner, uint32_t off);
/// The lanes of `mask` executed a release at cluster scope (`inits_only`:
/// fence.mbarrier_init, which releases only their own inits).
void cluster_release(Exec &x, uint32_t mask, bool inits_only);
/// The executing CTA operates (`what`) on the mbarrier at `off` of `owner`:
/// BarrierMisuse when owner is another CTA and the init was never released.
void check_init_released(Exec &x, const Cta &owner, uint32_t off, int lane, const char *what);

/// Scheduler services for handlers (scheduler.cpp).
void block(Exec &x, uint32_t mask, WaitKind k, uint64_t a, uint64_t b);
void thread_exit(Exec &x, uint32_t mask);
/// Re-checks named and cluster barriers after threads exited.
void barriers_after_exit(Exec &x);
void push_event(Exec &x, AsyncEvent e);
/// Warp-collective rendezvous (ops_warp.cpp): true when every live lane of
/// `need` is at this instruction; otherwise `active` waits there (false).
bool rendezvous(Exec &x, uint32_t need, uint32_t active);
/// The warp's committed wgmma groups with operations still in flight (ops_wgmma.cpp).
uint32_t wgmma_groups_pending(Warp &w);
/// True when the mbarrier at shared address `addr` (as `own` sees it) has
/// completed the phase with parity `parity` (ops_mbarrier.cpp).
bool mbarrier_parity_done(Cluster &cl, Cta &own, uint64_t addr, uint32_t parity);
/// "pending arrivals 3 of 4, tx-count 128, parity 1" for an mbarrier word (ops_mbarrier.cpp).
std::string mbarrier_state_text(uint64_t word);

/// The handler H<T>::get() for an integer or bit type (b8..b64, u8..u64,
/// s8..s64; bN as uN), or null for any other type.
template <template <class> class H> Handler by_int_type(Ty t) {
  switch (t) {
  case Ty::U8: case Ty::B8: return H<uint8_t>::get();
  case Ty::S8: return H<int8_t>::get();
  case Ty::U16: case Ty::B16: return H<uint16_t>::get();
  case Ty::S16: return H<int16_t>::get();
  case Ty::U32: case Ty::B32: return H<uint32_t>::get();
  case Ty::S32: return H<int32_t>::get();
  case Ty::U64: case Ty::B64: return H<uint64_t>::get();
  case Ty::S64: return H<int64_t>::get();
  default: return nullptr;
  }
}

} // namespace emu::exec
