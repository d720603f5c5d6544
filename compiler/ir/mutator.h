// mutator.h - rebuilding walks over the IR --------------------------------//
// Owns: IRMutator. Each default mutate rebuilds a node from its mutated
// children and returns the original handle when every child is `same_as`
// before, so unchanged subtrees keep their ids. A statement mutates to a Block:
// deleting is returning {}, splitting is returning several.
#pragma once
#include "compiler/ir/nodes.h"

namespace exgc {

class IRMutator {
public:
  virtual ~IRMutator() = default;
  Expr mutate(const Expr &e);
  /// The statements `s` becomes (usually just one).
  Block mutate(const Stmt &s);
  Block mutate(const Block &b);
  Type mutate_type(const Type &t);
  /// Mutates args' types, preds and body; returns `p` itself when unchanged.
  Proc mutate_proc(const Proc &p);

protected:
  std::vector<Expr> mutate_exprs(const std::vector<Expr> &es, bool &changed);
  std::vector<KwArg> mutate_kwargs(const std::vector<KwArg> &ks, bool &changed);
#define EXGC_EXPR(Name) virtual Expr mutate_node(const Name *op, const Expr &self);
#define EXGC_STMT(Name) virtual Block mutate_node(const Name *op, const Stmt &self);
#include "compiler/ir/node_kinds.def"
};

} // namespace exgc
