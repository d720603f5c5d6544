// mutator.cpp - default rebuilding of IRMutator ---------------------------//
// Each default returns `self` when no child changed (same_as) and no type it
// carries went stale. A node rebuilt because something changed is the old
// node `edited` with the new children: it keeps its NodeId and location, so
// the id names "this statement" across rewrites (cursors forward by id), and
// it is checked and typed again like a new one. Brand-new nodes come from make().
#include "compiler/ir/mutator.h"

namespace exgc {

Expr IRMutator::mutate(const Expr &e) {
  if (!e)
    return e;
  switch (e->kind) {
#define EXGC_EXPR(Name)                                                        \
  case ExprKind::Name:                                                         \
    return mutate_node(e.as<Name>(), e);
#include "compiler/ir/node_kinds.def"
  }
  EXGC_UNREACHABLE("expr kind");
}

Block IRMutator::mutate(const Stmt &s) {
  switch (s->kind) {
#define EXGC_STMT(Name)                                                        \
  case StmtKind::Name:                                                         \
    return mutate_node(s.as<Name>(), s);
#include "compiler/ir/node_kinds.def"
  }
  EXGC_UNREACHABLE("stmt kind");
}

Block IRMutator::mutate(const Block &b) {
  Block out;
  out.reserve(b.size());
  size_t scope = undo_.size();
  for (const Stmt &s : b) {
    Block r = mutate(s);
    for (const Stmt &d : r)
      declare(d);
    out.insert(out.end(), r.begin(), r.end());
  }
  end_scope(scope); // the block's declarations end with it
  return same_block(out, b) ? b : out;
}

void IRMutator::end_scope(size_t scope) {
  while (undo_.size() > scope) {
    auto [id, old] = undo_.back();
    undo_.pop_back();
    if (old)
      declared_[id] = *old;
    else
      declared_.erase(id);
  }
}

void IRMutator::declare(const Sym &name, ValueType type) {
  auto it = declared_.find(name.id);
  undo_.emplace_back(name.id, it == declared_.end() ? std::nullopt
                                                    : std::optional<ValueType>(it->second));
  declared_[name.id] = type;
}

void IRMutator::declare(const Stmt &s) {
  if (const auto *a = s.as<Alloc>())
    declare(a->name, a->type.scalar);
  else if (const auto *w = s.as<WindowStmt>())
    declare(w->name, w->rhs->type);
}

ValueType IRMutator::current_type(const Sym &name, ValueType old) const {
  auto it = declared_.find(name.id);
  return name.is_global() || it == declared_.end() ? old : it->second;
}

std::vector<Expr> IRMutator::mutate_exprs(const std::vector<Expr> &es, bool &changed) {
  std::vector<Expr> out;
  out.reserve(es.size());
  for (const Expr &e : es) {
    out.push_back(mutate(e));
    changed |= !out.back().same_as(e);
  }
  return out;
}

std::vector<KwArg> IRMutator::mutate_kwargs(const std::vector<KwArg> &ks, bool &changed) {
  std::vector<KwArg> out = ks;
  for (KwArg &k : out) {
    Expr v = mutate(k.value);
    changed |= !v.same_as(k.value);
    k.value = v;
  }
  return out;
}

Type IRMutator::mutate_type(const Type &t) {
  Type out = t;
  bool changed = false;
  out.shape = mutate_exprs(t.shape, changed);
  out.ring = mutate_exprs(t.ring, changed);
  out.mem = mutate(t.mem);
  return out;
}

static bool same_type(const Type &a, const Type &b) {
  auto same = [](const std::vector<Expr> &x, const std::vector<Expr> &y) {
    for (size_t i = 0; i < x.size(); ++i)
      if (!x[i].same_as(y[i]))
        return false;
    return x.size() == y.size();
  };
  return same(a.shape, b.shape) && same(a.ring, b.ring) && a.mem.same_as(b.mem);
}

Proc IRMutator::mutate_proc(const Proc &p) {
  bool changed = false;
  std::vector<Arg> args = p->args;
  size_t scope = undo_.size();
  for (Arg &a : args) {
    Type t = mutate_type(a.type);
    changed |= !same_type(t, a.type);
    a.type = t;
    declare(a.name, a.type.scalar);
  }
  std::vector<Expr> preds = mutate_exprs(p->preds, changed);
  Block body = mutate(p->body);
  changed |= !same_block(body, p->body);
  end_scope(scope); // the arguments' scope is the proc
  if (!changed)
    return p;
  auto np = std::make_shared<ProcNode>(*p);
  np->args = std::move(args);
  np->preds = std::move(preds);
  np->body = std::move(body);
  return np; // the same proc, changed: it keeps its id like any rebuilt node
}

// --- Expressions -------------------------------------------------------------

Expr IRMutator::mutate_node(const IntImm *, const Expr &self) { return self; }
Expr IRMutator::mutate_node(const FloatImm *, const Expr &self) { return self; }
Expr IRMutator::mutate_node(const BoolImm *, const Expr &self) { return self; }
Expr IRMutator::mutate_node(const StrImm *, const Expr &self) { return self; }
Expr IRMutator::mutate_node(const Var *op, const Expr &self) {
  ValueType t = current_type(op->name, op->type);
  if (t == op->type)
    return self;
  return op->edited([&](Var &n) { n.type = t; });
}

Expr IRMutator::mutate_node(const Read *op, const Expr &self) {
  bool changed = false;
  std::vector<Expr> idx = mutate_exprs(op->idx, changed);
  ValueType t = current_type(op->buf, op->type);
  if (!changed && t == op->type)
    return self;
  return op->edited([&](Read &n) {
    n.idx = std::move(idx);
    n.type = t;
  });
}

Expr IRMutator::mutate_node(const WindowExpr *op, const Expr &self) {
  bool changed = false;
  std::vector<WindowIdx> idx = op->idx;
  for (WindowIdx &w : idx) {
    Expr lo = mutate(w.lo), hi = mutate(w.hi);
    changed |= !lo.same_as(w.lo) || !hi.same_as(w.hi);
    w.lo = lo;
    w.hi = hi;
  }
  ValueType t = current_type(op->buf, op->type);
  if (!changed && t == op->type)
    return self;
  return op->edited([&](WindowExpr &n) {
    n.idx = std::move(idx);
    n.type = t;
  });
}

Expr IRMutator::mutate_node(const BinOp *op, const Expr &self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  if (a.same_as(op->a) && b.same_as(op->b))
    return self;
  return op->edited([&](BinOp &n) {
    n.a = a;
    n.b = b;
  });
}

Expr IRMutator::mutate_node(const UnOp *op, const Expr &self) {
  Expr a = mutate(op->a);
  if (a.same_as(op->a))
    return self;
  return op->edited([&](UnOp &n) {
    n.a = a;
  });
}

Expr IRMutator::mutate_node(const Call *op, const Expr &self) {
  bool changed = false;
  std::vector<Expr> args = mutate_exprs(op->args, changed);
  std::vector<KwArg> kw = mutate_kwargs(op->kwargs, changed);
  if (!changed)
    return self;
  return op->edited([&](Call &n) {
    n.args = std::move(args);
    n.kwargs = std::move(kw);
  });
}

Expr IRMutator::mutate_node(const ListExpr *op, const Expr &self) {
  bool changed = false;
  std::vector<Expr> elems = mutate_exprs(op->elems, changed);
  if (!changed)
    return self;
  return op->edited([&](ListExpr &n) {
    n.elems = std::move(elems);
  });
}

// --- Statements --------------------------------------------------------------

Block IRMutator::mutate_node(const Assign *op, const Stmt &self) {
  bool changed = false;
  std::vector<Expr> idx = mutate_exprs(op->idx, changed);
  Expr rhs = mutate(op->rhs);
  if (!changed && rhs.same_as(op->rhs))
    return {self};
  return {op->edited([&](Assign &n) {
    n.idx = std::move(idx);
    n.rhs = rhs;
  })};
}

Block IRMutator::mutate_node(const Reduce *op, const Stmt &self) {
  bool changed = false;
  std::vector<Expr> idx = mutate_exprs(op->idx, changed);
  Expr rhs = mutate(op->rhs);
  if (!changed && rhs.same_as(op->rhs))
    return {self};
  return {op->edited([&](Reduce &n) {
    n.idx = std::move(idx);
    n.rhs = rhs;
  })};
}

Block IRMutator::mutate_node(const Alloc *op, const Stmt &self) {
  Type t = mutate_type(op->type);
  if (same_type(t, op->type))
    return {self};
  return {op->edited([&](Alloc &n) {
    n.type = std::move(t);
  })};
}

Block IRMutator::mutate_node(const WindowStmt *op, const Stmt &self) {
  Expr rhs = mutate(op->rhs), mem = mutate(op->mem);
  if (rhs.same_as(op->rhs) && mem.same_as(op->mem))
    return {self};
  return {op->edited([&](WindowStmt &n) {
    n.rhs = rhs;
    n.mem = mem;
  })};
}

Block IRMutator::mutate_node(const For *op, const Stmt &self) {
  bool changed = false;
  Expr lo = mutate(op->lo), hi = mutate(op->hi);
  LoopMode mode = op->mode;
  mode.kwargs = mutate_kwargs(op->mode.kwargs, changed);
  Block body = mutate(op->body);
  if (!changed && lo.same_as(op->lo) && hi.same_as(op->hi) && same_block(body, op->body))
    return {self};
  return {op->edited([&](For &n) {
    n.lo = lo;
    n.hi = hi;
    n.mode = std::move(mode);
    n.body = std::move(body);
  })};
}

Block IRMutator::mutate_node(const If *op, const Stmt &self) {
  Expr cond = mutate(op->cond);
  Block t = mutate(op->then_body), e = mutate(op->else_body);
  if (cond.same_as(op->cond) && same_block(t, op->then_body) && same_block(e, op->else_body))
    return {self};
  return {op->edited([&](If &n) {
    n.cond = cond;
    n.then_body = std::move(t);
    n.else_body = std::move(e);
  })};
}

Block IRMutator::mutate_node(const Pass *, const Stmt &self) { return {self}; }

Block IRMutator::mutate_node(const CallStmt *op, const Stmt &self) {
  bool changed = false;
  std::vector<Expr> args = mutate_exprs(op->args, changed);
  std::vector<KwArg> kw = mutate_kwargs(op->kwargs, changed);
  std::vector<Expr> bars = mutate_exprs(op->barriers, changed);
  if (!changed)
    return {self};
  return {op->edited([&](CallStmt &n) {
    n.args = std::move(args);
    n.kwargs = std::move(kw);
    n.barriers = std::move(bars);
  })};
}

Block IRMutator::mutate_node(const With *op, const Stmt &self) {
  Expr ctx = mutate(op->ctx);
  Block body = mutate(op->body);
  if (ctx.same_as(op->ctx) && same_block(body, op->body))
    return {self};
  return {op->edited([&](With &n) {
    n.ctx = ctx;
    n.body = std::move(body);
  })};
}

Block IRMutator::mutate_node(const Fence *, const Stmt &self) { return {self}; }

Block IRMutator::mutate_node(const Arrive *op, const Stmt &self) {
  bool changed = false;
  std::vector<Expr> bars = mutate_exprs(op->barriers, changed);
  if (!changed)
    return {self};
  return {op->edited([&](Arrive &n) {
    n.barriers = std::move(bars);
  })};
}

Block IRMutator::mutate_node(const Await *op, const Stmt &self) {
  Expr bar = mutate(op->bar), count = mutate(op->n);
  if (bar.same_as(op->bar) && count.same_as(op->n))
    return {self};
  return {op->edited([&](Await &n) {
    n.bar = bar;
    n.n = count;
  })};
}

} // namespace exgc
