// specialize.cpp - copy a block into an if/elif/else chain ------------------------//
// specialize(p, block, conds): `block` (a statement, a block cursor, or a
// pattern) becomes `if c1: B elif c2: B ... else: B`, one copy of the block
// per condition and one for the else branch. `conds` is a condition or a list
// of them, written in proc syntax over the size, index and bool arguments and
// the iterators of the loops around the block: comparisons of index
// expressions, `and`, `or`, `not`:
//   specialize(p, "for i in _: _", ["n % 4 == 0", "n < 8"])
// The first copy keeps the statements' ids (cursors follow it); the others
// get fresh ids and fresh bindings with the same names (the branches are
// separate scopes).
// Checked: every branch is the block itself, so whichever runs, the same
// code runs; the conditions are control values (never written by a
// statement) in the index language (the solver can translate them, so they
// are defined: `/` and `%` only by positive constants), and evaluating them
// has no effect. Nothing the block declares at its top level is used after
// it (the if would hide it).
// Fails when: a condition does not parse (PatternSyntax), names something
// not visible at the block (ExprNotInScope), is not a condition in the index
// language (NotACondition); `conds` is empty or not strings (ScriptArgType);
// a declaration of the block is used after it (DeclUsedAfterBlock).
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value specialize(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Located l;
  Block stmts = block_arg(in, p, call.arg("block").value, call.loc, "specialize", &l);
  analysis::Context ctx = context_at(p, stmts.front());
  PrimArg cv = call.arg("conds");
  std::vector<Value> items =
      cv.value.kind == Value::Kind::List ? *cv.value.list : std::vector<Value>{cv.value};
  if (items.empty())
    fail_arg(in, cv,
            "at least one condition", "an empty list");
  std::vector<Expr> conds;
  for (const Value &v : items)
    conds.push_back(control_expr_arg(in, *p, ctx, cv.with(v), true));
  check_decls_not_used_after(in, l, stmts, call.loc);
  // One copy per condition plus the else: refuse before building past the budget.
  int64_t block = count_stmts(stmts), copies = static_cast<int64_t>(conds.size()) + 1;
  in.require_proc_size(call.loc, p->name,
                       count_stmts(p->body) - block + copies * (block + 1) - 1);

  // Built from the else branch up: else_body, then `if cN: B else: ...`.
  Block chain = copy_block(stmts, {}, true);
  for (size_t k = conds.size(); k-- > 0;) {
    Block body = k == 0 ? stmts : copy_block(stmts, {}, true);
    chain = {If::make(conds[k], body, chain, call.loc)};
  }
  return Value::of_proc(replace_block(p, stmts, chain));
}

} // namespace exgc::schedule
