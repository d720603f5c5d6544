// simplify.cpp - constant folding and if folding ---------------------------------//
#include "compiler/analysis/simplify.h"

#include "compiler/analysis/dependence.h"
#include "compiler/analysis/index_form.h"
#include "compiler/ir/fold.h"

namespace exgc::analysis {

namespace {

/// Folds expressions, writes index arithmetic in canonical form where that
/// is smaller (index_form.h), and decides `if`s, tracking the context on the
/// way down.
struct ProcSimplifier : ConstantFolder {
  IndexSolver *solver;
  DependenceAnalyzer *dep;
  Context ctx;

  /// An iterator of a loop with constant bounds ranges over them. A loop of
  /// one iteration is left out: it is an iteration peeled off a loop beside
  /// it and keeps that loop's form (the prologue's `k % 4` of the Hopper
  /// GEMM stays, as the hand-written kernel has it).
  std::optional<IndexRange> range_of(const Var &v) const {
    for (auto it = ctx.scopes.rbegin(); it != ctx.scopes.rend(); ++it) {
      if (!it->is_loop || !(it->iter == v.name))
        continue;
      const auto *lo = it->lo.as<IntImm>();
      const auto *hi = it->hi.as<IntImm>();
      if (lo && hi && hi->value > lo->value && hi->value - 1 > lo->value)
        return IndexRange{lo->value, hi->value - 1};
      return std::nullopt;
    }
    return std::nullopt;
  }
  Expr canonical(const Expr &e) const {
    if (is_data(e->type) || e->type == ValueType::Bool)
      return e;
    Expr c = canonical_index(e, [this](const Var &v) { return range_of(v); });
    return expr_size(c) < expr_size(e) ? c : e;
  }
  Expr mutate_node(const BinOp *op, const Expr &self) override {
    Expr e = ConstantFolder::mutate_node(op, self);
    const auto *b = e.as<BinOp>();
    if (b && (b->op == BinOpKind::Add || b->op == BinOpKind::Sub || b->op == BinOpKind::Mul ||
              b->op == BinOpKind::Div || b->op == BinOpKind::Mod))
      return canonical(e);
    return e;
  }

  Block mutate_node(const For *op, const Stmt &self) override {
    Expr lo = mutate(op->lo), hi = mutate(op->hi);
    ctx.scopes.push_back(Scope{true, op->iter, lo, hi, Expr(), false});
    Block body = mutate(op->body);
    ctx.scopes.pop_back();
    if (lo.same_as(op->lo) && hi.same_as(op->hi) && same_block(body, op->body))
      return {self};
    return {op->edited([&](For &n) {
      n.lo = lo;
      n.hi = hi;
      n.body = body.empty() ? Block{Pass::make(op->loc)} : body;
    })};
  }

  Block mutate_node(const If *op, const Stmt &self) override {
    Expr cond = mutate(op->cond);
    int decided = -1; // 1 true, 0 false
    if (const auto *b = cond.as<BoolImm>()) {
      decided = b->value ? 1 : 0;
    } else {
      Counterexample cex;
      if (dep->prove(ctx, cond, &cex) == Validity::Valid)
        decided = 1;
      else if (dep->prove(ctx, UnOp::make(UnOpKind::Not, cond), &cex) == Validity::Valid)
        decided = 0;
    }
    if (decided == 1)
      return mutate(op->then_body);
    if (decided == 0)
      return mutate(op->else_body);
    ctx.scopes.push_back(Scope{false, Sym(), Expr(), Expr(), cond, false});
    Block then_b = mutate(op->then_body);
    ctx.scopes.back().negated = true;
    Block else_b = mutate(op->else_body);
    ctx.scopes.pop_back();
    if (cond.same_as(op->cond) && same_block(then_b, op->then_body) && same_block(else_b, op->else_body))
      return {self};
    return {op->edited([&](If &n) {
      n.cond = cond;
      n.then_body = then_b.empty() ? Block{Pass::make(op->loc)} : then_b;
      n.else_body = else_b;
    })};
  }
};

} // namespace

Proc simplify_proc(const Proc &p, IndexSolver &solver) {
  DependenceAnalyzer dep(solver);
  ProcSimplifier s;
  s.solver = &solver;
  s.dep = &dep;
  for (const Arg &a : p->args)
    if (a.type.kind == Type::Kind::Control && a.type.scalar == ValueType::Size)
      s.ctx.facts.push_back(BinOp::make(BinOpKind::Ge, Var::make(a.name, ValueType::Size), IntImm::make(1)));
  for (const Expr &e : p->preds)
    s.ctx.facts.push_back(e);
  Proc out = s.mutate_proc(p);
  if (out->body.empty()) {
    auto n = std::make_shared<ProcNode>(*out);
    n->body = {Pass::make(p->loc)};
    return n;
  }
  return out;
}

} // namespace exgc::analysis
