// fold.cpp - the one constant folder ---------------------------------------//
#include "compiler/ir/fold.h"

#include "compiler/support/floor_div.h"

namespace exgc {

namespace {

// The one overflow policy: a step whose int64 result would wrap is not folded.
bool add_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
bool sub_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
bool mul_overflow(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }

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

/// `(e + c1) + y` or `(e - c1) + y` (with `subtract`, `- y`) as `e + c` or
/// `e - c`: null when `a` is no such sum, `self` when `c` would leave int64.
Expr gather_constant(const Expr &a, int64_t y, bool subtract, const Expr &self) {
  const auto *in = a.as<BinOp>();
  int64_t c1, c;
  if (!in || (in->op != BinOpKind::Add && in->op != BinOpKind::Sub) || !int_of(in->b, c1))
    return Expr();
  if (c1 == INT64_MIN)
    return self;
  const int64_t inner = in->op == BinOpKind::Add ? c1 : -c1;
  if ((subtract ? sub_overflow(inner, y, &c) : add_overflow(inner, y, &c)) ||
      c == INT64_MIN)
    return self;
  if (c == 0)
    return in->a;
  return c > 0 ? BinOp::make(BinOpKind::Add, in->a, IntImm::make(c), self->loc)
               : BinOp::make(BinOpKind::Sub, in->a, IntImm::make(-c), self->loc);
}

Expr fold_binop(const BinOp *op, const Expr &self) {
  const Expr &a = op->a, &b = op->b;
  bool control = !is_data(self->type) && (is_control(a->type) || a->type == ValueType::Int) &&
                 (is_control(b->type) || b->type == ValueType::Int);
  int64_t x = 0, y = 0;
  bool ca = int_of(a, x), cb = int_of(b, y);
  const bool logic = op->op == BinOpKind::And || op->op == BinOpKind::Or;
  if (const auto *ba = a.as<BoolImm>(); ba && logic) {
    bool and_ = op->op == BinOpKind::And;
    return ba->value == and_ ? b : BoolImm::make(!and_, self->loc);
  }
  if (const auto *bb = b.as<BoolImm>(); bb && logic) {
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
    case BinOpKind::Add: return add_overflow(x, y, &r) ? self : IntImm::make(r, self->loc);
    case BinOpKind::Sub: return sub_overflow(x, y, &r) ? self : IntImm::make(r, self->loc);
    case BinOpKind::Mul: return mul_overflow(x, y, &r) ? self : IntImm::make(r, self->loc);
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
    if (Expr g = cb ? gather_constant(a, y, false, self) : Expr())
      return g;
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
    if (Expr g = cb ? gather_constant(a, y, true, self) : Expr())
      return g;
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

} // namespace

bool const_int(const Expr &e, int64_t &out) {
  if (int_of(e, out))
    return true;
  if (const auto *u = e.as<UnOp>()) {
    int64_t a;
    return u->op == UnOpKind::Neg && const_int(u->a, a) && !sub_overflow(int64_t(0), a, &out);
  }
  const auto *op = e.as<BinOp>();
  int64_t a, b;
  if (!op || !const_int(op->a, a) || !const_int(op->b, b))
    return false;
  switch (op->op) {
  case BinOpKind::Add: return !add_overflow(a, b, &out);
  case BinOpKind::Sub: return !sub_overflow(a, b, &out);
  case BinOpKind::Mul: return !mul_overflow(a, b, &out);
  case BinOpKind::Div:
  case BinOpKind::Mod:
    if (b <= 0)
      return false;
    out = op->op == BinOpKind::Div ? floor_div(a, b) : a - b * floor_div(a, b);
    return true;
  default:
    return false;
  }
}

Expr ConstantFolder::mutate_node(const BinOp *op, const Expr &self) {
  Expr e = IRMutator::mutate_node(op, self);
  if (const auto *b = e.as<BinOp>())
    return fold_binop(b, e);
  return e;
}

Expr ConstantFolder::mutate_node(const UnOp *op, const Expr &self) {
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

Expr fold_constants(const Expr &e) {
  if (!e)
    return e;
  ConstantFolder f;
  return f.mutate(e);
}

} // namespace exgc
