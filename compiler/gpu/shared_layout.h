// shared_layout.h - a kernel's arrays: shapes and shared-memory offsets -----//
// Owns: the size of every array a kernel declares and where its shared memory
// lives, decided once in the GPU stage (after the checks that find which
// leading dimensions are distributed over threads or CTAs: those are not
// stored by each owner). The dynamic pool (`extern __shared__`) holds the
// mbarrier rings (8 bytes a slot, first, in task-body order), every
// `Sm90_SmemSwizzled` buffer (1024-byte aligned: TMA and wgmma swizzle by
// address bits) and, in a kernel with warp roles, every `CudaSmemLinear`
// array (16-byte aligned: each role has its own copy of the task body, and
// one offset gives them one array); without roles, `CudaSmemLinear` arrays
// are static `__shared__` arrays. Allocations are placed in the order the
// CUDA backend meets them: the rings, then the task body role by role (a
// role's copy leaves out the `CudaWarps` blocks of other roles). The backend
// prints these offsets and counts; it places nothing itself.
#pragma once
#include <cstdint>
#include <map>

#include "compiler/ir/nodes.h"
#include "compiler/support/diagnostics.h"

namespace exgc::gpu {

struct KernelFacts;

struct SharedLayout {
  std::map<const Alloc *, int64_t> offset;   // in the dynamic pool
  std::map<const Alloc *, int64_t> elements; // of each array one owner declares
  int64_t dynamic_bytes = 0;
  int64_t align = 16;       // of the pool: the largest of its allocations'
  int64_t static_bytes = 0; // `__shared__` arrays (kernels without warp roles)
};

/// What a kernel may declare in static `__shared__` arrays (48 KiB; more
/// needs dynamic shared memory and an opt-in the backend does not make for
/// them).
constexpr int64_t kMaxStaticShared = 48 * 1024;
/// What one CTA may have in all on sm_90 (227 KiB, after the opt-in).
constexpr int64_t kMaxShared = 227 * 1024;

/// Lays out the arrays of the kernel `w`, whose `facts` give (its task nest, warp
/// roles and distributed dimensions known) into `facts.shared`; reports an
/// array whose stored shape is not a positive constant
/// (RegisterShapeNotConstant, SharedShapeNotConstant) or a kernel over the
/// limits (SharedMemoryTooLarge), and returns false.
bool lay_out_arrays(const With *w, KernelFacts &facts, DiagEngine &diag);

} // namespace exgc::gpu
