// const_int.h - constant control expressions --------------------------------//
// Owns: const_int, the folder the GPU stage and the backends share for a
// shape, unroll count or ring size that must be a compile-time constant:
// literals and + - * / % of them, each operand within +-2^31 (the generated
// code computes the same values in int64_t, so folding never overflows where
// it would not).
#pragma once
#include <cstdint>

#include "compiler/ir/nodes.h"

namespace exgc::analysis {

/// The value of a constant control expression; false when it is not one.
bool const_int(const Expr &e, int64_t &out);

} // namespace exgc::analysis
