// emu/exec/decode.cpp - a kernel's instructions to their executable form ----//
// Lays out the kernel's parameters, shared and local variables, then asks
// each opcode family's decoder to resolve an instruction. An instruction no
// decoder knows becomes one that reports Hazard::Unsupported when executed, so
// a kernel with an unused exotic instruction still runs.
#include "emu/exec/device_impl.h"
#include "emu/exec/ops.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace emu::exec {

bool DecodeCtx::has(const char *m) const {
  for (const std::string &s : in->mods)
    if (s == m)
      return true;
  return false;
}

Ty first_type(const ptx::Instr &in, Ty *second) {
  Ty first = Ty::None;
  if (second)
    *second = Ty::None;
  for (const std::string &m : in.mods) {
    Ty t = type_from_name(m);
    if (t == Ty::None)
      continue;
    if (first == Ty::None)
      first = t;
    else if (second && *second == Ty::None)
      *second = t;
  }
  return first;
}

Round round_of(const ptx::Instr &in, bool *given) {
  if (given)
    *given = true;
  for (const std::string &m : in.mods) {
    if (m == "rn" || m == "rni") return Round::Rn;
    if (m == "rz" || m == "rzi") return Round::Rz;
    if (m == "rm" || m == "rmi") return Round::Rm;
    if (m == "rp" || m == "rpi") return Round::Rp;
    if (m == "rna") return Round::Rna;
  }
  if (given)
    *given = false;
  return Round::Rn;
}

ptx::Space space_of(const ptx::Instr &in, bool *cluster) {
  if (cluster)
    *cluster = false;
  for (const std::string &m : in.mods) {
    if (m == "global") return ptx::Space::Global;
    if (m == "shared" || m == "shared::cta") return ptx::Space::Shared;
    if (m == "shared::cluster") {
      if (cluster)
        *cluster = true;
      return ptx::Space::Shared;
    }
    if (m == "local") return ptx::Space::Local;
    if (m == "param" || m == "param::entry" || m == "param::func") return ptx::Space::Param;
    if (m == "const") return ptx::Space::Const;
  }
  return ptx::Space::Generic;
}

static bool sreg_of(const std::string &n, Sreg &s) {
  static const struct { const char *n; Sreg s; } table[] = {
      {"%tid.x", Sreg::TidX}, {"%tid.y", Sreg::TidY}, {"%tid.z", Sreg::TidZ},
      {"%ntid.x", Sreg::NtidX}, {"%ntid.y", Sreg::NtidY}, {"%ntid.z", Sreg::NtidZ},
      {"%ctaid.x", Sreg::CtaidX}, {"%ctaid.y", Sreg::CtaidY}, {"%ctaid.z", Sreg::CtaidZ},
      {"%nctaid.x", Sreg::NctaidX}, {"%nctaid.y", Sreg::NctaidY}, {"%nctaid.z", Sreg::NctaidZ},
      {"%laneid", Sreg::Laneid}, {"%warpid", Sreg::Warpid}, {"%nwarpid", Sreg::Nwarpid},
      {"%smid", Sreg::Smid}, {"%nsmid", Sreg::Nsmid}, {"%gridid", Sreg::Gridid},
      {"%clusterid.x", Sreg::ClusteridX}, {"%clusterid.y", Sreg::ClusteridY},
      {"%clusterid.z", Sreg::ClusteridZ}, {"%nclusterid.x", Sreg::NclusteridX},
      {"%nclusterid.y", Sreg::NclusteridY}, {"%nclusterid.z", Sreg::NclusteridZ},
      {"%cluster_ctaid.x", Sreg::ClusterCtaidX}, {"%cluster_ctaid.y", Sreg::ClusterCtaidY},
      {"%cluster_ctaid.z", Sreg::ClusterCtaidZ}, {"%cluster_nctaid.x", Sreg::ClusterNctaidX},
      {"%cluster_nctaid.y", Sreg::ClusterNctaidY}, {"%cluster_nctaid.z", Sreg::ClusterNctaidZ},
      {"%cluster_ctarank", Sreg::ClusterCtarank}, {"%cluster_nctarank", Sreg::ClusterNctarank},
      {"%is_explicit_cluster", Sreg::IsExplicitCluster}, {"%lanemask_eq", Sreg::LanemaskEq},
      {"%lanemask_le", Sreg::LanemaskLe}, {"%lanemask_lt", Sreg::LanemaskLt},
      {"%lanemask_ge", Sreg::LanemaskGe}, {"%lanemask_gt", Sreg::LanemaskGt},
      {"%clock", Sreg::Clock}, {"%clock64", Sreg::Clock64}, {"%globaltimer", Sreg::Globaltimer},
      {"%dynamic_smem_size", Sreg::DynamicSmemSize}, {"%total_smem_size", Sreg::TotalSmemSize},
      {"%aggr_smem_size", Sreg::AggrSmemSize},
  };
  for (const auto &e : table)
    if (n == e.n) {
      s = e.s;
      return true;
    }
  return false;
}

