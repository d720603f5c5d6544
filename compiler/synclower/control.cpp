// control.cpp - control values of a lowered proc ---------------------------//
#include "compiler/synclower/control.h"

namespace exgc::synclower {

std::string ControlNames::fresh(const std::string &base) {
  std::string name = base;
  for (int n = 1; used_.count(name); ++n)
    name = base + "_" + std::to_string(n);
  used_.insert(name);
  return name;
}

std::string ControlNames::bind(const Sym &s) { return names_[s.id] = fresh(s.name); }

const std::string *ControlNames::find(const Sym &s) const {
  auto it = names_.find(s.id);
  return it == names_.end() ? nullptr : &it->second;
}

void ControlNames::release(const Sym &s) {
  auto it = names_.find(s.id);
  if (it == names_.end())
    return;
  used_.erase(it->second);
  names_.erase(it);
}

namespace {

sync::ExprKind sync_binop(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add: return sync::ExprKind::Add;
  case BinOpKind::Sub: return sync::ExprKind::Sub;
  case BinOpKind::Mul: return sync::ExprKind::Mul;
  case BinOpKind::Div: return sync::ExprKind::Div;
  case BinOpKind::Mod: return sync::ExprKind::Mod;
  case BinOpKind::Lt: return sync::ExprKind::Lt;
  case BinOpKind::Le: return sync::ExprKind::Le;
  case BinOpKind::Gt: return sync::ExprKind::Gt;
  case BinOpKind::Ge: return sync::ExprKind::Ge;
  case BinOpKind::Eq: return sync::ExprKind::Eq;
  case BinOpKind::Ne: return sync::ExprKind::Ne;
  case BinOpKind::And: return sync::ExprKind::And;
  case BinOpKind::Or: return sync::ExprKind::Or;
  }
  return sync::ExprKind::Add;
}

} // namespace

sync::Expr to_sync(const Expr &e, const ControlNames &names, Expr *bad) {
  auto refuse = [&]() -> sync::Expr {
    if (!*bad)
      *bad = e;
    return nullptr;
  };
  if (!e || !is_control(e->type))
    return refuse();
  if (const auto *i = e.as<IntImm>())
    return sync::ExprNode::make_int(i->value);
  if (const auto *b = e.as<BoolImm>())
    return sync::ExprNode::make_int(b->value ? 1 : 0);
  if (const auto *v = e.as<Var>()) {
    const std::string *n = names.find(v->name);
    return n ? sync::ExprNode::make_var(*n) : refuse();
  }
  if (const auto *u = e.as<UnOp>()) {
    sync::Expr a = to_sync(u->a, names, bad);
    if (!a)
      return nullptr;
    return sync::ExprNode::make(u->op == UnOpKind::Neg ? sync::ExprKind::Neg : sync::ExprKind::Not,
                                a);
  }
  if (const auto *b = e.as<BinOp>()) {
    sync::Expr x = to_sync(b->a, names, bad);
    sync::Expr y = x ? to_sync(b->b, names, bad) : nullptr;
    if (!y)
      return nullptr;
    return sync::ExprNode::make(sync_binop(b->op), x, y);
  }
  if (const auto *c = e.as<Call>(); c && (c->func == "min" || c->func == "max") &&
                                    c->args.size() == 2) {
    // min(a, b) = a * (a <= b) + b * (1 - (a <= b)); max likewise with >=.
    sync::Expr a = to_sync(c->args[0], names, bad);
    sync::Expr b = a ? to_sync(c->args[1], names, bad) : nullptr;
    if (!b)
      return nullptr;
    auto take_a = sync::ExprNode::make(c->func == "min" ? sync::ExprKind::Le : sync::ExprKind::Ge,
                                       a, b);
    auto one = sync::ExprNode::make_int(1);
    return sync::ExprNode::make(
        sync::ExprKind::Add, sync::ExprNode::make(sync::ExprKind::Mul, a, take_a),
        sync::ExprNode::make(sync::ExprKind::Mul, b,
                             sync::ExprNode::make(sync::ExprKind::Sub, one, take_a)));
  }
  return refuse(); // a data read, another built-in: not control the checker can follow
}

} // namespace exgc::synclower
