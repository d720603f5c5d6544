// prelude.h - helper functions every generated file defines ---------------//
// Owns: the text of the small helpers the expression emitter calls
// (floor division, min/max, sqrt, relu, abs). The CPU reference defines them
// in its own anonymous namespace so it needs no runtime header; CUDA output
// gets the same names, __host__ __device__, from runtime/include/exg/runtime.h.
#pragma once

namespace exgc::codegen {

/// C++ text defining exg_floordiv, exg_floormod, exg_min, exg_max, exg_sqrt,
/// exg_relu and exg_abs as static inline functions.
const char *cpu_prelude();

/// C++ text defining exg_unset<T>() and exg_unset_fill(p, n), the first
/// values of allocations under the difftest's model (emit_cpp), and the seed
/// `exg_unset_seed` that chooses them: 0 gives zeros, as the plain reference.
const char *unset_prelude();

} // namespace exgc::codegen
