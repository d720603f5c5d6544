// program.cpp - constructors and expression printing for sync programs ---//
#include "compiler/sync/program.h"

#include <algorithm>

namespace exgc::sync {

std::string SrcLoc::str() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

Expr ExprNode::make_int(int64_t v) {
  auto e = std::make_shared<ExprNode>();
  e->kind = ExprKind::Int;
  e->value = v;
  return e;
}

Expr ExprNode::make_var(std::string n) {
  auto e = std::make_shared<ExprNode>();
  e->kind = ExprKind::Var;
  e->name = std::move(n);
  return e;
}

Expr ExprNode::make(ExprKind k, Expr a, Expr b) {
  auto e = std::make_shared<ExprNode>();
  e->kind = k;
  e->a = std::move(a);
  e->b = std::move(b);
  e->height = 1 + std::max(e->a ? e->a->height : 0, e->b ? e->b->height : 0);
  return e;
}

namespace {
// Binding strength, for printing the fewest parentheses that parse back.
int prec(ExprKind k) {
  switch (k) {
  case ExprKind::Or: return 1;
  case ExprKind::And: return 2;
  case ExprKind::Not: return 3;
  case ExprKind::Lt: case ExprKind::Le: case ExprKind::Gt: case ExprKind::Ge:
  case ExprKind::Eq: case ExprKind::Ne: return 4;
  case ExprKind::Add: case ExprKind::Sub: return 5;
  case ExprKind::Mul: case ExprKind::Div: case ExprKind::Mod: return 6;
  case ExprKind::Neg: return 7;
  case ExprKind::Int: case ExprKind::Var: return 8;
  }
  return 0;
}

const char *op_text(ExprKind k) {
  switch (k) {
  case ExprKind::Add: return " + ";
  case ExprKind::Sub: return " - ";
  case ExprKind::Mul: return " * ";
  case ExprKind::Div: return " / ";
  case ExprKind::Mod: return " % ";
  case ExprKind::Lt: return " < ";
  case ExprKind::Le: return " <= ";
  case ExprKind::Gt: return " > ";
  case ExprKind::Ge: return " >= ";
  case ExprKind::Eq: return " == ";
  case ExprKind::Ne: return " != ";
  case ExprKind::And: return " and ";
  case ExprKind::Or: return " or ";
  default: return " ? ";
  }
}

std::string wrap(const Expr &e, int min_prec) {
  std::string s = expr_string(e);
  return prec(e->kind) < min_prec ? "(" + s + ")" : s;
}
} // namespace

std::string expr_string(const Expr &e) {
  switch (e->kind) {
  case ExprKind::Int:
    return e->value < 0 ? "(" + std::to_string(e->value) + ")" : std::to_string(e->value);
  case ExprKind::Var: return e->name;
  case ExprKind::Neg: return "-" + wrap(e->a, prec(ExprKind::Neg));
  case ExprKind::Not: return "not " + wrap(e->a, prec(ExprKind::Not));
  default: {
    int p = prec(e->kind);
    // Left-associative: the right operand needs parentheses at equal strength.
    return wrap(e->a, p) + op_text(e->kind) + wrap(e->b, p + 1);
  }
  }
}

StmtP make_stmt(StmtKind k, SrcLoc loc) {
  auto s = std::make_unique<Stmt>();
  s->kind = k;
  s->loc = std::move(loc);
  return s;
}

} // namespace exgc::sync