bool DecodeCtx::symbol(const std::string &name, uint64_t &addr) const {
  if (fn->is_entry)
    for (size_t i = 0; i < fn->params.size(); ++i)
      if (fn->params[i].name == name) {
        addr = kParamWindow + k->param_offsets[i];
        return true;
      }
  if (layout)
    for (const auto &v : layout->symbols)
      if (v.first == name) {
        addr = v.second;
        return true;
      }
  for (const auto &v : k->shared_vars)
    if (v.second->name == name) {
      addr = v.first;
      return true;
    }
  for (const auto &v : k->local_vars)
    if (fn->is_entry && v.second->name == name) {
      addr = v.first;
      return true;
    }
  addr = dev->global_symbol(name);
  return addr != 0;
}

Opd DecodeCtx::opd(size_t i, Ty ty) const {
  Opd o;
  if (i >= in->operands.size())
    return o;
  const ptx::Operand &p = in->operands[i];
  switch (p.kind) {
  case ptx::Operand::Kind::Reg:
    o.kind = Opd::R;
    o.slot = p.reg + slot_base;
    o.neg = p.negated;
    break;
  case ptx::Operand::Kind::Imm:
    o.kind = Opd::I;
    o.imm = p.imm;
    if (ty == Ty::F32)
      o.imm = int64_t(bits_of(float(p.imm)));
    else if (ty == Ty::F64)
      o.imm = int64_t(bits_of(double(p.imm)));
    break;
  case ptx::Operand::Kind::FloatImm:
    o.kind = Opd::I;
    o.imm = p.imm;
    if (ty == Ty::F64 && !p.is_f64)
      o.imm = int64_t(bits_of(double(f32_of(uint64_t(p.imm)))));
    else if (ty != Ty::F64 && p.is_f64)
      o.imm = int64_t(bits_of(float(f64_of(uint64_t(p.imm)))));
    break;
  case ptx::Operand::Kind::Special:
    o.kind = Opd::S;
    if (!sreg_of(p.name, o.sreg))
      o.kind = Opd::None;
    break;
  case ptx::Operand::Kind::Symbol: {
    uint64_t a = 0;
    if (symbol(p.name, a)) {
      o.kind = Opd::I;
      o.imm = int64_t(a);
    }
    break;
  }
  case ptx::Operand::Kind::Label:
    o.kind = Opd::I;
    o.imm = p.target + pc_base;
    break;
  case ptx::Operand::Kind::Address: {
    o.kind = Opd::A;
    o.imm = p.imm;
    const ptx::Operand *base = p.elems.empty() ? nullptr : &p.elems[0];
    if (base && base->kind == ptx::Operand::Kind::Reg) {
      o.addr_reg = true;
      o.slot = base->reg + slot_base;
    } else if (base && base->kind == ptx::Operand::Kind::Symbol) {
      uint64_t a = 0;
      if (!symbol(base->name, a)) {
        o.kind = Opd::None;
        break;
      }
      o.imm += int64_t(a);
    } else if (base && base->kind == ptx::Operand::Kind::Imm) {
      o.imm += base->imm;
    }
    break;
  }
  case ptx::Operand::Kind::Vector:
  case ptx::Operand::Kind::Pair: {
    o.kind = Opd::V;
    DecodeCtx sub = *this;
    ptx::Instr tmp;
    tmp.operands = p.elems;
    sub.in = &tmp;
    for (size_t j = 0; j < p.elems.size(); ++j)
      o.elems.push_back(sub.opd(j, ty));
    break;
  }
  case ptx::Operand::Kind::Sink:
    o.kind = Opd::Sink;
    break;
  }
  return o;
}

static void run_unsupported(Exec &x, const DInstr &in, uint32_t mask) {
  fail(x, __builtin_ctz(mask), Hazard::Unsupported, x.run->k->notes[in.index]);
}

void unsupported(DecodeCtx &c, DInstr &d, const std::string &why) {
  d.run = run_unsupported;
  (*c.notes)[d.index] = why;
}

