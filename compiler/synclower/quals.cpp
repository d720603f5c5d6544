// quals.cpp - which timeline an access is made on --------------------------//
#include "compiler/synclower/quals.h"

#include <initializer_list>

namespace exgc::synclower {

using analysis::InstrTimeline;
using analysis::MemId;
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

/// Shared and global memory.
std::optional<AccessQuals> ram_quals(const analysis::MemoryInfo &mem, InstrTimeline tl) {
  switch (tl) {
  case InstrTimeline::CudaInOrder: return quals({Qual::Cuda2});
  case InstrTimeline::Sm80CpAsync: return quals({Qual::Sm80, Qual::Cuda2});
  case InstrTimeline::TmaToSmemAsync: return quals({Qual::TmaS, Qual::Async});
  case InstrTimeline::TmaToGmemAsync:
    // A TMA store reads shared memory on the async proxy (its bulk group's
    // `.read` wait completes that); its global write completes at kernel end.
    if (mem.space == MemSpace::DeviceGlobal)
      return quals({Qual::TmaGW});
    return quals({Qual::TmaG, Qual::Async});
  case InstrTimeline::WgmmaAsync: return quals({Qual::WgS, Qual::Async});
  case InstrTimeline::CpuInOrder:
  case InstrTimeline::CpuCudaStream:
  case InstrTimeline::WgmmaZero:
  case InstrTimeline::Tcgen05Mma:
  case InstrTimeline::Tcgen05Cp:
  case InstrTimeline::Tcgen05Shift:
  case InstrTimeline::Tcgen05Ld:
  case InstrTimeline::Tcgen05St: return std::nullopt;
  }
  return std::nullopt;
}

/// Registers: one thread's, or a warpgroup's wgmma fragments.
std::optional<AccessQuals> register_quals(const analysis::MemoryInfo &mem, InstrTimeline tl) {
  const bool matrix_d = mem.id == MemId::Sm90_RmemMatrixD;
  const bool matrix_a = mem.id == MemId::Sm90_RmemMatrixA;
  switch (tl) {
  case InstrTimeline::WgmmaAsync:
    if (matrix_d)
      return quals({Qual::WgD, Qual::Wg0});
    if (matrix_a)
      return quals({Qual::WgA});
    return std::nullopt;
  case InstrTimeline::WgmmaZero:
    if (matrix_d)
      return quals({Qual::Wg0, Qual::WgD});
    return std::nullopt;
  case InstrTimeline::CudaInOrder:
  case InstrTimeline::Sm80CpAsync:
  case InstrTimeline::TmaToSmemAsync:
  case InstrTimeline::TmaToGmemAsync: return quals({Qual::Cuda1});
  case InstrTimeline::CpuInOrder:
  case InstrTimeline::CpuCudaStream:
  case InstrTimeline::Tcgen05Mma:
  case InstrTimeline::Tcgen05Cp:
  case InstrTimeline::Tcgen05Shift:
  case InstrTimeline::Tcgen05Ld:
  case InstrTimeline::Tcgen05St: return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

std::optional<AccessQuals> access_quals(const analysis::MemoryInfo &mem, InstrTimeline tl) {
  if (!tracked_memory(mem))
    return std::nullopt;
  if (mem.space != MemSpace::Registers) // RAM: shared and global memory
    return ram_quals(mem, tl);
  return register_quals(mem, tl);
}

} // namespace exgc::synclower
