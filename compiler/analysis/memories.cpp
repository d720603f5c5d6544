// memories.cpp - the table of built-in memories ---------------------------//
#include "compiler/analysis/memories.h"

namespace exgc::analysis {

namespace {

const char *const kNoKwargs[] = {nullptr};
const char *const kMbarrierKwargs[] = {"pre_arrive", nullptr};

using M = MemId;
using K = MemKind;
using S = MemSpace;
using U = UnitKind;
const std::optional<UnitKind> kNoUnit; // host memories, tensor maps

// Columns: id, name, kind, space, #params, kwargs, host_access, device_access,
// device_read_only, host_alloc, device_alloc, per_thread, needs_const_shape,
// native_unit, cxx_element.
const std::vector<MemoryInfo> kMemories = {
    {M::DRAM, "DRAM", K::Memory, S::Host, 0, kNoKwargs, true, false, false, true, false, false,
     false, kNoUnit, "{x}[{idx}]"},
    // Device global memory, allocated by the host (cudaMallocAsync): the host
    // only passes it on; kernels read and write it.
    {M::CudaGmemLinear, "CudaGmemLinear", K::Memory, S::DeviceGlobal, 0, kNoKwargs, false, true,
     false, true, false, false, false, kNoUnit, "{x}[{idx}]"},
    // A by-value kernel argument: written on the host, read-only on the device.
    {M::CudaGridConstant, "CudaGridConstant", K::Memory, S::GridConstant, 0, kNoKwargs, true, true,
     true, true, false, false, true, kNoUnit, "{x}[{idx}]"},
    {M::CudaSmemLinear, "CudaSmemLinear", K::Memory, S::Shared, 0, kNoKwargs, false, true, false,
     false, true, false, true, U::CudaCtaInCluster, "{x}[{idx}]"},
    // Element access goes through the swizzle wrapper (xor of address bits).
    {M::Sm90_SmemSwizzled, "Sm90_SmemSwizzled", K::Memory, S::Shared, 1, kNoKwargs, false, true,
     false, false, true, false, true, U::CudaCtaInCluster, "{x}[{idx}]"},
    {M::CudaRmem, "CudaRmem", K::Memory, S::Registers, 0, kNoKwargs, false, true, false, false,
     true, true, true, U::CudaThread, "{x}[{idx}]"},
    {M::CudaRmemUniform, "CudaRmemUniform", K::Memory, S::Registers, 1, kNoKwargs, false, true,
     false, false, true, true, true, U::CudaThread, "{x}[{idx}]"},
    {M::CudaRmemPacked32, "CudaRmemPacked32", K::Memory, S::Registers, 0, kNoKwargs, false, true,
     false, false, true, true, true, U::CudaThread, "{x}[{idx}]"},
    // wgmma operand and accumulator tiles: fragments spread over a warpgroup,
    // touched only by instructions.
    {M::Sm90_RmemMatrixA, "Sm90_RmemMatrixA", K::Memory, S::Registers, 0, kNoKwargs, false, true,
     false, false, true, false, true, U::CudaWarpgroup, ""},
    {M::Sm90_RmemMatrixD, "Sm90_RmemMatrixD", K::Memory, S::Registers, 0, kNoKwargs, false, true,
     false, false, true, false, true, U::CudaWarpgroup, ""},
    // Host-encoded TMA descriptor over a CudaGmemLinear tensor: (swizzle
    // bytes, then the box's extent in each dimension, outermost first).
    // Accessed by TMA instructions only.
    {M::Sm90_tensorMap, "Sm90_tensorMap", K::SpecialWindow, S::GridConstant, kTensorMapParams,
     kNoKwargs, false, true, true, true, false, false, false, kNoUnit, ""},
    {M::CudaMbarrier, "CudaMbarrier", K::BarrierMechanism, S::Shared, 0, kMbarrierKwargs, false,
     true, false, false, true, false, false, U::CudaCtaInCluster, ""},
    {M::CudaCommitGroup, "CudaCommitGroup", K::BarrierMechanism, S::NoStorage, 0, kNoKwargs, false,
     true, false, false, true, false, false, U::CudaThread, ""},
    {M::Sm80_CommitGroup, "Sm80_CommitGroup", K::BarrierMechanism, S::NoStorage, 0, kNoKwargs,
     false, true, false, false, true, false, false, U::CudaThread, ""},
    {M::Sm90_TmaCommitGroup, "Sm90_TmaCommitGroup", K::BarrierMechanism, S::NoStorage, 0, kNoKwargs,
     false, true, false, false, true, false, false, U::CudaWarp, ""},
    {M::Sm90_WgmmaCommitGroup, "Sm90_WgmmaCommitGroup", K::BarrierMechanism, S::NoStorage, 0,
     kNoKwargs, false, true, false, false, true, false, false, U::CudaWarpgroup, ""},
    {M::CudaClusterSync, "CudaClusterSync", K::BarrierMechanism, S::NoStorage, 0, kNoKwargs, false,
     true, false, false, true, false, false, U::CudaCluster, ""},
};

} // namespace

const std::vector<MemoryInfo> &all_memories() { return kMemories; }

const MemoryInfo *find_memory(const std::string &name) {
  for (const MemoryInfo &m : kMemories)
    if (name == m.name)
      return &m;
  return nullptr;
}

std::string memory_param_count_error(const MemoryInfo &m, size_t n) {
  if (m.num_params == kTensorMapParams)
    return n >= 2 && n <= 6 ? ""
                            : "takes a swizzle and 1 to 5 box extents, got " + std::to_string(n) +
                                  " parameters";
  if (n == static_cast<size_t>(m.num_params))
    return "";
  return "takes " + std::to_string(m.num_params) + " parameters, got " + std::to_string(n);
}

int64_t MemoryRef::int_param(size_t i, int64_t fallback) const {
  if (i >= params.size())
    return fallback;
  if (const auto *imm = params[i].as<IntImm>())
    return imm->value;
  return fallback;
}

const Expr *MemoryRef::kwarg(const std::string &key) const {
  for (const KwArg &k : kwargs)
    if (k.key == key)
      return &k.value;
  return nullptr;
}

std::string memory_name(const Expr &mem) {
  if (const auto *v = mem.as<Var>())
    return v->name.name;
  if (const auto *c = mem.as<Call>())
    return c->func;
  return "";
}

bool starts_aligned(const Expr &mem) {
  const MemoryInfo *m = resolve_memory(mem).info;
  return m && m->space == MemSpace::Shared;
}

MemoryRef resolve_memory(const Expr &mem) {
  MemoryRef r;
  if (!mem) {
    r.info = find_memory("DRAM");
    return r;
  }
  r.loc = mem->loc;
  r.info = find_memory(memory_name(mem));
  if (const auto *c = mem.as<Call>()) {
    r.params = c->args;
    r.kwargs = c->kwargs;
  }
  return r;
}

} // namespace exgc::analysis
