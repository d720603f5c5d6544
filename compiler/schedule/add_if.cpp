// add_if.cpp - wrap a block in an if whose condition always holds -----------------//
// add_if(p, block, cond): `block` (a statement, a block cursor or a pattern)
// becomes `if cond: block`; its statements keep their ids. `cond` is written
// in proc syntax over the size, index and bool arguments and the iterators of
// the loops around the block (as for specialize).
// Checked: `cond` holds at every point the block runs (IndexSolver, under the
// asserts and the loops and ifs around it), so the if always runs the block,
// or the block is only synchronization (Fence, Arrive, Await, also inside
// loops, ifs and `with`), which does nothing sequentially, so skipping it
// keeps the meaning (design G12: the GEMM's `if k >= 1` around the retire and
// free of the previous K step; whether the program still synchronizes is the
// sync checker's question); nothing the block declares at its top level is
// used after it. Exo's add_if has only an unchecked mode; here an if that may
// skip code with an effect is refused.
// Fails when: `cond` does not parse, names something not visible there, or
// is not a condition in the index language (PatternSyntax, ExprNotInScope,
// NotACondition); it may be false (CondMayBeFalse, counterexample); a
// declaration of the block is used after it (DeclUsedAfterBlock); the solver
// gives up (SolverUnknown).
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {
/// Are `b`'s statements all synchronization, directly or inside loops, ifs
/// and `with` blocks (whose bounds and conditions are control values, read
/// without effect)?
bool only_sync(const Block &b) {
  for (const Stmt &s : b) {
    if (s.as<Fence>() || s.as<Arrive>() || s.as<Await>())
      continue;
    if (const auto *f = s.as<For>(); f && only_sync(f->body))
      continue;
    if (const auto *i = s.as<If>(); i && only_sync(i->then_body) && only_sync(i->else_body))
      continue;
    if (const auto *w = s.as<With>(); w && only_sync(w->body))
      continue;
    return false;
  }
  return true;
}
} // namespace

Value add_if(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Located l;
  Block stmts = block_arg(in, p, call.arg("block").value, call.loc, "add_if", &l);
  analysis::Context ctx = context_at(p, stmts.front());
  Expr cond = control_expr_arg(in, *p, ctx, call.arg("cond"), true);
  if (!only_sync(stmts)) {
    analysis::IndexSolver solver;
    analysis::DependenceAnalyzer dep(solver);
    require(in, dep, ctx, cond, call.loc, "that '" + print_expr(cond) + "' holds",
            DiagKind::CondMayBeFalse, print_expr(cond));
  }
  check_decls_not_used_after(in, l, stmts, call.loc);
  return Value::of_proc(replace_block(p, stmts, {If::make(cond, stmts, {}, call.loc)}));
}

} // namespace exgc::schedule
