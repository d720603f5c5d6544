// memories.h - the built-in memories and barrier mechanisms ---------------//
// Owns: the table of every name that may follow `@` (docs/language.md,
// "Memories") and the facts later stages need
// about each: who may touch it, who owns one copy, how codegen spells an
// element. The typecheck rejects any other name; codegen, the GPU analyses and
// the sync checker read their facts from here rather than from name strings.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/gpu_names.h"
#include "compiler/ir/nodes.h"

namespace exgc::analysis {

/// Every entry of the table, by name: what later stages switch on (a name is
/// resolved once, by resolve_memory or find_memory).
enum class MemId {
  DRAM,
  CudaGmemLinear,
  CudaGridConstant,
  CudaSmemLinear,
  Sm90_SmemSwizzled,
  CudaRmem,
  CudaRmemUniform,
  CudaRmemPacked32,
  Sm90_RmemMatrixA,
  Sm90_RmemMatrixD,
  Sm90_tensorMap,
  CudaMbarrier,
  CudaCommitGroup,
  Sm80_CommitGroup,
  Sm90_TmaCommitGroup,
  Sm90_WgmmaCommitGroup,
  CudaClusterSync,
};

enum class MemKind {
  Memory,           // data lives here (`x: f32[n] @ CudaSmemLinear`)
  BarrierMechanism, // `bar: barrier[...] @ CudaMbarrier`
  SpecialWindow,    // only made by a window statement (`A[:, :] @ Sm90_tensorMap(...)`)
};

/// Where one copy lives, and so who may create it and read it.
enum class MemSpace { Host, DeviceGlobal, GridConstant, Shared, Registers, NoStorage };

struct MemoryInfo {
  MemId id;
  const char *name;
  MemKind kind;
  MemSpace space;
  /// Positional parameters in the annotation (`Sm90_SmemSwizzled(128)`: 1);
  /// kTensorMapParams: a swizzle and one box extent per dimension (1 to 5).
  int num_params;
  /// Keyword parameters accepted (`CudaMbarrier(pre_arrive=4)`), null-terminated.
  const char *const *kwargs;
  bool host_access;   // host code may read and write elements
  bool device_access; // device code may read (and, unless device_read_only, write)
  bool device_read_only;
  bool host_alloc;    // may be allocated / passed at host scope
  bool device_alloc;  // may be allocated inside a CudaDeviceFunction
  bool per_thread;    // one copy per thread (register memories)
  bool needs_const_shape;
  /// The collective that owns one copy (a CTA for shared memory); none for
  /// host memories and tensor maps.
  std::optional<UnitKind> native_unit;
  /// How generated C++ names element (i, j) of buffer x: `{x}` the buffer's
  /// C++ name, `{idx}` the flattened row-major offset. "" when elements are
  /// reached only through instructions (wgmma tiles, barriers, tensor maps).
  const char *cxx_element;
};

/// The whole table: host memories first, then the GPU's, then barriers.
const std::vector<MemoryInfo> &all_memories();
/// `num_params` of a tensor map: 2 to 6 parameters.
constexpr int kTensorMapParams = -1;
/// Why `n` positional parameters do not fit `m` ("takes 1 parameters, got 2"),
/// or "" when they do.
std::string memory_param_count_error(const MemoryInfo &m, size_t n);

/// The entry named `name`, or null.
const MemoryInfo *find_memory(const std::string &name);

/// A memory annotation resolved against the table: `Sm90_SmemSwizzled(128)`
/// is {info, params {128}}; `CudaMbarrier(pre_arrive=4)` has kwarg_values.
struct MemoryRef {
  const MemoryInfo *info = nullptr;
  std::vector<Expr> params;
  std::vector<KwArg> kwargs;
  SrcLoc loc;
  explicit operator bool() const { return info != nullptr; }
  /// Whether the annotation names memory `id`.
  bool is(MemId id) const { return info && info->id == id; }
  /// The integer literal of parameter i, or `fallback` when it is not one.
  int64_t int_param(size_t i, int64_t fallback = 0) const;
  const Expr *kwarg(const std::string &key) const;
};

/// Splits an annotation expression (`Var` or `Call`) into name and parameters
/// and looks the name up; `info` is null when the name is not in the table.
/// A null `mem` (no `@` in the source) resolves to DRAM. The typecheck reports
/// every malformed annotation, so later stages may rely on the result.
MemoryRef resolve_memory(const Expr &mem);
/// Allocations in `mem` start kAllocAlignBytes-aligned (control_limits.h) in
/// every backend: shared memory (static `__shared__ __align__`, the dynamic
/// pool, the CPU reference's `alignas`). The bounds check proves aligned()
/// from it; the backends keep it.
bool starts_aligned(const Expr &mem);
/// The spelled name of an annotation (`Sm90_SmemSwizzled`), "" when it has none.
std::string memory_name(const Expr &mem);

} // namespace exgc::analysis
