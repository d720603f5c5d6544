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

} // namespace exgc::codegen
