// index_expr.h - index expressions written as strings in schedule scripts --//
// Owns: turning a fragment (`"n"`, `"i % 2"`, `"mo * 64 + 64"`) into an IR
// index expression over the names visible at a statement: the proc's size
// and index arguments and the iterators of the loops around it. Used by the
// primitives that take sizes, indices and windows (expand_dim, stage_mem).
#pragma once
#include <map>
#include <string>

#include "compiler/analysis/dependence.h"
#include "compiler/frontend/fragment.h"
#include "compiler/ir/nodes.h"

namespace exgc::schedule {

/// Size and index arguments of `p` and the loop iterators of `ctx`, by name.
std::map<std::string, Expr> index_names(const ProcNode &p, const analysis::Context &ctx);

/// `f` as an index expression (literals, names in `scope`, + - * / % and
/// unary minus); null with `bad` naming the first thing that is not one.
Expr build_index_expr(const FragExpr &f, const std::map<std::string, Expr> &scope,
                      std::string &bad);

} // namespace exgc::schedule
