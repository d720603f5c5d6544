// dim_support.cpp - allocations, dimension arguments and relayouts ---------------//
#include "compiler/schedule/dim_support.h"

#include "compiler/ir/fold.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"

namespace exgc::schedule {

const Alloc *buffer_alloc(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc,
                          const char *prim, Stmt &s) {
  s = stmt_arg(in, p, v, loc);
  const auto *a = s.as<Alloc>();
  if (!a || a->type.kind != Type::Kind::Data)
    in.fail(loc, DiagKind::CursorKindMismatch, std::string("'") + prim + "'", "the allocation of a buffer");
  return a;
}

size_t dim_arg(Interpreter &in, const Alloc &a, const PrimArg &arg) {
  const Value &v = arg.value;
  const SrcLoc loc = arg.loc;
  if (v.kind != Value::Kind::Int)
    fail_arg(in, arg, "int", v.type_name());
  int64_t rank = static_cast<int64_t>(a.type.shape.size());
  if (v.int_value < 0 || v.int_value >= rank)
    in.fail(loc, DiagKind::DimOutOfRange, a.name.name, v.int_value, rank);
  return static_cast<size_t>(v.int_value);
}

Expr alloc_index_arg(Interpreter &in, const Proc &p, const analysis::Context &ctx, const Alloc &a,
                     const PrimArg &arg) {
  const Value &v = arg.value;
  const SrcLoc loc = arg.loc;
  if (v.kind == Value::Kind::Int)
    return IntImm::make(v.int_value);
  FragExprP f = fragment_arg(in, arg, "int or str");
  std::string bad;
  Expr e = build_index_expr(*f, index_names(*p, ctx), bad);
  if (!e && !names_unknown(bad))
    in.fail(loc, DiagKind::NotIndexExpr, v.str, bad);
  if (!e)
    in.fail(loc, DiagKind::ExprNotAtAlloc, v.str, bad, a.name.name);
  return e;
}

namespace {

/// The first use of `buf` that is not an element access.
struct IndirectUse : IRVisitor {
  uint32_t buf;
  size_t rank;
  bool windows_ok = false;
  bool found = false;
  SrcLoc at;
  void hit(SrcLoc loc) {
    if (!found) {
      found = true;
      at = loc;
    }
  }
  void visit_node(const Read *op) override {
    if (op->buf.id == buf && op->idx.size() != rank)
      hit(op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowExpr *op) override {
    if (op->buf.id == buf && (!windows_ok || op->idx.size() != rank))
      hit(op->loc);
    IRVisitor::visit_node(op);
  }
};

struct Relayout : IRMutator {
  uint32_t buf;
  const Reindex *reindex;
  const Rewindow *rewindow;
  std::vector<Expr> idx(const std::vector<Expr> &old) {
    bool changed = false;
    return (*reindex)(mutate_exprs(old, changed));
  }
  Expr mutate_node(const Read *op, const Expr &self) override {
    if (op->buf.id != buf)
      return IRMutator::mutate_node(op, self);
    return Read::make(op->buf, idx(op->idx), op->type, op->loc);
  }
  Expr mutate_node(const WindowExpr *op, const Expr &self) override {
    if (op->buf.id != buf)
      return IRMutator::mutate_node(op, self);
    EXGC_CHECK(*rewindow) << "a window of a buffer whose layout changes";
    std::vector<WindowIdx> w;
    for (const WindowIdx &i : op->idx)
      w.push_back(i.is_slice ? WindowIdx::slice(i.lo ? mutate(i.lo) : Expr(), i.hi ? mutate(i.hi) : Expr())
                             : WindowIdx::point(mutate(i.lo)));
    return WindowExpr::make(op->buf, (*rewindow)(w), op->type, op->loc);
  }
  Block mutate_node(const Assign *op, const Stmt &self) override {
    if (op->buf.id != buf)
      return IRMutator::mutate_node(op, self);
    Expr rhs = mutate(op->rhs);
    return {op->edited([&](Assign &n) {
      n.idx = idx(op->idx);
      n.rhs = rhs;
    })};
  }
  Block mutate_node(const Reduce *op, const Stmt &self) override {
    if (op->buf.id != buf)
      return IRMutator::mutate_node(op, self);
    Expr rhs = mutate(op->rhs);
    return {op->edited([&](Reduce &n) {
      n.idx = idx(op->idx);
      n.rhs = rhs;
    })};
  }
};

} // namespace

void require_element_uses(Interpreter &in, const Proc &p, const Alloc &a, const char *prim,
                          SrcLoc loc, bool windows_ok) {
  IndirectUse use;
  use.buf = a.name.id;
  use.rank = a.type.shape.size();
  use.windows_ok = windows_ok;
  use.visit(p->body);
  if (use.found) {
    in.diag().report(loc, DiagKind::DimChangeIndirect, a.name.name, prim)
        .note(use.at, "'" + a.name.name + "' is used here");
    throw ScriptAbort{};
  }
}

void require_at_accesses(Interpreter &in, const Proc &p, const Stmt &s,
                         const std::function<Expr(const std::vector<Expr> &)> &goal,
                         const std::string &what,
                         const std::function<DiagBuilder(const analysis::Access &)> &report,
                         SrcLoc loc) {
  const Alloc *a = s.as<Alloc>();
  analysis::Context ctx = context_at(p, s);
  Located l;
  locate(*p, s->id, l);
  Block after(l.block->begin() + static_cast<long>(l.index + 1), l.block->end());
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  for (const analysis::Access &acc : coll.of(after).accesses) {
    if (acc.buf.id != a->name.id)
      continue;
    analysis::Context actx = ctx;
    actx.scopes.insert(actx.scopes.end(), acc.scopes.begin(), acc.scopes.end());
    analysis::Counterexample cex;
    analysis::Validity v = analysis::Validity::Invalid;
    if (!acc.anywhere && acc.idx.size() == a->type.shape.size()) {
      v = dep.prove(actx, goal(acc.idx), &cex);
      if (v == analysis::Validity::Unknown)
        fail_unknown(in, loc, what + " at '" + acc.text + "'", solver);
    }
    if (v == analysis::Validity::Valid)
      continue;
    DiagBuilder d = report(acc);
    d.note(acc.loc, "'" + acc.text + "' " + analysis::access_verb(acc.kind) + " '" + a->name.name + "' here");
    if (!cex.values.empty())
      d.note(loc, "for example " + cex.str());
    throw ScriptAbort{};
  }
}

Proc relayout(const Proc &p, const Stmt &s, std::vector<Expr> shape, const Reindex &reindex,
              const Rewindow &rewindow) {
  Proc reshaped = replace_stmt(p, s->id, [&](const Stmt &old) -> Block {
    return {old.as<Alloc>()->edited([&](Alloc &n) { n.type.shape = shape; })};
  });
  Relayout r;
  r.buf = s.as<Alloc>()->name.id;
  r.reindex = &reindex;
  r.rewindow = &rewindow;
  return r.mutate_proc(reshaped);
}

Expr tidy_index(const Expr &e) { return simplify_index(fold_constants(e)); }

} // namespace exgc::schedule
