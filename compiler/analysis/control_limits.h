// control_limits.h - the range of control values every check assumes -----//
// Owns: the largest `size` a proc accepts. Z3 reasons over unbounded
// integers, generated code over int64_t; the bounds check proves every sum,
// difference, product and negation of index arithmetic within int64_t, and
// that needs a bound on what comes in. Sizes lie in [1, kMaxSize] and `index`
// arguments in [-kMaxSize, kMaxSize]; generated functions check both at entry
// (an argument outside fails the call, like a violated assert), so a constant
// up to 2^23 times a size still fits in 64 bits.
#pragma once
#include <cstdint>

namespace exgc::analysis {

constexpr int64_t kMaxSize = int64_t(1) << 40;
/// kMaxSize as C++ source, for generated checks.
inline const char *max_size_text() { return "(int64_t(1) << 40)"; }

/// The largest size a CUDA entry point passes to its kernels: sizes there are
/// 32-bit, as cuBLAS's dimensions are; the host function refuses larger ones
/// (docs/abi.md), so kernels may compute in 32 bits what that bounds.
constexpr int64_t kMaxKernelSize = INT32_MAX;
/// kMaxKernelSize as C++ source, for generated checks.
inline const char *max_kernel_size_text() { return "INT32_MAX"; }

/// The alignment in bytes that every backend gives the start of a shared-memory
/// allocation, and the most that `aligned(x, n)` may ask of a buffer's root:
/// a root parameter's alignment is the caller's (checked at entry when an
/// assert states it), an allocation's is this.
constexpr int64_t kAllocAlignBytes = 16;

} // namespace exgc::analysis
