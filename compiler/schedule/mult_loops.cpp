// mult_loops.cpp - fuse a perfect nest of two loops into one ----------------------//
// mult_loops(p, "i j", name): `for i in seq(lo, hi): for j in seq(a, b): s`,
// with the inner extent c = b - a a positive constant, becomes
// `for name in seq(0, (hi - lo) * c): s[i := lo + name / c, j := a + name % c]`,
// the inverse of divide_loop(perfect=True). The new loop keeps the outer
// loop's mode and id (cursors to the outer loop follow it).
// Checked: the outer loop's body is exactly the inner loop; the inner bounds
// are constants with b > a; `name` is a new name. Nothing else can change:
// name runs through 0 .. (hi - lo) * c - 1 in order, and (lo + name / c, a +
// name % c) runs through the pairs (i, j) in the nest's order, once each (no
// iteration when hi <= lo, as before).
// Fails when: the argument is not "outer inner" or the loops are not
// perfectly nested (LoopsNotPerfectlyNested); the inner bounds are not
// constants (LoopBoundsNotConstant) or the inner loop runs zero times
// (LoopMayNotRun); `name` is not a name (ScriptArgType) or is in use
// (NameInUse).
#include "compiler/ir/fold.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value mult_loops(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  std::string outer_name, inner_name;
  const Value &arg = call.arg("loops").value;
  if (arg.kind != Value::Kind::Str || !two_names(arg.str, outer_name, inner_name))
    fail_arg(in, call.arg("loops"), "\"outer inner\"",
            arg.kind == Value::Kind::Str ? "'" + arg.str + "'" : std::string(arg.type_name()));
  const std::string &name = call.arg("name").value.str;
  if (!is_name(name))
    fail_arg(in, call.arg("name"), "a name", "'" + name + "'");
  Stmt s = stmt_arg(in, p, Value::of_str(outer_name), call.loc);
  const For *outer = s.as<For>();
  const For *inner = outer && outer->body.size() == 1 ? outer->body[0].as<For>() : nullptr;
  if (!inner || inner->iter.name != inner_name)
    in.fail(call.loc, DiagKind::LoopsNotPerfectlyNested, outer_name, inner_name);
  const auto *a = fold_constants(inner->lo).as<IntImm>();
  const auto *b = fold_constants(inner->hi).as<IntImm>();
  if (!a || !b)
    in.fail(call.loc, DiagKind::LoopBoundsNotConstant, inner_name, print_expr(inner->lo),
            print_expr(inner->hi));
  if (b->value <= a->value)
    in.fail(call.loc, DiagKind::LoopMayNotRun, inner_name, print_expr(inner->lo), print_expr(inner->hi));
  if (declared_names(*p).count(name))
    in.fail(call.loc, DiagKind::NameInUse, name, p->name);

  Expr c = IntImm::make(b->value - a->value);
  Sym k = Sym::fresh(name);
  Expr kv = iter_var(k);
  auto plus = [](const Expr &x, const Expr &y) {
    return fold_constants(BinOp::make(BinOpKind::Add, x, y));
  };
  std::map<uint32_t, Expr> subst{
      {outer->iter.id, plus(outer->lo, BinOp::make(BinOpKind::Div, kv, c))},
      {inner->iter.id, plus(inner->lo, BinOp::make(BinOpKind::Mod, kv, c))}};
  Stmt merged = outer->edited([&](For &n) {
    n.iter = k;
    n.lo = IntImm::make(0);
    n.hi = fold_constants(
        BinOp::make(BinOpKind::Mul, BinOp::make(BinOpKind::Sub, outer->hi, outer->lo), c));
    n.body = copy_block(inner->body, subst, false);
  });
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {merged}; }));
}

} // namespace exgc::schedule
