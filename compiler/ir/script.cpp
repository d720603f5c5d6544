// script.cpp - builders for the schedule-script AST -----------------------//
#include "compiler/ir/script.h"

namespace exgc::script {
namespace {
std::shared_ptr<ExprNode> node(ExprKind k, SrcLoc loc) {
  auto n = std::make_shared<ExprNode>();
  n->kind = k;
  n->loc = loc;
  return n;
}
std::shared_ptr<StmtNode> snode(StmtKind k, SrcLoc loc) {
  auto n = std::make_shared<StmtNode>();
  n->kind = k;
  n->loc = loc;
  return n;
}
} // namespace

Expr name(std::string n, SrcLoc loc) {
  auto e = node(ExprKind::Name, loc);
  e->text = std::move(n);
  return e;
}
Expr int_lit(int64_t v, SrcLoc loc) {
  auto e = node(ExprKind::Int, loc);
  e->int_value = v;
  return e;
}
Expr str_lit(std::string s, SrcLoc loc) {
  auto e = node(ExprKind::Str, loc);
  e->text = std::move(s);
  return e;
}
Expr bool_lit(bool b, SrcLoc loc) {
  auto e = node(ExprKind::Bool, loc);
  e->int_value = b;
  return e;
}
Expr list(std::vector<Expr> items, SrcLoc loc) {
  auto e = node(ExprKind::List, loc);
  e->items = std::move(items);
  return e;
}
Expr call(Expr callee, std::vector<Expr> args, std::vector<KwArg> kwargs, SrcLoc loc) {
  auto e = node(ExprKind::Call, loc);
  e->callee = std::move(callee);
  e->items = std::move(args);
  e->kwargs = std::move(kwargs);
  return e;
}
Expr attr(Expr obj, std::string field, SrcLoc loc) {
  auto e = node(ExprKind::Attr, loc);
  e->callee = std::move(obj);
  e->text = std::move(field);
  return e;
}
Expr index(Expr obj, Expr idx, SrcLoc loc) {
  auto e = node(ExprKind::Index, loc);
  e->callee = std::move(obj);
  e->items = {std::move(idx)};
  return e;
}
Expr slice(Expr lo, Expr hi, SrcLoc loc) {
  auto e = node(ExprKind::Slice, loc);
  e->items = {std::move(lo), std::move(hi)};
  return e;
}
Expr binop(std::string op, Expr a, Expr b, SrcLoc loc) {
  auto e = node(ExprKind::BinOp, loc);
  e->text = std::move(op);
  e->items = {std::move(a), std::move(b)};
  return e;
}
Expr unop(std::string op, Expr a, SrcLoc loc) {
  auto e = node(ExprKind::UnOp, loc);
  e->text = std::move(op);
  e->items = {std::move(a)};
  return e;
}

Stmt assign(std::string target, Expr value, SrcLoc loc) {
  auto s = snode(StmtKind::Assign, loc);
  s->target = std::move(target);
  s->value = std::move(value);
  return s;
}
Stmt expr_stmt(Expr value, SrcLoc loc) {
  auto s = snode(StmtKind::ExprStmt, loc);
  s->value = std::move(value);
  return s;
}
Stmt if_stmt(Expr cond, Block body, Block orelse, SrcLoc loc) {
  auto s = snode(StmtKind::If, loc);
  s->value = std::move(cond);
  s->body = std::move(body);
  s->orelse = std::move(orelse);
  return s;
}
Stmt for_stmt(std::string target, Expr iter, Block body, SrcLoc loc) {
  auto s = snode(StmtKind::For, loc);
  s->target = std::move(target);
  s->value = std::move(iter);
  s->body = std::move(body);
  return s;
}
Stmt return_stmt(Expr value, SrcLoc loc) {
  auto s = snode(StmtKind::Return, loc);
  s->value = std::move(value);
  return s;
}
Stmt pass_stmt(SrcLoc loc) { return snode(StmtKind::Pass, loc); }

int binop_precedence(const std::string &op) {
  if (op == "or")
    return 1;
  if (op == "and")
    return 2;
  if (op == "+" || op == "-")
    return 5;
  if (op == "*" || op == "/" || op == "%")
    return 6;
  return 4; // comparisons
}

} // namespace exgc::script