// Symbols a function body names (to lay out only the shared variables it uses).
static void collect_symbols(const ptx::Operand &o, std::set<std::string> &out) {
  if (o.kind == ptx::Operand::Kind::Symbol)
    out.insert(o.name);
  for (const ptx::Operand &e : o.elems)
    collect_symbols(e, out);
}

// Every register slot an operand names (vector elements, address bases).
static void collect_regs(const ptx::Operand &o, uint32_t base, std::vector<uint32_t> &out) {
  if (o.kind == ptx::Operand::Kind::Reg)
    out.push_back(o.reg + base);
  for (const ptx::Operand &e : o.elems)
    collect_regs(e, base, out);
}

// The register lists and kCheck* bits the wgmma register checks use.
static void mark_register_checks(Decoded &k) {
  std::vector<bool> wg(k.nslots, false);
  for (DInstr &d : k.code) {
    if (!d.src || d.src->opcode != "wgmma")
      continue;
    d.checks |= kCheckWgmma;
    if (d.d.kind == Opd::V && !d.ints.empty()) { // an mma_async: its D and A registers
      for (const Opd &e : d.d.elems)
        wg[e.slot] = true;
      if (d.s[0].kind == Opd::V)
        for (const Opd &e : d.s[0].elems)
          if (e.kind == Opd::R)
            wg[e.slot] = true;
    }
  }
  if (!k.has_wgmma)
    return;
  for (DInstr &d : k.code)
    if (d.src && !(d.checks & kCheckWgmma))
      for (uint32_t r : d.regs)
        if (r < wg.size() && wg[r])
          d.checks |= kCheckWgRegs;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

const ptx::RegDecl *Decoded::reg_decl(uint32_t slot) const {
  for (auto it = funcs.rbegin(); it != funcs.rend(); ++it)
    if (slot >= it->slot)
      return slot - it->slot < it->fn->regs.size() ? &it->fn->regs[slot - it->slot] : nullptr;
  return nullptr;
}

// The kernel and every function it can reach through `call`, kernel first.
static std::vector<const ptx::Function *> reachable(const ptx::Module &mod, const ptx::Function &fn) {
  std::vector<const ptx::Function *> out{&fn};
  for (size_t i = 0; i < out.size(); ++i)
    for (const ptx::Instr &in : out[i]->body) {
      if (in.opcode != "call" || in.operands.size() < 2 || in.operands[1].kind != ptx::Operand::Kind::Symbol)
        continue;
      const ptx::Function *f = mod.find(in.operands[1].name);
      if (f && !f->is_declaration && std::find(out.begin(), out.end(), f) == out.end())
        out.push_back(f);
    }
  return out;
}

// Lays out `f`'s frame from local offset `off` (see FuncLayout); returns the end.
static uint64_t lay_out_frame(FuncLayout &L, uint64_t off) {
  const ptx::Function &f = *L.fn;
  L.frame_lo = uint32_t(off);
  auto place = [&](const ptx::VarDecl &v, bool param) {
    for (const auto &s : L.symbols) // call sequences repeat names: one slot each, the largest
      if (s.first == v.name)
        return;
    uint64_t bytes = v.bytes();
    for (const ptx::VarDecl &w : f.vars)
      if (w.name == v.name && w.space == v.space)
        bytes = std::max<uint64_t>(bytes, w.bytes());
    off = align_up(off, std::max<uint64_t>(v.align ? v.align : v.elem_bytes, 1));
    L.symbols.push_back({v.name, param ? kLocalWindow + off : off});
    off += bytes;
  };
  if (!f.is_entry) {
    for (const ptx::VarDecl &v : f.vars)
      if (v.space == ptx::Space::Local)
        place(v, false);
    for (const ptx::VarDecl &v : f.params) {
      place(v, true);
      L.params.push_back({L.symbols.back().second - kLocalWindow, uint32_t(v.bytes())});
    }
    for (const ptx::VarDecl &v : f.returns) {
      place(v, true);
      L.returns.push_back({L.symbols.back().second - kLocalWindow, uint32_t(v.bytes())});
    }
  }
  for (const ptx::VarDecl &v : f.vars)
    if (v.space == ptx::Space::Param)
      place(v, true);
  off = align_up(off, 16);
  L.frame_hi = uint32_t(off);
  return off;
}

void decode_kernel(const emu::DeviceImpl &dev, const ptx::Module &mod, const ptx::Function &fn,
                   Decoded &k) {
  k.fn = &fn;
  uint32_t ninstr = 0;
  for (const ptx::Function *f : reachable(mod, fn)) {
    FuncLayout L;
    L.fn = f;
    L.pc = ninstr;
    L.slot = k.nslots;
    ninstr += uint32_t(f->body.size()) + 1;
    k.nslots += uint32_t(f->regs.size());
    k.funcs.push_back(std::move(L));
  }
  // Parameters: in order, each at its alignment.
  uint64_t off = 0;
  for (const ptx::VarDecl &p : fn.params) {
    off = align_up(off, p.align ? p.align : p.elem_bytes);
    k.param_offsets.push_back(uint32_t(off));
    off += p.bytes();
  }
  k.param_bytes = uint32_t(off);
  // Shared variables the body names (module scope, then function scope), in declaration order.
  std::set<std::string> used;
  for (const FuncLayout &L : k.funcs)
    for (const ptx::Instr &in : L.fn->body)
      for (const ptx::Operand &o : in.operands)
        collect_symbols(o, used);
  std::vector<const ptx::VarDecl *> shared, dyn;
  for (const ptx::VarDecl &v : mod.vars)
    if (v.space == ptx::Space::Shared && used.count(v.name))
      (v.is_extern ? dyn : shared).push_back(&v);
  for (const ptx::VarDecl &v : fn.vars)
    if (v.space == ptx::Space::Shared)
      (v.is_extern ? dyn : shared).push_back(&v);
  off = kSmemBase;
  for (const ptx::VarDecl *v : shared) {
    off = align_up(off, v->align ? v->align : v->elem_bytes);
    k.shared_vars.push_back({uint32_t(off), v});
    off += v->bytes();
  }
  k.static_smem = uint32_t(off - kSmemBase);
  // Every extern array is the dynamic shared memory: 1024-aligned like the
  // hardware places it (the ISA promises only 16), or deliberately off by 16.
  k.dyn_smem_offset = uint32_t(align_up(off, 1024)) + (dev.options().misalign_dynamic_smem ? 16 : 0);
  for (const ptx::VarDecl *v : dyn)
    k.shared_vars.push_back({k.dyn_smem_offset, v});
  off = 0;
  for (const ptx::VarDecl &v : fn.vars)
    if (v.space == ptx::Space::Local) {
      off = align_up(off, v.align ? v.align : v.elem_bytes);
      k.local_vars.push_back({uint32_t(off), &v});
      off += v.bytes();
    }
  for (FuncLayout &L : k.funcs)
    off = lay_out_frame(L, align_up(off, 16));
  k.local_bytes = uint32_t(align_up(off, 16));

  k.code.resize(ninstr);
  k.notes.resize(ninstr);
  for (const FuncLayout &L : k.funcs) {
    const ptx::Function &f = *L.fn;
    for (size_t i = 0; i <= f.body.size(); ++i) {
      DInstr &d = k.code[L.pc + i];
      d.index = uint32_t(L.pc + i);
      if (i == f.body.size()) { // falling off the end: exit, or return
        d.run = f.is_entry ? exit_handler() : ret_handler();
        continue;
      }
      const ptx::Instr &in = f.body[i];
      d.src = &in;
      d.pclass = profile_class(in);
      d.guard = in.guard < 0 ? -1 : in.guard + int32_t(L.slot);
      d.guard_neg = in.guard_negated;
      for (const ptx::Operand &o : in.operands)
        collect_regs(o, L.slot, d.regs);
      if (d.guard >= 0)
        d.regs.push_back(uint32_t(d.guard));
      DecodeCtx c;
      c.in = &in;
      c.fn = &f;
      c.mod = &mod;
      c.k = &k;
      c.dev = &dev;
      c.notes = &k.notes;
      c.layout = &L;
      c.slot_base = L.slot;
      c.pc_base = L.pc;
      bool known = decode_control(c, d) || decode_cmp(c, d) || decode_int(c, d) || decode_float(c, d) ||
                   decode_cvt(c, d) || decode_mem(c, d) || decode_warp(c, d) ||
                   decode_barrier(c, d) || decode_mbarrier(c, d) || decode_tma(c, d) ||
                   decode_wgmma(c, d) || decode_matrix(c, d);
      if (!known)
        unsupported(c, d, "the emulator does not implement '" + in.opcode + "'");
      else if (!d.run)
        unsupported(c, d, "the emulator does not implement this form of '" + in.opcode + "'");
    }
  }
  mark_register_checks(k);
}

} // namespace emu::exec
