// quals.cpp - which timeline an access is made on --------------------------//
#include "compiler/synclower/quals.h"

#include <cstring>
#include <initializer_list>

namespace exgc::synclower {

using analysis::MemSpace;
using sync::Qual;

bool tracked_memory(const analysis::MemoryInfo &mem) {
  return mem.kind == analysis::MemKind::Memory &&
         (mem.space == MemSpace::DeviceGlobal || mem.space == MemSpace::Shared ||
          mem.space == MemSpace::Registers);
}

namespace {

AccessQuals quals(std::initializer_list<Qual> qs) {
  AccessQuals a;
  a.initial = *qs.begin();
  for (Qual q : qs)
    a.ext |= sync::bit(q);
  // Table 3.2: the quals whose accesses one thread of a collective makes for all.
  switch (a.initial) {
  case Qual::Cpu: case Qual::Strm: case Qual::Cuda1: case Qual::WgA: case Qual::WgD:
  case Qual::Wg0:
    a.convergent = true;
    break;
  default:
    a.convergent = false;
  }
  return a;
}

bool is(const std::string &tl, const char *name) { return tl == name; }

} // namespace

std::optional<AccessQuals> access_quals(const analysis::MemoryInfo &mem,
                                        const std::string &tl) {
  if (!tracked_memory(mem))
    return std::nullopt;
  if (mem.space != MemSpace::Registers) { // RAM: shared and global memory
    if (is(tl, "cuda_in_order"))
      return quals({Qual::Cuda2});
    if (is(tl, "Sm80_cp_async"))
      return quals({Qual::Sm80, Qual::Cuda2});
    if (is(tl, "tma_to_smem_async"))
      return quals({Qual::TmaS, Qual::Async});
    // A TMA store reads shared memory on the async proxy (its bulk group's
    // `.read` wait completes that); its global write completes at kernel end.
    if (is(tl, "tma_to_gmem_async") && mem.space == MemSpace::DeviceGlobal)
      return quals({Qual::TmaGW});
    if (is(tl, "tma_to_gmem_async"))
      return quals({Qual::TmaG, Qual::Async});
    if (is(tl, "wgmma_async"))
      return quals({Qual::WgS, Qual::Async});
    return std::nullopt;
  }
  const bool matrix_d = std::strcmp(mem.name, "Sm90_RmemMatrixD") == 0;
  const bool matrix_a = std::strcmp(mem.name, "Sm90_RmemMatrixA") == 0;
  if (is(tl, "wgmma_async") && matrix_d)
    return quals({Qual::WgD, Qual::Wg0});
  if (is(tl, "wgmma_async") && matrix_a)
    return quals({Qual::WgA});
  if (is(tl, "wgmma_zero") && matrix_d)
    return quals({Qual::Wg0, Qual::WgD});
  if (is(tl, "cuda_in_order") || is(tl, "Sm80_cp_async") || is(tl, "tma_to_smem_async") ||
      is(tl, "tma_to_gmem_async"))
    return quals({Qual::Cuda1});
  return std::nullopt;
}

} // namespace exgc::synclower
