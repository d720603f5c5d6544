// simplify.cpp - constant folding and if folding ---------------------------------//
#include "compiler/analysis/simplify.h"

#include "compiler/analysis/dependence.h"
#include "compiler/analysis/index_form.h"
#include "compiler/ir/mutator.h"
#include "compiler/support/floor_div.h"

namespace exgc::analysis {

namespace {

bool int_of(const Expr &e, int64_t &v) {
  if (const auto *i = e.as<IntImm>()) {
    v = i->value;
    return true;
  }
  return false;
}


/// The same control expression: literals, variables (by binding), and the
/// same operators over the same operands. False when unsure.
bool same_index(const Expr &a, const Expr &b) {
  if (a.same_as(b))
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  if (const auto *x = a.as<IntImm>())
    return x->value == b.as<IntImm>()->value;
  if (const auto *x = a.as<Var>())
    return x->name == b.as<Var>()->name;
  if (const auto *x = a.as<BinOp>()) {
    const auto *y = b.as<BinOp>();
    return x->op == y->op && same_index(x->a, y->a) && same_index(x->b, y->b);
  }
  if (const auto *x = a.as<UnOp>()) {
    const auto *y = b.as<UnOp>();
    return x->op == y->op && same_index(x->a, y->a);
  }
  return false;
}

Expr fold_binop(const BinOp *op, const Expr &self) {
  const Expr &a = op->a, &b = op->b;
  bool control = !is_data(self->type) && (is_control(a->type) || a->type == ValueType::Int) &&
                 (is_control(b->type) || b->type == ValueType::Int);
  int64_t x = 0, y = 0;
  bool ca = int_of(a, x), cb = int_of(b, y);
  if (const auto *ba = a.as<BoolImm>(); ba && (op->op == BinOpKind::And || op->op == BinOpKind::Or)) {
    bool and_ = op->op == BinOpKind::And;
    return ba->value == and_ ? b : BoolImm::make(!and_, self->loc);
  }
  if (const auto *bb = b.as<BoolImm>(); bb && (op->op == BinOpKind::And || op->op == BinOpKind::Or)) {
    bool and_ = op->op == BinOpKind::And;
    return bb->value == and_ ? a : BoolImm::make(!and_, self->loc);
  }
  if (!control)
    return self;
  if (ca && cb) {
    int64_t r;
    switch (op->op) {
    // A constant outside int64 stays unfolded: a wrapped one would change
    // the meaning (the int64 rule of the re-check then refuses it).
    case BinOpKind::Add: return __builtin_add_overflow(x, y, &r) ? self : IntImm::make(r, self->loc);
    case BinOpKind::Sub: return __builtin_sub_overflow(x, y, &r) ? self : IntImm::make(r, self->loc);
    case BinOpKind::Mul: return __builtin_mul_overflow(x, y, &r) ? self : IntImm::make(r, self->loc);
    case BinOpKind::Div: return y > 0 ? IntImm::make(floor_div(x, y), self->loc) : self;
    case BinOpKind::Mod: return y > 0 ? IntImm::make(x - y * floor_div(x, y), self->loc) : self;
    case BinOpKind::Lt: return BoolImm::make(x < y, self->loc);
    case BinOpKind::Le: return BoolImm::make(x <= y, self->loc);
    case BinOpKind::Gt: return BoolImm::make(x > y, self->loc);
    case BinOpKind::Ge: return BoolImm::make(x >= y, self->loc);
    case BinOpKind::Eq: return BoolImm::make(x == y, self->loc);
    case BinOpKind::Ne: return BoolImm::make(x != y, self->loc);
    default: return self;
    }
  }
  switch (op->op) {
  case BinOpKind::Add:
    if (ca && x == 0)
      return b;
    if (cb && y == 0)
      return a;
    // (e + c1) + c2 and (e - c1) + c2
    if (cb) {
      if (const auto *in = a.as<BinOp>(); in && (in->op == BinOpKind::Add || in->op == BinOpKind::Sub)) {
        int64_t c1;
        if (int_of(in->b, c1)) {
          int64_t c;
          if (c1 == INT64_MIN || __builtin_add_overflow(in->op == BinOpKind::Add ? c1 : -c1, y, &c) ||
              c == INT64_MIN)
            return self;
          if (c == 0)
            return in->a;
          return c > 0 ? BinOp::make(BinOpKind::Add, in->a, IntImm::make(c), self->loc)
                       : BinOp::make(BinOpKind::Sub, in->a, IntImm::make(-c), self->loc);
        }
      }
    }
    return self;
  case BinOpKind::Sub:
    if (cb && y == 0)
      return a;
    // (e + f) - e and (f + e) - e: what stage_mem's offsets leave.
    if (const auto *in = a.as<BinOp>(); in && in->op == BinOpKind::Add) {
      if (same_index(in->a, b))
        return in->b;
      if (same_index(in->b, b))
        return in->a;
    }
    if (cb) {
      if (const auto *in = a.as<BinOp>(); in && (in->op == BinOpKind::Add || in->op == BinOpKind::Sub)) {
        int64_t c1;
        if (int_of(in->b, c1)) {
          int64_t c;
          if (c1 == INT64_MIN || __builtin_sub_overflow(in->op == BinOpKind::Add ? c1 : -c1, y, &c) ||
              c == INT64_MIN)
            return self;
          if (c == 0)
            return in->a;
          return c > 0 ? BinOp::make(BinOpKind::Add, in->a, IntImm::make(c), self->loc)
                       : BinOp::make(BinOpKind::Sub, in->a, IntImm::make(-c), self->loc);
        }
      }
    }
    return self;
  case BinOpKind::Mul:
    if ((ca && x == 0) || (cb && y == 0))
      return IntImm::make(0, self->loc);
    if (ca && x == 1)
      return b;
    if (cb && y == 1)
      return a;
    return self;
  case BinOpKind::Div:
    if (cb && y == 1)
      return a;
    return self;
  case BinOpKind::Mod:
    if (cb && y == 1)
      return IntImm::make(0, self->loc);
    return self;
  default:
    return self;
  }
}

struct Folder : IRMutator {
  Expr mutate_node(const BinOp *op, const Expr &self) override {
    Expr e = IRMutator::mutate_node(op, self);
    if (const auto *b = e.as<BinOp>())
      return fold_binop(b, e);
    return e;
  }
  Expr mutate_node(const UnOp *op, const Expr &self) override {
    Expr e = IRMutator::mutate_node(op, self);
    const auto *u = e.as<UnOp>();
    if (!u)
      return e;
    if (const auto *b = u->a.as<BoolImm>(); b && u->op == UnOpKind::Not)
      return BoolImm::make(!b->value, e->loc);
    if (const auto *i = u->a.as<IntImm>(); i && u->op == UnOpKind::Neg && i->value != INT64_MIN)
      return IntImm::make(-i->value, e->loc);
    return e;
  }
};

/// Folds expressions, writes index arithmetic in canonical form where that
/// is smaller (index_form.h), and decides `if`s, tracking the context on the
/// way down.
struct ProcSimplifier : Folder {
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
    Expr e = Folder::mutate_node(op, self);
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

Expr simplify_expr(const Expr &e) {
  if (!e)
    return e;
  Folder f;
  return f.mutate(e);
}

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
