// const_int.cpp - constant control expressions ------------------------------//
#include "compiler/analysis/const_int.h"

namespace exgc::analysis {

bool const_int(const Expr &e, int64_t &out) {
  if (const auto *i = e.as<IntImm>()) {
    out = i->value;
    return true;
  }
  if (const auto *u = e.as<UnOp>()) {
    int64_t a;
    if (u->op != UnOpKind::Neg || !const_int(u->a, a))
      return false;
    out = -a;
    return true;
  }
  const auto *op = e.as<BinOp>();
  int64_t a, b;
  if (!op || !const_int(op->a, a) || !const_int(op->b, b))
    return false;
  // Only small values are folded: the generated code does the same
  // arithmetic in int64_t, and the folder must not overflow where it would not.
  const int64_t lim = int64_t(1) << 31;
  if (a > lim || a < -lim || b > lim || b < -lim)
    return false;
  switch (op->op) {
  case BinOpKind::Add: out = a + b; return true;
  case BinOpKind::Sub: out = a - b; return true;
  case BinOpKind::Mul: out = a * b; return true;
  case BinOpKind::Div:
    if (b <= 0)
      return false;
    out = a >= 0 ? a / b : -((-a + b - 1) / b);
    return true;
  case BinOpKind::Mod:
    if (b <= 0)
      return false;
    out = ((a % b) + b) % b;
    return true;
  default:
    return false;
  }
}

} // namespace exgc::analysis
