// symbols.cpp - the declarations of a proc, collected in one walk ---------//
#include "compiler/ir/symbols.h"

#include "compiler/ir/visitor.h"

namespace exgc {
namespace {
struct Collector : IRVisitor {
  std::vector<SymDecl> *out;
  void visit_node(const Alloc *op) override {
    out->push_back({SymDecl::Kind::Alloc, op->name, &op->type, op->type.scalar, op->loc});
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowStmt *op) override {
    out->push_back({SymDecl::Kind::Window, op->name, nullptr, op->rhs->type, op->loc});
    IRVisitor::visit_node(op);
  }
  void visit_node(const For *op) override {
    out->push_back({SymDecl::Kind::Iter, op->iter, nullptr, ValueType::Index, op->loc});
    IRVisitor::visit_node(op);
  }
};
} // namespace

ProcSymbols::ProcSymbols(const ProcNode &p) {
  for (const Arg &a : p.args)
    decls_.push_back({SymDecl::Kind::Arg, a.name, &a.type, a.type.scalar, a.loc});
  Collector c;
  c.out = &decls_;
  c.visit(p.body);
  for (size_t i = 0; i < decls_.size(); ++i)
    by_id_.emplace(decls_[i].name.id, i); // keeps the first of a repeated Sym
}

const SymDecl *ProcSymbols::find(const Sym &s) const & {
  if (s.is_global())
    return nullptr;
  auto it = by_id_.find(s.id);
  return it == by_id_.end() ? nullptr : &decls_[it->second];
}

const SymDecl *ProcSymbols::find(const std::string &name) const & {
  for (const SymDecl &d : decls_)
    if (d.name.name == name)
      return &d;
  return nullptr;
}

const Type *ProcSymbols::type_of(const Sym &s) const {
  const SymDecl *d = find(s);
  return d ? d->type : nullptr;
}

} // namespace exgc
