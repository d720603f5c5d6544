// emu/exec/decoded.h - an instruction decoded once for the hot loop ---------//
// Owns: the executable form of a ptx::Instr: a handler pointer, the types and
// flags its modifiers select, and operands resolved to register slots,
// immediates, special-register ids or constant addresses. Decoding happens
// once per kernel (decode.cpp); the handler then runs for a whole lane group
// of a warp without looking at a string.
#pragma once

#include "emu/exec/profile.h"
#include "emu/exec/types.h"
#include "emu/ptx/ast.h"

#include <cstdint>
#include <string>
#include <vector>

namespace emu {
class DeviceImpl;
}

namespace emu::exec {

struct Exec;
struct DInstr;

/// Runs one instruction for the lanes in `mask` (guard already applied).
using Handler = void (*)(Exec &x, const DInstr &in, uint32_t mask);

/// Special registers, resolved from their names at decode time.
enum class Sreg : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid,
  ClusteridX, ClusteridY, ClusteridZ, NclusteridX, NclusteridY, NclusteridZ,
  ClusterCtaidX, ClusterCtaidY, ClusterCtaidZ, ClusterNctaidX, ClusterNctaidY, ClusterNctaidZ,
  ClusterCtarank, ClusterNctarank, IsExplicitCluster,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  Clock, Clock64, Globaltimer, DynamicSmemSize, TotalSmemSize, AggrSmemSize,
};

/// One operand, resolved.
struct Opd {
  enum Kind : uint8_t { R, I, S, A, V, Sink, None } kind = None;
  bool neg = false;       ///< R (predicate): `!%p`
  Sreg sreg = Sreg::TidX; ///< S
  uint32_t slot = 0;      ///< R; A with a register base
  bool addr_reg = false;  ///< A: base is a register (else imm alone is the address)
  int64_t imm = 0;        ///< I: value; A: offset (plus the resolved symbol address)
  std::vector<Opd> elems; ///< V: `{a, b, ...}`; a Pair `a|b` decodes as a V of two
};

/// Flags from modifiers, shared by many handlers.
constexpr uint32_t kSat = 1u << 0;
constexpr uint32_t kFtz = 1u << 1;
constexpr uint32_t kApprox = 1u << 2;
constexpr uint32_t kHi = 1u << 3;
constexpr uint32_t kWide = 1u << 4;
constexpr uint32_t kCc = 1u << 5;
constexpr uint32_t kNaN = 1u << 6;
constexpr uint32_t kRelu = 1u << 7;
constexpr uint32_t kSatfinite = 1u << 8;
constexpr uint32_t kUni = 1u << 9;
constexpr uint32_t kTrans = 1u << 10;
constexpr uint32_t kClamp = 1u << 11;
constexpr uint32_t kShiftWrap = 1u << 12;
constexpr uint32_t kXorsign = 1u << 13;
constexpr uint32_t kFull = 1u << 14;
constexpr uint32_t kSeg = 1u << 15;
constexpr uint32_t kRelaxed = 1u << 16; ///< .relaxed (barrier.cluster.arrive: no release)

struct DInstr {
  Handler run = nullptr;
  Ty ty = Ty::None;          ///< the instruction type (first type modifier)
  Ty ty2 = Ty::None;         ///< a second type (cvt's source, setp's ... )
  ptx::Space space = ptx::Space::Generic; ///< memory instructions
  Round rnd = Round::Rn;
  uint32_t flags = 0;
  uint8_t sub = 0;           ///< per-handler sub-operation (compare op, shfl mode, ...)
  uint8_t sub2 = 0;          ///< a second sub-operation (setp's combining op, ...)
  uint8_t vec = 1;           ///< .v2/.v4 element count
  uint8_t nsrc = 0;
  int32_t guard = -1;        ///< predicate slot, or -1
  bool guard_neg = false;
  bool collective = false;   ///< the warp must rendezvous at it (the mask operand / .aligned)
  int32_t target = -1;       ///< branch target
  uint32_t index = 0;        ///< its index in the function body
  Opd d;                     ///< destination (or the first operand for stores)
  Opd s[6];                  ///< sources
  std::vector<int32_t> ints; ///< per-handler integer data (wgmma shape, ...)
  const ptx::Instr *src = nullptr; ///< for reports
  std::vector<uint32_t> regs; ///< every register slot it names (operands, address bases, guard)
  uint8_t checks = 0;        ///< kCheck* bits: what the register hazard checks do with it
  ProfileClass pclass = ProfileClass::Branch; ///< its class in a --profile count
};

/// DInstr::checks bits (wgmma_regs.cpp).
constexpr uint8_t kCheckWgmma = 1u << 0;   ///< a wgmma instruction: exempt from the lock check
constexpr uint8_t kCheckWgRegs = 1u << 1;  ///< names a register some mma_async uses as D or A

/// A function's place in the flattened code of a kernel (funcs[0] is the
/// kernel itself, then every .func it can call): code [pc, pc + body + 1)
/// (an implicit exit or ret follows each body), register slots [slot, slot +
/// regs), and its frame in each thread's local memory: its .local variables,
/// formal .param parameters and returns, and the .param variables of its call
/// sequences. A call saves the callee's registers and frame and a return
/// restores them, so a recursive activation gets its own copies.
struct FuncLayout {
  const ptx::Function *fn = nullptr;
  uint32_t pc = 0, slot = 0;
  std::vector<std::pair<std::string, uint64_t>> symbols; ///< frame variable -> its symbol value
  std::vector<std::pair<uint64_t, uint32_t>> params, returns; ///< formal: local offset, bytes
  uint32_t frame_lo = 0, frame_hi = 0; ///< local offsets a call saves
};

/// A kernel decoded once: instructions plus the layout it needs at launch.
struct Decoded {
  const ptx::Function *fn = nullptr;
  std::vector<FuncLayout> funcs;
  std::vector<DInstr> code;
  uint32_t nslots = 0;
  uint32_t static_smem = 0;  ///< bytes of .shared variables (from the CTA's shared base)
  uint32_t dyn_smem_offset = 0; ///< shared address of the dynamic (extern) array
  uint32_t local_bytes = 0;  ///< per thread
  uint32_t param_bytes = 0;
  std::vector<uint32_t> param_offsets; ///< offset of each parameter in the param buffer
  std::vector<std::pair<uint32_t, const ptx::VarDecl *>> shared_vars; ///< offset, variable
  std::vector<std::pair<uint32_t, const ptx::VarDecl *>> local_vars;
  std::vector<std::string> notes; ///< why an instruction is unsupported, by index
  bool async_reads = false;  ///< the async proxy reads shared memory (TMA/bulk stores, wgmma):
                             ///< generic shared writes are shadowed (async_proxy.cpp)
  bool has_wgmma = false;    ///< some mma_async: the warps track register locks and fences
  uint32_t largest_setmaxnreg = 0; ///< the largest setmaxnreg count in the code, or 0
  /// The declaration of register `slot` (whichever function owns it).
  const ptx::RegDecl *reg_decl(uint32_t slot) const;
};

/// Decodes `fn` (of `mod`) for execution on `dev`.
void decode_kernel(const emu::DeviceImpl &dev, const ptx::Module &mod, const ptx::Function &fn,
                   Decoded &out);

} // namespace emu::exec
