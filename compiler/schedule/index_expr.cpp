// index_expr.cpp - fragments to index expressions -----------------------------//
#include "compiler/schedule/index_expr.h"

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
    case BinOpKind::Add: case BinOpKind::Sub: case BinOpKind::Mul: case BinOpKind::Div:
    case BinOpKind::Mod:
      return BinOp::make(f.op, a, b);
    default: break;
    }
    break;
  }
  default: break;
  }
  if (bad.empty())
    bad = "this expression form";
  return Expr();
}

} // namespace exgc::schedule
