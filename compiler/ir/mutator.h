// mutator.h - rebuilding walks over the IR --------------------------------//
// Owns: IRMutator. Each default mutate rebuilds a node from its mutated
// children and returns the original handle when every child is `same_as`
// before, so unchanged subtrees keep their ids. A statement mutates to a Block:
// deleting is returning {}, splitting is returning several.
//
// Types stay current: the walk keeps the declared type of every argument,
// allocation and window it has passed (in scope), and a Var, Read or
// WindowExpr whose name's declared type differs from the type it carries is
// rebuilt with the declared one; its parents, rebuilt in turn, derive theirs
// again (nodes.h). So a rewrite that changes a declaration (set_precision)
// leaves no stale type below it. A mutator that walks a fragment without its
// declarations keeps the types it finds.
#pragma once
#include <map>
#include <optional>
#include <utility>

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
  /// The declared type of `name` where the walk is (the element type of a
  /// buffer or window, a scalar's type, Meta for a barrier), or `old` when
  /// the walk has not passed its declaration.
  ValueType current_type(const Sym &name, ValueType old) const;

private:
  void declare(const Sym &name, ValueType type);
  void declare(const Stmt &s); // an Alloc or WindowStmt; other statements declare nothing here
  void end_scope(size_t undo_size);
  std::map<uint32_t, ValueType> declared_;
  /// Undo log of declare(): the id and the type it shadowed, if any.
  std::vector<std::pair<uint32_t, std::optional<ValueType>>> undo_;
};

} // namespace exgc
