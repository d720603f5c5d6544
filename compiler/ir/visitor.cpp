// visitor.cpp - default recursion of IRVisitor ----------------------------//
#include "compiler/ir/visitor.h"

namespace exgc {

void IRVisitor::visit(const Expr &e) {
  if (!e)
    return;
  switch (e->kind) {
#define EXGC_EXPR(Name)                                                        \
  case ExprKind::Name:                                                         \
    return visit_node(e.as<Name>());
#include "compiler/ir/node_kinds.def"
  }
  EXGC_UNREACHABLE("expr kind");
}

void IRVisitor::visit(const Stmt &s) {
  switch (s->kind) {
#define EXGC_STMT(Name)                                                        \
  case StmtKind::Name:                                                         \
    return visit_node(s.as<Name>());
#include "compiler/ir/node_kinds.def"
  }
  EXGC_UNREACHABLE("stmt kind");
}

void IRVisitor::visit(const Block &b) {
  for (const Stmt &s : b)
    visit(s);
}

void IRVisitor::visit_type(const Type &t) {
  for (const Expr &e : t.shape)
    visit(e);
  for (const Expr &e : t.ring)
    visit(e);
  visit(t.mem);
}

void IRVisitor::visit_proc(const ProcNode &p) {
  for (const Arg &a : p.args)
    visit_type(a.type);
  for (const Expr &e : p.preds)
    visit(e);
  visit(p.body);
}

void IRVisitor::visit_node(const IntImm *) {}
void IRVisitor::visit_node(const FloatImm *) {}
void IRVisitor::visit_node(const BoolImm *) {}
void IRVisitor::visit_node(const StrImm *) {}
void IRVisitor::visit_node(const Var *) {}
void IRVisitor::visit_node(const Read *op) {
  for (const Expr &e : op->idx)
    visit(e);
}
void IRVisitor::visit_node(const WindowExpr *op) {
  for (const WindowIdx &w : op->idx) {
    visit(w.lo);
    visit(w.hi);
  }
}
void IRVisitor::visit_node(const BinOp *op) {
  visit(op->a);
  visit(op->b);
}
void IRVisitor::visit_node(const UnOp *op) { visit(op->a); }
void IRVisitor::visit_node(const Call *op) {
  for (const Expr &e : op->args)
    visit(e);
  for (const KwArg &k : op->kwargs)
    visit(k.value);
}
void IRVisitor::visit_node(const ListExpr *op) {
  for (const Expr &e : op->elems)
    visit(e);
}

void IRVisitor::visit_node(const Assign *op) {
  for (const Expr &e : op->idx)
    visit(e);
  visit(op->rhs);
}
void IRVisitor::visit_node(const Reduce *op) {
  for (const Expr &e : op->idx)
    visit(e);
  visit(op->rhs);
}
void IRVisitor::visit_node(const Alloc *op) { visit_type(op->type); }
void IRVisitor::visit_node(const WindowStmt *op) {
  visit(op->rhs);
  visit(op->mem);
}
void IRVisitor::visit_node(const For *op) {
  visit(op->lo);
  visit(op->hi);
  for (const KwArg &k : op->mode.kwargs)
    visit(k.value);
  visit(op->body);
}
void IRVisitor::visit_node(const If *op) {
  visit(op->cond);
  visit(op->then_body);
  visit(op->else_body);
}
void IRVisitor::visit_node(const Pass *) {}
void IRVisitor::visit_node(const CallStmt *op) {
  for (const Expr &e : op->args)
    visit(e);
  for (const KwArg &k : op->kwargs)
    visit(k.value);
  for (const Expr &e : op->barriers)
    visit(e);
}
void IRVisitor::visit_node(const With *op) {
  visit(op->ctx);
  visit(op->body);
}
void IRVisitor::visit_node(const Fence *) {}
void IRVisitor::visit_node(const Arrive *op) {
  for (const Expr &e : op->barriers)
    visit(e);
}
void IRVisitor::visit_node(const Await *op) {
  visit(op->bar);
  visit(op->n);
}

} // namespace exgc
