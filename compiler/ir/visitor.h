// visitor.h - read-only walks over the IR ---------------------------------//
// Owns: IRVisitor. The default visit of each node visits its children in
// source order (including the expressions inside types, loop modes and sync
// statements); override the kinds you care about and call the base to recurse.
#pragma once
#include "compiler/ir/nodes.h"

namespace exgc {

class IRVisitor {
public:
  virtual ~IRVisitor() = default;
  void visit(const Expr &e);
  void visit(const Stmt &s);
  void visit(const Block &b);
  void visit_type(const Type &t);
  /// Visits args' types, preds and the body.
  void visit_proc(const ProcNode &p);

protected:
#define EXGC_EXPR(Name) virtual void visit_node(const Name *op);
#define EXGC_STMT(Name) virtual void visit_node(const Name *op);
#include "compiler/ir/node_kinds.def"
};

} // namespace exgc
