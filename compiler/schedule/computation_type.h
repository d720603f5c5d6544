// computation_type.h - the type data is computed in, for steps that move it //
// Owns: the rule steps that move a data expression between a scalar and the
// statements using it must keep (docs/language.md, "Data semantics"): data
// is computed in the type of the value it is stored into. `t: i8 = x * 3;
// y = t + 1` (y: i32) wraps the product to i8; `y = x * 3 + 1` does not. So
// an expression computed into a scalar of type T and the same expression
// computed where the scalar is read agree only when each reading statement
// computes in T, or when the expression is a read of data of type T (the
// scalar then holds that value exactly). bind_expr, inline_assign, inline
// and replace ask it.
#pragma once
#include <vector>

#include "compiler/ir/nodes.h"
#include "compiler/ir/symbols.h"

namespace exgc::schedule {

/// The type a statement computes its right-hand side in: the element type of
/// the buffer an assignment or reduction stores into (R, no precision chosen
/// yet, is computed as f32). R for any other statement or an unknown buffer.
ValueType computed_in(const ProcSymbols &names, const Stmt &s);

/// The machine type of a scalar of type `t`: R is computed as f32.
inline ValueType machine_type(ValueType t) { return t == ValueType::R ? ValueType::F32 : t; }

/// True when `value` reads one data value of type `held` (a buffer element or
/// a scalar), or is a literal `held` represents exactly: a scalar of type
/// `held` assigned `value` holds it exactly.
bool is_copy_of_type(const ProcSymbols &names, const Expr &value, ValueType held);

/// The assignments and reductions of `b` (nested ones too) whose right-hand
/// side reads the buffer or scalar `x`.
std::vector<Stmt> statements_reading(const Block &b, uint32_t x);

/// The first statement of `readers` that computes in another type than
/// `held`, unless `value` is a copy of data of type `held`; null when moving
/// `value` between a `held` scalar and the readers keeps every result.
Stmt first_other_computation(const ProcSymbols &names, const Expr &value, ValueType held,
                             const std::vector<Stmt> &readers);

} // namespace exgc::schedule
