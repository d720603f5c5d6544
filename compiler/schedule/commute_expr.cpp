// commute_expr.cpp - swap the operands of a sum or a product ----------------------//
// commute_expr(p, exprs): `exprs` is an expression pattern (or a list of
// them), optionally with ` #n`; the first match in program order (the n-th
// with #n), which must be a `+` or a `*`, gets its operands swapped:
//   y[i] = a[i] * b[i]  -- ("a[_] * b[_]") -->  y[i] = b[i] * a[i]
// Checked: the operator is `+` or `*`, which commute on integers, on reals,
// and also in IEEE floating point (a + b and b + a round to the same value),
// so the value is the same bit for bit. Both operands are evaluated with no
// effect, so their order does not matter either.
// Fails when: a pattern does not parse (PatternSyntax, PatternNotSupported)
// or matches nothing (PatternNoMatch); the match is not a sum or a product
// (NotCommutative).
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// `expr` names one expression (one element of the `exprs` list).
Proc commute_one(Interpreter &in, const Proc &p, const PrimArg &expr) {
  SrcLoc loc = expr.loc;
  NodeId holder = 0;
  Expr e = expr_arg(in, p, expr, holder);
  const auto *b = e.as<BinOp>();
  if (!b || (b->op != BinOpKind::Add && b->op != BinOpKind::Mul))
    in.fail(loc, DiagKind::NotCommutative, print_expr(e));
  return replace_expr(p, holder, e, BinOp::make(b->op, b->b, b->a, b->loc));
}

} // namespace

Value commute_expr(Interpreter &in, const CallSite &call) {
  Proc p = call.proc();
  PrimArg exprs = call.arg("exprs");
  if (exprs.value.kind == Value::Kind::List) {
    for (const Value &item : *exprs.value.list)
      p = commute_one(in, p, exprs.with(item));
    return Value::of_proc(p);
  }
  return Value::of_proc(commute_one(in, p, exprs));
}

} // namespace exgc::schedule
