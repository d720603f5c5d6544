// index_expr.cpp - fragments to index expressions -----------------------------//
#include "compiler/schedule/index_expr.h"


#include "compiler/analysis/index_form.h"
#include "compiler/analysis/solver.h"
#include "compiler/ir/fold.h"
#include "compiler/ir/printer.h"

namespace exgc::schedule {

std::map<std::string, Expr> index_names(const ProcNode &p, const analysis::Context &ctx) {
  std::map<std::string, Expr> scope;
  for (const Arg &arg : p.args)
    if (arg.type.kind == Type::Kind::Control && arg.type.scalar != ValueType::Bool)
      scope[arg.name.name] = Var::make(arg.name, arg.type.scalar);
  for (const analysis::Scope &sc : ctx.scopes)
    if (sc.is_loop)
      scope[sc.iter.name] = Var::make(sc.iter, ValueType::Index);
  return scope;
}

Expr build_index_expr(const FragExpr &f, const std::map<std::string, Expr> &scope,
                      std::string &bad) {
  switch (f.kind) {
  case FragExpr::Kind::Int: return IntImm::make(f.int_value);
  case FragExpr::Kind::Name: {
    auto it = scope.find(f.text);
    if (it != scope.end())
      return it->second;
    bad = "'" + f.text + "'";
    return Expr();
  }
  case FragExpr::Kind::Neg: {
    Expr a = build_index_expr(*f.items[0], scope, bad);
    if (const auto *i = a.as<IntImm>())
      return IntImm::make(-i->value);
    return a ? UnOp::make(UnOpKind::Neg, a) : Expr();
  }
  case FragExpr::Kind::BinOp: {
    Expr a = build_index_expr(*f.items[0], scope, bad);
    Expr b = a ? build_index_expr(*f.items[1], scope, bad) : Expr();
    if (!a || !b)
      return Expr();
    switch (f.op) {
    case BinOpKind::Div: case BinOpKind::Mod:
      // Floor division is by a positive constant (docs/language.md): say so
      // here rather than leave `n / 0` to a solver that gives up.
      if (const auto *d = fold_constants(b).as<IntImm>(); d && d->value < 1) {
        bad = "it divides by " + std::to_string(d->value) +
              " ('/' and '%' take a positive constant)";
        return Expr();
      }
      return BinOp::make(f.op, a, b);
    case BinOpKind::Add: case BinOpKind::Sub: case BinOpKind::Mul:
      return BinOp::make(f.op, a, b);
    default: break;
    }
    break;
  }
  case FragExpr::Kind::Call: {
    // min, max and select of index values, as in a proc (docs/language.md).
    const size_t arity = f.text == "select" ? 4 : f.text == "min" || f.text == "max" ? 2 : 0;
    if (arity == 0 || f.items.size() != arity || !f.kwargs.empty())
      break;
    std::vector<Expr> args;
    for (const FragExprP &item : f.items) {
      args.push_back(build_index_expr(*item, scope, bad));
      if (!args.back())
        return Expr();
    }
    return Call::make(f.text, std::move(args), {});
  }
  default: break;
  }
  if (bad.empty())
    bad = "this expression form";
  return Expr();
}

Expr simplify_index(const Expr &e) {
  if (!e || !is_control(e->type) || e->type == ValueType::Bool)
    return e;
  return analysis::canonical_index(e);
}

Expr build_condition(const FragExpr &f, const std::map<std::string, Expr> &scope,
                     const std::map<std::string, Expr> &bools, std::string &bad) {
  switch (f.kind) {
  case FragExpr::Kind::Bool: return BoolImm::make(f.int_value != 0);
  case FragExpr::Kind::Name:
    if (auto it = bools.find(f.text); it != bools.end())
      return it->second;
    if (!scope.count(f.text)) {
      bad = "'" + f.text + "'";
      return Expr();
    }
    break;
  case FragExpr::Kind::Not: {
    Expr a = build_condition(*f.items[0], scope, bools, bad);
    return a ? UnOp::make(UnOpKind::Not, a) : Expr();
  }
  case FragExpr::Kind::BinOp: {
    bool logic = f.op == BinOpKind::And || f.op == BinOpKind::Or;
    if (!logic && !is_comparison(f.op))
      break;
    Expr a = logic ? build_condition(*f.items[0], scope, bools, bad)
                   : build_index_expr(*f.items[0], scope, bad);
    if (!a)
      return Expr();
    Expr b = logic ? build_condition(*f.items[1], scope, bools, bad)
                   : build_index_expr(*f.items[1], scope, bad);
    return b ? BinOp::make(f.op, a, b) : Expr();
  }
  default: break;
  }
  if (bad.empty())
    bad = "it is not a condition";
  return Expr();
}

FragExprP fragment_arg(Interpreter &in, const PrimArg &arg, const char *expected) {
  const Value &v = arg.value;
  const SrcLoc loc = arg.loc;
  if (v.kind != Value::Kind::Str)
    fail_arg(in, arg, expected, v.type_name());
  FragExprP f;
  FragmentError err;
  if (!parse_expr_fragment(v.str, f, err))
    in.fail(loc, err.syntax ? DiagKind::PatternSyntax : DiagKind::PatternNotSupported, v.str,
            err.message);
  return f;
}

Expr control_expr_arg(Interpreter &in, const ProcNode &p, const analysis::Context &ctx,
                      const PrimArg &arg, bool condition) {
  const Value &v = arg.value;
  const SrcLoc loc = arg.loc;
  FragExprP f = fragment_arg(in, arg, "a str");
  DiagKind wrong = condition ? DiagKind::NotACondition : DiagKind::NotIndexExpr;
  std::map<std::string, Expr> bools;
  for (const Arg &a : p.args)
    if (a.type.kind == Type::Kind::Control && a.type.scalar == ValueType::Bool)
      bools[a.name.name] = Var::make(a.name, ValueType::Bool);
  std::map<std::string, Expr> scope = index_names(p, ctx);
  std::string bad;
  Expr e = condition ? build_condition(*f, scope, bools, bad) : build_index_expr(*f, scope, bad);
  if (!e) {
    if (names_unknown(bad))
      in.fail(loc, DiagKind::ExprNotInScope, v.str, bad);
    in.fail(loc, wrong, v.str, bad);
  }
  analysis::IndexSolver solver;
  z3::expr t(solver.ctx());
  std::string why;
  if (!solver.translate(e, t, &why) || t.is_bool() != condition)
    in.fail(loc, wrong, v.str,
            why.empty() ? std::string(condition ? "it is not a condition" : "it is not an index") : why);
  return e;
}

} // namespace exgc::schedule
