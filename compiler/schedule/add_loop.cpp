// add_loop.cpp - wrap a statement in a new loop ---------------------------------------//
// add_loop(p, stmt, iter, hi, guard=False): `s` becomes `for iter in seq(0,
// hi): s`, or with guard=True `for iter in seq(0, hi): if iter == 0: s`. `hi`
// is an int or an index expression (`"n + m"`, loop_support.h's
// control_arg); the new loop is `seq`.
// Checked: hi >= 1 for every size the asserts and enclosing scopes allow (the
// loop runs at least once, exactly with Z3); without the guard, `s` is
// idempotent (running it hi times is running it once): it reduces into no
// buffer it does not allocate and reads no element it writes.
// Fails when: `iter` is not a name; hi is not a control value; the loop may
// run zero times (counterexample); `s` is not idempotent (notes at the
// accesses); the solver gives up.
#include <cctype>

#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value add_loop(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("stmt").value, call.loc);
  const std::string &name = call.arg("iter").value.str;
  bool ident = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char ch : name)
    ident &= std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  if (!ident)
    fail_arg(in, call.arg("iter"), "a name", "'" + name + "'");
  if (names_in_scope(*p, s).count(name))
    in.fail(call.loc, DiagKind::NameInUse, name, p->name);
  Expr hi = control_arg(in, p, s, call.arg("hi"));
  bool guard = call.arg("guard").value.int_value != 0;
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  require(in, dep, context_at(p, s), BinOp::make(BinOpKind::Ge, hi, IntImm::make(1)), call.loc,
          "that loop '" + name + "' runs at least once", DiagKind::LoopMayNotRun, name, "0", print_expr(hi));
  if (!guard)
    check_idempotent(in, p, s, {s}, name, call.loc);
  Sym it = Sym::fresh(name);
  Block body = {s};
  if (guard)
    body = {If::make(BinOp::make(BinOpKind::Eq, iter_var(it), IntImm::make(0)), {s}, {}, s->loc)};
  Stmt loop = For::make(it, IntImm::make(0), hi, LoopMode{}, body, s->loc);
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {loop}; }));
}

} // namespace exgc::schedule
