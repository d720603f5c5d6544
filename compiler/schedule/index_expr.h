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
#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// Size and index arguments of `p` and the loop iterators of `ctx`, by name.
std::map<std::string, Expr> index_names(const ProcNode &p, const analysis::Context &ctx);

/// `f` as an index expression (literals, names in `scope`, + - * / % and
/// unary minus; `/` and `%` by positive constants; min, max and select of
/// index expressions, as a proc writes them); null with `bad` naming
/// the first thing that is not one: a quoted name not in `scope` (see
/// names_unknown), or what else is wrong.
Expr build_index_expr(const FragExpr &f, const std::map<std::string, Expr> &scope,
                      std::string &bad);
/// True when build_index_expr's `bad` is a name it does not know; callers
/// report other failures as NotIndexExpr, not as a name out of scope.
inline bool names_unknown(const std::string &bad) { return !bad.empty() && bad.front() == '\''; }

/// `f` as a condition: comparisons of index expressions, `and`, `or`, `not`,
/// True/False and the bool arguments in `bools`; null with `bad` set otherwise.
Expr build_condition(const FragExpr &f, const std::map<std::string, Expr> &scope,
                     const std::map<std::string, Expr> &bools, std::string &bad);

/// `e` (an index expression) in the canonical form of analysis/index_form.h:
/// like terms collected (`i + k - i` is `k`, `(j + 4) - 4` is `j`), divisions
/// and remainders by constants reduced (`n / 4 / 2` is `n / 8`). Terms keep
/// the order of first appearance, positive ones first, then the constant,
/// then the subtracted ones.
Expr simplify_index(const Expr &e);

/// `v` (a script string) parsed as an expression fragment; reports
/// ScriptArgType (expecting `expected`), PatternSyntax or PatternNotSupported
/// and aborts.
FragExprP fragment_arg(Interpreter &in, const PrimArg &arg, const char *expected);

/// A control expression written as a script string `v`, over the size, index
/// and bool arguments of `p` and the iterators of the loops in `ctx`: a
/// condition (build_condition) when `condition`, else an index expression.
/// Checked to be in the index language (the solver translates it, so `/`
/// and `%` are by positive constants). Reports ScriptArgType, PatternSyntax,
/// ExprNotInScope, NotACondition or NotIndexExpr at `loc` and aborts.
Expr control_expr_arg(Interpreter &in, const ProcNode &p, const analysis::Context &ctx,
                      const PrimArg &arg, bool condition);

} // namespace exgc::schedule
