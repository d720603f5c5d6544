// typecheck_expr.cpp - types of expressions; control/data separation ------//
// Owns: the rules for expressions. Control positions (indices, bounds,
// conditions, asserts, extents, control arguments) take only control values
// in quasi-affine arithmetic: `+ -`, `*` with a constant side, `/ %` by a
// positive constant. Data positions take data and integer literals, never a
// size, index or bool. In an instr, template parameters count as constants
// (every call binds them to literals).
#include <algorithm>

#include "compiler/analysis/control_limits.h"
#include "compiler/frontend/typecheck_internal.h"
#include "compiler/ir/fold.h"
#include "compiler/ir/math_functions.h"

namespace exgc::tc {

namespace {

bool is_control_use(Use u) { return u != Use::Data; }

} // namespace

bool Checker::is_constant(const Expr &e) const {
  int64_t v;
  if (const_int(e, v))
    return true;
  // Template parameters of an instr are compile-time constants.
  if (const auto *var = e.as<Var>()) {
    if (!proc_ || !proc_->is_instr)
      return false;
    const InstrAttr *t = proc_->attr("template");
    if (!t)
      return false;
    return std::any_of(t->values.begin(), t->values.end(), [&](const Expr &x) {
      const auto *tv = x.as<Var>();
      return tv && tv->name.name == var->name.name;
    });
  }
  if (const auto *b = e.as<BinOp>())
    return (b->op == BinOpKind::Add || b->op == BinOpKind::Sub || b->op == BinOpKind::Mul) &&
           is_constant(b->a) && is_constant(b->b);
  return false;
}

const Declared *Checker::whole_buffer(const Expr &e) {
  Sym s;
  if (const auto *v = e.as<Var>())
    s = v->name;
  else if (const auto *r = e.as<Read>(); r && r->idx.empty())
    s = r->buf;
  else
    return nullptr;
  if (s.is_global())
    return nullptr;
  auto it = bindings_.find(s.id);
  if (it == bindings_.end() || it->second.kind != Declared::Kind::Data ||
      it->second.shape.empty())
    return nullptr;
  return lookup(s, e->loc);
}

void Checker::check_indices(const std::vector<Expr> &idx) {
  for (const Expr &i : idx) {
    ValueType t = check_expr(i, Use::Index);
    if (t == ValueType::Bool)
      diag_.report(i->loc, DiagKind::NotAnIndex, "index", show(i), "bool");
  }
}

ValueType Checker::check_expr(const Expr &e, Use use) {
  EXGC_CHECK(e) << "null expression";
  switch (e->kind) {
  case ExprKind::IntImm:
    return ValueType::Int;
  case ExprKind::FloatImm:
    if (is_control_use(use)) {
      diag_.report(e->loc, DiagKind::DataInControl, show(e), use_name(use));
      return ValueType::Meta;
    }
    return ValueType::R;
  case ExprKind::BoolImm:
    return ValueType::Bool;
  case ExprKind::StrImm:
    diag_.report(e->loc, DiagKind::NotAValue, show(e), "string");
    return ValueType::Meta;
  case ExprKind::ListExpr:
    diag_.report(e->loc, DiagKind::NotAValue, show(e), "list");
    return ValueType::Meta;
  case ExprKind::WindowExpr:
    diag_.report(e->loc, DiagKind::NotAValue, show(e), "window");
    return ValueType::Meta;
  case ExprKind::Var:
  case ExprKind::Read: {
    const auto *v = e.as<Var>();
    const auto *r = e.as<Read>();
    const Sym &s = v ? v->name : r->buf;
    const Declared *b = lookup(s, e->loc);
    if (!b)
      return ValueType::Meta;
    size_t nidx = r ? r->idx.size() : 0;
    if (b->kind == Declared::Kind::Barrier || (b->kind == Declared::Kind::Control && nidx)) {
      diag_.report(e->loc, DiagKind::NotAValue, s.name, b->describe());
      return ValueType::Meta;
    }
    if (b->kind == Declared::Kind::Control) {
      if (use == Use::Data) {
        diag_.report(e->loc, DiagKind::ControlInData, s.name, value_type_name(b->type));
        return ValueType::Meta;
      }
      return b->type;
    }
    if (nidx != b->rank()) {
      if (nidx == 0)
        diag_.report(e->loc, DiagKind::NotAValue, s.name, b->describe() + "; index it");
      else
        diag_.report(e->loc, DiagKind::WrongIndexCount, s.name, b->rank(), nidx);
      return ValueType::Meta;
    }
    if (r)
      check_indices(r->idx);
    if (is_control_use(use)) {
      diag_.report(e->loc, DiagKind::DataInControl, show(e), use_name(use));
      return ValueType::Meta;
    }
    return b->type;
  }
  case ExprKind::UnOp: {
    const auto *u = e.as<UnOp>();
    ValueType a = check_expr(u->a, use);
    if (a == ValueType::Meta)
      return a;
    if (u->op == UnOpKind::Not) {
      if (a != ValueType::Bool) {
        diag_.report(u->a->loc, DiagKind::OperandType, "not", value_type_name(a));
        return ValueType::Meta;
      }
      return a;
    }
    if (a == ValueType::Bool) {
      diag_.report(u->a->loc, DiagKind::OperandType, "-", "bool");
      return ValueType::Meta;
    }
    return a == ValueType::Size ? ValueType::Index : a;
  }
  case ExprKind::BinOp: {
    const auto *b = e.as<BinOp>();
    ValueType x = check_expr(b->a, use), y = check_expr(b->b, use);
    if (x == ValueType::Meta || y == ValueType::Meta)
      return ValueType::Meta;
    const char *op = binop_spelling(b->op);
    if (b->op == BinOpKind::And || b->op == BinOpKind::Or) {
      for (auto [t, sub] : {std::pair{x, &b->a}, std::pair{y, &b->b}})
        if (t != ValueType::Bool) {
          diag_.report((*sub)->loc, DiagKind::OperandType, op, value_type_name(t));
          return ValueType::Meta;
        }
      return ValueType::Bool;
    }
    bool eq = b->op == BinOpKind::Eq || b->op == BinOpKind::Ne;
    for (auto [t, sub] : {std::pair{x, &b->a}, std::pair{y, &b->b}})
      if (t == ValueType::Bool && !eq) {
        diag_.report((*sub)->loc, DiagKind::OperandType, op, "bool");
        return ValueType::Meta;
      }
    if (eq && ((x == ValueType::Bool) != (y == ValueType::Bool))) {
      diag_.report(b->b->loc, DiagKind::OperandType, op,
                   value_type_name(x == ValueType::Bool ? y : x));
      return ValueType::Meta;
    }
    if (is_comparison(b->op))
      return ValueType::Bool;
    if (is_data(x) || is_data(y))
      return is_data(x) ? x : y;
    // Control arithmetic: quasi-affine.
    if (b->op == BinOpKind::Mul && !is_constant(b->a) && !is_constant(b->b)) {
      diag_.report(e->loc, DiagKind::NonAffineIndex, show(e));
      return ValueType::Meta;
    }
    if (b->op == BinOpKind::Div || b->op == BinOpKind::Mod) {
      int64_t c = 0;
      bool ok = const_int(b->b, c) ? c > 0 : is_constant(b->b);
      if (!ok) {
        diag_.report(b->b->loc, DiagKind::BadIndexDivisor, op, show(e));
        return ValueType::Meta;
      }
    }
    if (x == ValueType::Int && y == ValueType::Int)
      return ValueType::Int;
    return ValueType::Index;
  }
  case ExprKind::Call:
    return check_builtin(*e.as<Call>(), e, use);
  }
  EXGC_UNREACHABLE("expr kind");
}

bool Checker::check_arity(const Call &c, const Expr &self, size_t n) {
  if (c.args.size() == n && c.kwargs.empty())
    return true;
  diag_.report(self->loc, DiagKind::BuiltinArgs, c.func,
               "takes " + std::to_string(n) + " positional arguments, got " +
                   std::to_string(c.args.size()) +
                   (c.kwargs.empty() ? "" : " and keyword arguments"));
  return false;
}

const Declared *Checker::queried_buffer(const Call &c) {
  const Declared *b = whole_buffer(c.args[0]);
  if (!b)
    diag_.report(c.args[0]->loc, DiagKind::BuiltinArgs, c.func,
                 "expects a tensor or window as its first argument");
  return b;
}

/// `aligned(x, n)`: an assert that x's first element lies a multiple of n
/// elements from an address aligned to n elements (docs/language.md).
ValueType Checker::check_aligned(const Call &c, const Expr &self, Use use) {
  if (!check_arity(c, self, 2))
    return ValueType::Meta;
  const Declared *b = queried_buffer(c);
  if (!b)
    return ValueType::Meta;
  if (b->type == ValueType::R) {
    diag_.report(c.args[0]->loc, DiagKind::BuiltinArgs, c.func,
                 "needs a buffer of a chosen precision, not 'R'");
    return ValueType::Meta;
  }
  const auto *n = c.args[1].as<IntImm>();
  const int64_t bytes = element_bytes(b->type);
  if (!n || n->value < 1 || (n->value & (n->value - 1)) != 0 ||
      n->value * bytes > analysis::kAllocAlignBytes) {
    diag_.report(c.args[1]->loc, DiagKind::BuiltinArgs, c.func,
                 "needs a power-of-two element count literal of at most " +
                     std::to_string(analysis::kAllocAlignBytes) + " bytes (" +
                     std::to_string(analysis::kAllocAlignBytes / bytes) + " of '" +
                     value_type_name(b->type) + "')");
    return ValueType::Meta;
  }
  if (use != Use::Assert) {
    diag_.report(self->loc, DiagKind::BuiltinArgs, c.func, "is allowed only in an 'assert'");
    return ValueType::Meta;
  }
  return ValueType::Bool;
}

ValueType Checker::check_builtin(const Call &c, const Expr &self, Use use) {
  auto arity = [&](size_t n) { return check_arity(c, self, n); };
  if (c.func == "stride" || c.func == "offset") {
    if (!arity(2))
      return ValueType::Meta;
    const Declared *b = queried_buffer(c);
    if (!b)
      return ValueType::Meta;
    const auto *d = c.args[1].as<IntImm>();
    if (!d || d->value < 0 || static_cast<size_t>(d->value) >= b->rank()) {
      diag_.report(c.args[1]->loc, DiagKind::BuiltinArgs, c.func,
                   "needs a dimension literal below " + std::to_string(b->rank()));
      return ValueType::Meta;
    }
    if (use == Use::Data) {
      diag_.report(self->loc, DiagKind::ControlInData, show(self), "index");
      return ValueType::Meta;
    }
    return ValueType::Index;
  }
  if (c.func == "aligned")
    return check_aligned(c, self, use);
  if (c.func == "min" || c.func == "max" || c.func == "select") {
    if (!arity(c.func == "select" ? 4 : 2))
      return ValueType::Meta;
    ValueType result = ValueType::Int;
    for (size_t i = 0; i < c.args.size(); ++i) {
      ValueType t = check_expr(c.args[i], use);
      if (t == ValueType::Meta)
        return t;
      if (t == ValueType::Bool) {
        diag_.report(c.args[i]->loc, DiagKind::OperandType, c.func, "bool");
        return ValueType::Meta;
      }
      bool is_value = c.func != "select" || i >= 2;
      if (is_value && (is_data(t) || (t == ValueType::Index && result == ValueType::Int) ||
                       (t == ValueType::Size && result == ValueType::Int)))
        result = t;
    }
    return result == ValueType::Size ? ValueType::Index : result;
  }
  if (c.func == "sqrt" || c.func == "relu" || c.func == "abs" || c.func == "tf32_truncate") {
    if (!arity(1))
      return ValueType::Meta;
    if (is_control_use(use)) {
      diag_.report(self->loc, DiagKind::DataInControl, show(self), use_name(use));
      return ValueType::Meta;
    }
    ValueType t = check_expr(c.args[0], use);
    if (c.func != "tf32_truncate")
      return t == ValueType::Int ? ValueType::R : t;
    // What wgmma's .tf32 operands read (PTX ISA 9.7.15.5.2): an f32 value.
    if (t != ValueType::F32 && t != ValueType::R && t != ValueType::Meta) {
      diag_.report(c.args[0]->loc, DiagKind::BuiltinArgs, c.func,
                   std::string("takes an f32 value, not '") + value_type_name(t) + "'");
      return ValueType::Meta;
    }
    return t == ValueType::R ? ValueType::F32 : t;
  }
  if (const MathFunction *m = find_math_function(c.func))
    return check_math(*m, c, self, use);
  diag_.report(self->loc, DiagKind::UnknownBuiltin, c.func);
  return ValueType::Meta;
}

/// `exp(x)`, `fma(a, b, c)`, ...: floating-point data in, the join of the
/// operands' types out (the first data type, R yielding, as for `+`); integer
/// literals alone give R (other control values are ControlInData). The
/// approximations are f32 instructions.
ValueType Checker::check_math(const MathFunction &m, const Call &c, const Expr &self, Use use) {
  if (c.args.size() != static_cast<size_t>(m.arity) || !c.kwargs.empty()) {
    diag_.report(self->loc, DiagKind::BuiltinArgs, c.func,
                 "takes " + std::to_string(m.arity) + " positional arguments, got " +
                     std::to_string(c.args.size()) +
                     (c.kwargs.empty() ? "" : " and keyword arguments"));
    return ValueType::Meta;
  }
  if (is_control_use(use)) {
    diag_.report(self->loc, DiagKind::DataInControl, show(self), use_name(use));
    return ValueType::Meta;
  }
  ValueType result = ValueType::R;
  for (const Expr &a : c.args) {
    ValueType t = check_expr(a, use);
    if (t == ValueType::Meta)
      return t;
    bool fits = t == ValueType::F16 || t == ValueType::BF16 || t == ValueType::F32 ||
                t == ValueType::R || (t == ValueType::F64 && !m.approx) ||
                (is_control(t) && t != ValueType::Bool);
    if (!fits) {
      diag_.report(a->loc, DiagKind::BuiltinArgs, c.func,
                   std::string("takes ") +
                       (m.approx ? "f32, f16 or bf16 data (it is an f32 instruction)"
                                 : "floating-point data (f16, bf16, f32 or f64)") +
                       ", not '" + value_type_name(t) + "'");
      return ValueType::Meta;
    }
    if (is_data(t) && result == ValueType::R)
      result = t;
  }
  return result;
}

} // namespace exgc::tc
