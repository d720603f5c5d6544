// copy.cpp - copies of code, with fresh or renamed bindings ---------------//
#include "compiler/ir/copy.h"

#include "compiler/ir/fold.h"
#include "compiler/ir/mutator.h"
#include "compiler/support/check.h"

namespace exgc {

namespace {

Stmt with_fresh_id(const Stmt &s) {
  switch (s->kind) {
#define EXGC_STMT(Name)                                                        \
  case StmtKind::Name:                                                         \
    return s.as<Name>()->edited([](Name &n) { n.id = fresh_node_id(); });
#include "compiler/ir/node_kinds.def"
  }
  EXGC_UNREACHABLE("stmt kind");
}

struct Copier : IRMutator {
  std::map<uint32_t, Expr> vars;
  std::map<uint32_t, Sym> bufs;
  bool fresh = false;
  std::set<std::string> *taken = nullptr;

  Sym buf(const Sym &s) {
    auto it = bufs.find(s.id);
    return it == bufs.end() ? s : it->second;
  }
  Sym declare(const Sym &s) {
    if (!fresh)
      return s;
    std::string name = s.name;
    if (taken)
      for (int k = 1; taken->count(name); ++k)
        name = s.name + "_" + std::to_string(k);
    if (taken)
      taken->insert(name);
    Sym n = Sym::fresh(name);
    bufs[s.id] = n;
    return n;
  }

  Expr mutate_node(const Var *op, const Expr &self) override {
    if (auto it = vars.find(op->name.id); it != vars.end())
      return it->second;
    if (auto it = bufs.find(op->name.id); it != bufs.end())
      return Var::make(it->second, op->type, op->loc);
    return self;
  }
  Expr mutate_node(const Read *op, const Expr &self) override {
    Expr e = IRMutator::mutate_node(op, self);
    Sym b = buf(op->buf);
    if (b == op->buf)
      return e;
    const auto *r = e.as<Read>();
    return Read::make(b, r->idx, r->type, r->loc);
  }
  Expr mutate_node(const WindowExpr *op, const Expr &self) override {
    Expr e = IRMutator::mutate_node(op, self);
    Sym b = buf(op->buf);
    if (b == op->buf)
      return e;
    const auto *w = e.as<WindowExpr>();
    return WindowExpr::make(b, w->idx, w->type, w->loc);
  }

  Block finish(Block r) {
    if (fresh)
      for (Stmt &s : r)
        s = with_fresh_id(s);
    return r;
  }

  Block mutate_node(const Assign *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    if (Sym b = buf(op->buf); b != op->buf) {
      r[0] = r[0].as<Assign>()->edited([&](Assign &n) { n.buf = b; });
    }
    return finish(r);
  }
  Block mutate_node(const Reduce *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    if (Sym b = buf(op->buf); b != op->buf) {
      r[0] = r[0].as<Reduce>()->edited([&](Reduce &n) { n.buf = b; });
    }
    return finish(r);
  }
  Block mutate_node(const Alloc *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    if (fresh) {
      r[0] = r[0].as<Alloc>()->edited([&](Alloc &n) { n.name = declare(op->name); });
    }
    return finish(r);
  }
  Block mutate_node(const WindowStmt *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    if (fresh) {
      r[0] = r[0].as<WindowStmt>()->edited([&](WindowStmt &n) { n.name = declare(op->name); });
    }
    return finish(r);
  }
  Block mutate_node(const For *op, const Stmt &self) override {
    Sym it = op->iter;
    if (fresh) {
      it = Sym::fresh(op->iter.name);
      vars[op->iter.id] = Var::make(it, ValueType::Index, op->loc);
    }
    Block r = IRMutator::mutate_node(op, self);
    if (fresh) {
      r[0] = r[0].as<For>()->edited([&](For &n) { n.iter = it; });
    }
    return finish(r);
  }
#define EXGC_STMT_PLAIN(Name)                                                  \
  Block mutate_node(const Name *op, const Stmt &self) override {               \
    return finish(IRMutator::mutate_node(op, self));                           \
  }
  EXGC_STMT_PLAIN(If)
  EXGC_STMT_PLAIN(Pass)
  EXGC_STMT_PLAIN(CallStmt)
  EXGC_STMT_PLAIN(With)
  EXGC_STMT_PLAIN(Fence)
  EXGC_STMT_PLAIN(Arrive)
  EXGC_STMT_PLAIN(Await)
#undef EXGC_STMT_PLAIN
};

} // namespace

Block copy_block(const Block &b, const std::map<uint32_t, Expr> &vars, bool fresh,
                 std::set<std::string> *taken) {
  Copier c;
  c.vars = vars;
  c.fresh = fresh;
  c.taken = taken;
  Block out = c.mutate(b);
  // Substituted index expressions fold their constants (`4 * io + 0`).
  struct Fold : IRMutator {
    Expr mutate_node(const BinOp *op, const Expr &self) override {
      return fold_constants(IRMutator::mutate_node(op, self));
    }
  } f;
  return vars.empty() ? out : f.mutate(out);
}

Block rename_buffer(const Block &b, const Sym &from, const Sym &to) {
  Copier c;
  c.bufs[from.id] = to;
  return c.mutate(b);
}

void collect_declared_names(const Block &b, std::set<std::string> &out) {
  for (const Stmt &s : b) {
    if (const auto *a = s.as<Alloc>())
      out.insert(a->name.name);
    else if (const auto *w = s.as<WindowStmt>())
      out.insert(w->name.name);
    else if (const auto *f = s.as<For>()) {
      out.insert(f->iter.name);
      collect_declared_names(f->body, out);
    } else if (const auto *i = s.as<If>()) {
      collect_declared_names(i->then_body, out);
      collect_declared_names(i->else_body, out);
    } else if (const auto *w2 = s.as<With>()) {
      collect_declared_names(w2->body, out);
    }
  }
}

std::set<std::string> declared_names(const ProcNode &p) {
  std::set<std::string> out;
  for (const Arg &a : p.args)
    out.insert(a.name.name);
  collect_declared_names(p.body, out);
  return out;
}

} // namespace exgc
