// ir_build.h - short builders of IR nodes, for unit tests -----------------//
// The expressions most tests build by hand, in one place (each test file
// once had its own copies): literals, names, operators, reads and the
// global names of memories and units. Locations default to none; a test that
// checks where a diagnostic points passes one.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc::testing {

inline Expr lit(int64_t v, SrcLoc loc = {}) { return IntImm::make(v, loc); }

/// A control value (an index unless `type` says otherwise).
inline Expr var(const Sym &s, ValueType type = ValueType::Index, SrcLoc loc = {}) {
  return Var::make(s, type, loc);
}

inline Expr bin(BinOpKind op, Expr a, Expr b, SrcLoc loc = {}) {
  return BinOp::make(op, std::move(a), std::move(b), loc);
}

/// `b[idx]` of f32 data unless `type` says otherwise.
inline Expr rd(const Sym &b, std::vector<Expr> idx, ValueType type = ValueType::F32,
               SrcLoc loc = {}) {
  return Read::make(b, std::move(idx), type, loc);
}

/// A name no declaration binds: a memory, unit or timeline (`CudaGmemLinear`).
inline Expr global(const char *name) { return Var::make(Sym::global(name), ValueType::Meta); }

} // namespace exgc::testing
