// emu/exec/special.cpp - special registers, and where a report points -------//
#include "emu/exec/device_impl.h"
#include "emu/exec/ops.h"

namespace emu::exec {

uint64_t special(Exec &x, Sreg s, int lane) {
  const Run &r = *x.run;
  const Cta &c = *x.cta;
  const Warp &w = *x.warp;
  uint32_t bit = 1u << lane;
  switch (s) {
  case Sreg::TidX: return w.tid[0][lane];
  case Sreg::TidY: return w.tid[1][lane];
  case Sreg::TidZ: return w.tid[2][lane];
  case Sreg::NtidX: return r.block[0];
  case Sreg::NtidY: return r.block[1];
  case Sreg::NtidZ: return r.block[2];
  case Sreg::CtaidX: return c.ctaid[0];
  case Sreg::CtaidY: return c.ctaid[1];
  case Sreg::CtaidZ: return c.ctaid[2];
  case Sreg::NctaidX: return r.grid[0];
  case Sreg::NctaidY: return r.grid[1];
  case Sreg::NctaidZ: return r.grid[2];
  case Sreg::Laneid: return uint64_t(lane);
  case Sreg::Warpid: return w.id;
  case Sreg::Nwarpid: return 64;
  case Sreg::Smid: return c.rank; // CTAs of a cluster sit on distinct SMs
  case Sreg::Nsmid: return 132;
  case Sreg::Gridid: return 1;
  case Sreg::ClusteridX: return x.cluster->id[0];
  case Sreg::ClusteridY: return x.cluster->id[1];
  case Sreg::ClusteridZ: return x.cluster->id[2];
  case Sreg::NclusteridX: return r.grid[0] / r.cluster_dim[0];
  case Sreg::NclusteridY: return r.grid[1] / r.cluster_dim[1];
  case Sreg::NclusteridZ: return r.grid[2] / r.cluster_dim[2];
  case Sreg::ClusterCtaidX: return c.cluster_ctaid[0];
  case Sreg::ClusterCtaidY: return c.cluster_ctaid[1];
  case Sreg::ClusterCtaidZ: return c.cluster_ctaid[2];
  case Sreg::ClusterNctaidX: return r.cluster_dim[0];
  case Sreg::ClusterNctaidY: return r.cluster_dim[1];
  case Sreg::ClusterNctaidZ: return r.cluster_dim[2];
  case Sreg::ClusterCtarank: return c.rank;
  case Sreg::ClusterNctarank: return r.cluster_dim[0] * r.cluster_dim[1] * r.cluster_dim[2];
  case Sreg::IsExplicitCluster: return r.explicit_cluster ? 1 : 0;
  case Sreg::LanemaskEq: return bit;
  case Sreg::LanemaskLe: return (bit - 1) | bit;
  case Sreg::LanemaskLt: return bit - 1;
  case Sreg::LanemaskGe: return ~(bit - 1) & 0xffffffffu;
  case Sreg::LanemaskGt: return ~((bit - 1) | bit) & 0xffffffffu;
  case Sreg::Clock: return uint32_t(r.instructions);
  case Sreg::Clock64: return r.instructions;
  case Sreg::Globaltimer: return r.instructions * 1000;
  case Sreg::DynamicSmemSize: return r.dyn_smem;
  case Sreg::TotalSmemSize: return r.total_smem;
  case Sreg::AggrSmemSize: return r.total_smem + kSmemBase;
  }
  return 0;
}

namespace {

// nvcc writes `.loc F 0 C` for code it generates (no source line). A report
// then points at the last earlier instruction of the same function whose
// .loc has a real line; the bool says whether one was found.
const ptx::Loc &located(const Decoded &k, const DInstr *cur, bool &found) {
  found = true;
  if (cur->src->loc.line != 0 || cur < k.code.data() || cur >= k.code.data() + k.code.size())
    return cur->src->loc;
  size_t pc = size_t(cur - k.code.data()), start = 0;
  for (const FuncLayout &f : k.funcs)
    if (f.pc <= pc && f.pc >= start)
      start = f.pc;
  for (size_t i = pc; i-- > start;) {
    const ptx::Instr *in = k.code[i].src;
    if (in && in->loc.file && in->loc.line != 0)
      return in->loc;
  }
  found = false;
  return cur->src->loc;
}

} // namespace

Where where_of(Exec &x, int lane) {
  Where w;
  if (x.run)
    w.kernel = x.run->kernel;
  if (x.cta)
    for (int d = 0; d < 3; ++d)
      w.cta[d] = int(x.cta->ctaid[d]);
  if (x.warp && lane >= 0)
    for (int d = 0; d < 3; ++d)
      w.thread[d] = int(x.warp->tid[d][lane]);
  if (x.cur && x.cur->src) {
    const ptx::Instr &in = *x.cur->src;
    w.ptx_line = in.ptx_line;
    w.instr = in.text;
    bool has_line = true;
    const ptx::Loc &loc = x.run && x.run->k ? located(*x.run->k, x.cur, has_line) : in.loc;
    if (loc.file && x.run && x.run->dev) {
      const ptx::Module *m = x.run->dev->module_of(x.run->k->fn);
      auto f = m ? m->files.find(loc.file) : decltype(m->files.end()){};
      if (m && f != m->files.end()) {
        w.source = f->second;
        if (has_line)
          w.source += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
        if (loc.inlined_file) {
          auto g = m->files.find(loc.inlined_file);
          if (g != m->files.end())
            w.source += " (inlined at " + g->second +
                        (loc.inlined_line ? ":" + std::to_string(loc.inlined_line) + ":" +
                                                std::to_string(loc.inlined_col)
                                          : "") +
                        ")";
        }
      }
    }
  }
  return w;
}

void fail(Exec &x, int lane, Hazard h, const std::string &what) { report(h, where_of(x, lane), what); }

void detected(Exec &x, int lane, Detector d, Hazard h, const std::string &what) {
  report_detected(*x.run->opt, d, h, where_of(x, lane), what);
}

} // namespace emu::exec
