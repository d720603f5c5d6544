// rewrite_expr.cpp - replace a control expression by an equal one -----------------//
// rewrite_expr(p, expr, new): `expr` is an expression pattern (optionally
// ` #n`); its first match in program order (the n-th), a control value (an
// index, size or condition), is replaced by `new`, written in proc syntax
// over the size, index and bool arguments and the iterators of the loops
// around the statement that holds the match:
//   for i in seq(0, n): x[i / 4 * 4 + i % 4] = ..  -- ("i / 4 * 4 + i % 4", "i") -->  x[i]
// Checked: `expr == new` at every point the statement runs (IndexSolver,
// under the asserts and the loops and ifs around it), so the value is the
// same wherever it is used. Data values are not rewritten (the solver does
// not reason about them).
// Fails when: the pattern does not parse or matches nothing (PatternSyntax,
// PatternNoMatch); the match is a data value (NotIndexExpr); `new` does not
// parse, names something not visible there (ExprNotInScope), or is not an
// expression of the same kind in the index language (NotIndexExpr,
// NotACondition); the two may differ (ExprsMayDiffer, counterexample); the
// solver gives up (SolverUnknown).
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value rewrite_expr(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  NodeId holder = 0;
  Expr old = expr_arg(in, p, call.arg("expr"), holder);
  if (!is_control(old->type))
    in.fail(call.loc, DiagKind::NotIndexExpr, print_expr(old), "it is a data value");
  analysis::Context ctx;
  EXGC_CHECK(analysis::context_of(*p, holder, ctx)) << "holder not in proc";
  bool condition = old->type == ValueType::Bool;
  Expr with = control_expr_arg(in, *p, ctx, call.arg("new"), condition);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  require(in, dep, ctx, BinOp::make(BinOpKind::Eq, old, with), call.loc,
          "that '" + print_expr(old) + "' equals '" + print_expr(with) + "'", DiagKind::ExprsMayDiffer,
          print_expr(old), print_expr(with));
  return Value::of_proc(replace_expr(p, holder, old, with));
}

} // namespace exgc::schedule
