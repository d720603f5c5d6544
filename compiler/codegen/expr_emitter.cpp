// expr_emitter.cpp - C++ text of .exg expressions -------------------------//
#include "compiler/codegen/expr_emitter.h"

#include "compiler/analysis/memories.h"
#include "compiler/codegen/c_names.h"
#include "compiler/ir/math_functions.h"

namespace exgc::codegen {

bool ExprEmitter::unsupported(SrcLoc loc, const std::string &what) {
  failed_ = true;
  return diag_.report(loc, DiagKind::CodegenNotSupported, what, backend_);
}

const CxxBinding *ExprEmitter::lookup(const Sym &s, SrcLoc loc) {
  const CxxBinding *b = env_.lookup(s);
  if (!b) {
    unsupported(loc, "the name '" + s.name + "' here");
    return nullptr;
  }
  return b;
}

std::string ExprEmitter::read(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc,
                              const CxxBinding **out) {
  const CxxBinding *b = lookup(buf, loc);
  if (!b)
    return "";
  if (out)
    *out = b;
  if (b->kind == CxxBinding::Kind::Barrier) {
    unsupported(loc, "the barrier '" + buf.name + "' used as a value");
    return "";
  }
  if (on_access && !on_access(*b, loc, false)) {
    failed_ = true;
    return "";
  }
  if (b->kind == CxxBinding::Kind::Scalar) {
    if (!idx.empty()) {
      unsupported(loc, "indexing the scalar '" + buf.name + "'");
      return "";
    }
    return b->expr;
  }
  if (idx.size() != b->rank()) {
    unsupported(loc, "a use of the " + std::to_string(b->rank()) + "-dimensional '" + buf.name +
                         "' with " + std::to_string(idx.size()) + " indices");
    return "";
  }
  std::vector<std::string> cidx;
  for (const Expr &i : idx)
    cidx.push_back(index_value(*b, i).text);
  if (!b->guarded)
    return view_element(*b, cidx);
  if (b->in_hi.size() != cidx.size()) {
    unsupported(loc, "the 'out_of_bounds' parameter '" + buf.name +
                         "' over a buffer whose extents are not known here");
    return "";
  }
  std::string cond = b->in_cond;
  for (size_t d = 0; d < cidx.size(); ++d)
    cond += (cond.empty() ? "" : " && ") + paren(b->in_lo[d]) + " <= " + paren(cidx[d]) + " && " +
            paren(cidx[d]) + " < " + paren(b->in_hi[d]);
  if (writing_) {
    guard_ = cond;
    return view_element(*b, cidx);
  }
  return "(" + cond + " ? " + view_element(*b, cidx) + " : " + b->ctype + "(0))";
}

std::string ExprEmitter::lvalue(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc,
                                const CxxBinding **out) {
  const CxxBinding *b = lookup(buf, loc);
  if (!b)
    return "";
  if (out)
    *out = b;
  if ((b->kind == CxxBinding::Kind::Scalar && !b->writable) ||
      (b->kind == CxxBinding::Kind::View && b->is_const) || b->kind == CxxBinding::Kind::Barrier) {
    unsupported(loc, "writing to '" + buf.name + "'");
    return "";
  }
  if (on_access && !on_access(*b, loc, true)) {
    failed_ = true;
    return "";
  }
  auto saved = on_access;
  on_access = nullptr; // the write was vetted; do not report it again as a read
  writing_ = true;
  guard_.clear();
  std::string s = read(buf, idx, loc, nullptr);
  writing_ = false;
  on_access = saved;
  return s;
}

std::string ExprEmitter::data_ctype(const Expr &e) {
  if (const auto *v = e.as<Var>()) {
    const CxxBinding *b = env_.lookup(v->name);
    return b && is_data(b->type) ? b->ctype : "";
  }
  if (const auto *r = e.as<Read>()) {
    const CxxBinding *b = env_.lookup(r->buf);
    return b && is_data(b->type) ? b->ctype : "";
  }
  if (const auto *op = e.as<BinOp>()) {
    if (is_comparison(op->op) || op->op == BinOpKind::And || op->op == BinOpKind::Or)
      return "";
    std::string t = data_ctype(op->a);
    return t.empty() ? data_ctype(op->b) : t;
  }
  if (const auto *u = e.as<UnOp>())
    return u->op == UnOpKind::Neg ? data_ctype(u->a) : "";
  if (const auto *c = e.as<Call>()) {
    if (Call::is_buffer_query(c->func))
      return "";
    for (size_t i = c->func == "select" ? 2 : 0; i < c->args.size(); ++i) {
      std::string t = data_ctype(c->args[i]);
      if (!t.empty())
        return t;
    }
  }
  return "";
}

std::string ExprEmitter::ctrl(const Expr &e) {
  return narrow_index ? ctrl_value(e).text : ctrl_plain(e);
}

std::string ExprEmitter::ctrl_plain(const Expr &e) {
  if (const auto *i = e.as<IntImm>())
    return c_int_literal(i->value);
  if (const auto *b = e.as<BoolImm>())
    return b->value ? "true" : "false";
  if (const auto *v = e.as<Var>()) {
    if (v->name.is_global())
      return fail(e->loc, "'" + v->name.name + "' as a value");
    const CxxBinding *b = lookup(v->name, e->loc);
    if (!b)
      return "0";
    if (is_data(b->type))
      return fail(e->loc, "data value '" + v->name.name + "' in index arithmetic");
    return b->expr;
  }
  if (const auto *op = e.as<BinOp>())
    return binop(op, "");
  if (const auto *u = e.as<UnOp>())
    return u->op == UnOpKind::Neg ? "(-" + paren(ctrl(u->a)) + ")" : "(!" + paren(ctrl(u->a)) + ")";
  if (const auto *c = e.as<Call>())
    return call(c, "");
  if (e.as<Read>())
    return fail(e->loc, "a data read in a control expression");
  return fail(e->loc, "this expression");
}

std::string ExprEmitter::data(const Expr &e, const std::string &ctype) {
  if (const auto *i = e.as<IntImm>()) // integer data wraps: int8_t(300) == 44
    return is_integer_ctype(ctype) && ctype != "int64_t"
               ? ctype + "(" + c_int_literal(i->value) + ")"
               : c_literal(static_cast<double>(i->value), ctype);
  if (const auto *f = e.as<FloatImm>())
    return c_literal(f->value, ctype);
  if (const auto *v = e.as<Var>()) {
    if (v->name.is_global())
      return fail(e->loc, "'" + v->name.name + "' as a value");
    const CxxBinding *b = nullptr;
    std::string s = read(v->name, {}, e->loc, &b);
    if (s.empty())
      return "0";
    return c_convert(s, b->ctype, ctype);
  }
  if (const auto *r = e.as<Read>()) {
    const CxxBinding *b = nullptr;
    std::string s = read(r->buf, r->idx, e->loc, &b);
    if (s.empty())
      return "0";
    return c_convert(s, b->ctype, ctype);
  }
  if (const auto *op = e.as<BinOp>()) {
    if (is_comparison(op->op) || op->op == BinOpKind::And || op->op == BinOpKind::Or)
      return "static_cast<" + ctype + ">(" + binop(op, "") + ")";
    return binop(op, ctype);
  }
  if (const auto *u = e.as<UnOp>()) {
    if (u->op == UnOpKind::Not)
      return "static_cast<" + ctype + ">(" + ctrl(e) + ")";
    if (is_integer_ctype(ctype)) // -MIN wraps to MIN (docs/language.md)
      return "exg_neg<" + ctype + ">(" + data(u->a, ctype) + ")";
    return "(-" + paren(data(u->a, ctype)) + ")";
  }
  if (const auto *c = e.as<Call>())
    return call(c, ctype);
  if (e.as<BoolImm>())
    return "static_cast<" + ctype + ">(" + ctrl(e) + ")";
  return fail(e->loc, "this expression");
}

namespace {
/// True when s has an operator outside any parentheses or brackets: the
/// emitter spells every infix operator with spaces around it, and nothing
/// else puts a space at the top level.
bool has_top_level_space(const std::string &s) {
  int depth = 0;
  for (char c : s) {
    depth += (c == '(' || c == '[') ? 1 : (c == ')' || c == ']') ? -1 : 0;
    if (depth == 0 && c == ' ')
      return true;
  }
  return false;
}
} // namespace

std::string ExprEmitter::operand(const std::string &s, const Expr &child, BinOpKind parent,
                                 bool right) {
  if (!has_top_level_space(s))
    return s;
  const auto *cb = child.as<BinOp>();
  if (!cb || (is_comparison(cb->op) && is_comparison(parent)))
    return "(" + s + ")";
  int pc = binop_precedence(cb->op), pp = binop_precedence(parent);
  // C++ and .exg agree on the order of or, and, comparisons, + -, * / %. On
  // the right, equal precedence keeps its parentheses: a - (b - c), and
  // a + (b + c) on floats, which does not reassociate.
  if (pc > pp || (pc == pp && !right))
    return s;
  return "(" + s + ")";
}

std::string ExprEmitter::binop(const BinOp *op, const std::string &ctype) {
  const char *sp = binop_spelling(op->op);
  // Operands are translated in order (the first use of a name may bind it: kernels).
  if (is_comparison(op->op)) {
    // Compare data in the type of its first read; control as int64_t.
    std::string t = data_ctype(op->a);
    if (t.empty())
      t = data_ctype(op->b);
    if (t.empty() && (is_data(op->a->type) || is_data(op->b->type)))
      t = "double";
    std::string a = t.empty() ? ctrl(op->a) : data(op->a, t);
    std::string b = t.empty() ? ctrl(op->b) : data(op->b, t);
    return operand(a, op->a, op->op, false) + " " + sp + " " + operand(b, op->b, op->op, true);
  }
  if (op->op == BinOpKind::And || op->op == BinOpKind::Or) {
    std::string a = ctrl(op->a);
    std::string b = ctrl(op->b);
    return operand(a, op->a, op->op, false) + (op->op == BinOpKind::And ? " && " : " || ") +
           operand(b, op->b, op->op, true);
  }
  if (ctype.empty()) {
    std::string a = ctrl(op->a);
    std::string b = ctrl(op->b);
    if (op->op == BinOpKind::Div)
      return "exg_floordiv(" + a + ", " + b + ")";
    if (op->op == BinOpKind::Mod)
      return "exg_floormod(" + a + ", " + b + ")";
    return operand(a, op->a, op->op, false) + " " + sp + " " + operand(b, op->b, op->op, true);
  }
  // Data arithmetic; index values used as data are converted.
  auto side = [&](const Expr &x) {
    return is_data(x->type) || x.as<IntImm>() ? data(x, ctype)
                                              : "static_cast<" + ctype + ">(" + ctrl(x) + ")";
  };
  bool integer = is_integer_ctype(ctype);
  if (op->op == BinOpKind::Mod && !integer)
    return fail(op->loc, "'%' on data values");
  std::string a = side(op->a);
  std::string b = side(op->b);
  // Integer data division is total (docs/language.md): the helpers define
  // x / 0, x % 0 and MIN / -1, which C++ leaves undefined.
  if (integer && op->op == BinOpKind::Div)
    return "exg_div<" + ctype + ">(" + a + ", " + b + ")";
  if (integer && op->op == BinOpKind::Mod)
    return "exg_mod<" + ctype + ">(" + a + ", " + b + ")";
  // + - * on integer data wrap around in the stored type; in C++ a signed
  // overflow (int32_t, or uint16_t promoted to int) is undefined.
  if (integer)
    return std::string(op->op == BinOpKind::Add   ? "exg_add<"
                       : op->op == BinOpKind::Sub ? "exg_sub<"
                                                  : "exg_mul<") +
           ctype + ">(" + a + ", " + b + ")";
  return operand(a, op->a, op->op, false) + " " + sp + " " + operand(b, op->b, op->op, true);
}

std::string ExprEmitter::call(const Call *c, const std::string &ctype) {
  const std::string &f = c->func;
  auto arity = [&](size_t n) {
    if (c->args.size() == n && c->kwargs.empty())
      return true;
    fail(c->loc, "'" + f + "' with " + std::to_string(c->args.size()) + " arguments");
    return false;
  };
  // A control or data operand, in the call's result type.
  auto arg = [&](const Expr &x) {
    if (ctype.empty())
      return ctrl(x);
    return is_data(x->type) || x.as<IntImm>() || x.as<FloatImm>()
               ? data(x, ctype)
               : "static_cast<" + ctype + ">(" + ctrl(x) + ")";
  };
  if (f == "stride") {
    if (!arity(2))
      return "0";
    const auto *d = c->args[1].as<IntImm>();
    CxxBinding v;
    if (!d || !view_of(c->args[0], v) || d->value < 0 ||
        static_cast<size_t>(d->value) >= v.rank())
      return fail(c->loc, "this 'stride' call");
    std::string s = v.strides[d->value];
    return ctype.empty() ? s : "static_cast<" + ctype + ">(" + s + ")";
  }
  if (f == "aligned") {
    // A precondition checked at entry: the argument's address itself, in
    // bytes of the declared type (the difftest's f32 buffers of double, at
    // twice the offsets, are then aligned whenever the real ones would be).
    const auto *n = c->args.size() == 2 ? c->args[1].as<IntImm>() : nullptr;
    CxxBinding v;
    if (!n || !view_of(c->args[0], v) || v.tensor_map)
      return fail(c->loc, "this 'aligned' call");
    return "(reinterpret_cast<uintptr_t>(" + v.expr + ") % " +
           std::to_string(n->value * element_bytes(v.type)) + " == 0)";
  }
  if (f == "select") {
    if (!arity(4))
      return "0";
    std::string t = data_ctype(c->args[0]);
    if (t.empty())
      t = data_ctype(c->args[1]);
    if (t.empty() && (is_data(c->args[0]->type) || is_data(c->args[1]->type)))
      t = "double";
    std::string a = t.empty() ? ctrl(c->args[0]) : data(c->args[0], t);
    std::string b = t.empty() ? ctrl(c->args[1]) : data(c->args[1], t);
    std::string x = arg(c->args[2]);
    std::string y = arg(c->args[3]);
    return "(" + a + " < " + b + " ? " + x + " : " + y + ")";
  }
  if (f == "min" || f == "max") {
    if (!arity(2))
      return "0";
    std::string x = arg(c->args[0]);
    std::string y = arg(c->args[1]);
    return "exg_" + f + "<" + (ctype.empty() ? "int64_t" : ctype) + ">(" + x + ", " + y + ")";
  }
  if (f == "sqrt" || f == "relu" || f == "abs") {
    if (!arity(1))
      return "0";
    if (ctype.empty() && f != "abs")
      return fail(c->loc, "'" + f + "' on index values");
    return "exg_" + f + "<" + (ctype.empty() ? "int64_t" : ctype) + ">(" + arg(c->args[0]) + ")";
  }
  if (const MathFunction *m = find_math_function(f)) {
    if (!arity(static_cast<size_t>(m->arity)))
      return "0";
    // Computed in the destination's floating type, as `+` is; an integer
    // destination takes the value computed in the call's own type.
    std::string t = ctype.empty() || is_integer_ctype(ctype) || ctype == "bool"
                        ? scalar_ctype(c->type)
                        : ctype;
    if (t.empty())
      return fail(c->loc, "'" + f + "' of " + value_type_name(c->type) + " values");
    std::string s = "exg_" + f + "<" + t + ">(";
    for (size_t i = 0; i < c->args.size(); ++i) {
      const Expr &x = c->args[i];
      s += i ? ", " : "";
      s += is_data(x->type) || x.as<IntImm>() || x.as<FloatImm>()
               ? data(x, t)
               : "static_cast<" + t + ">(" + ctrl(x) + ")";
    }
    return ctype.empty() ? s + ")" : c_convert(s + ")", t, ctype);
  }
  if (f == "tf32_truncate") {
    if (!arity(1))
      return "0";
    return "exg_tf32_truncate<" + (ctype.empty() ? std::string("float") : ctype) + ">(" +
           arg(c->args[0]) + ")";
  }
  return fail(c->loc, "the function '" + f + "'");
}

bool ExprEmitter::view_of(const Expr &e, CxxBinding &out) {
  Sym buf;
  if (const auto *v = e.as<Var>())
    buf = v->name;
  else if (const auto *r = e.as<Read>(); r && r->idx.empty())
    buf = r->buf;
  else if (const auto *w = e.as<WindowExpr>())
    buf = w->buf;
  else
    return unsupported(e->loc, "this expression as a tensor argument");
  const CxxBinding *b = lookup(buf, e->loc);
  if (!b)
    return false;
  if (b->kind != CxxBinding::Kind::View)
    return unsupported(e->loc, "'" + buf.name + "' as a tensor argument");
  const auto *w = e.as<WindowExpr>();
  if (!w) {
    out = *b;
    return true;
  }
  if (w->idx.size() != b->rank())
    return unsupported(e->loc, "a window of '" + buf.name + "' with " +
                                   std::to_string(w->idx.size()) + " coordinates");
  std::vector<std::string> origin;
  out = *b;
  out.strides.clear();
  out.in_lo.clear();
  out.in_hi.clear();
  bool known = b->in_hi.size() == w->idx.size();
  // Row-major contiguity survives points on leading dimensions, then one
  // slice of any range, then whole dimensions (`x[i, 2:5, :]`).
  bool seen_slice = false;
  for (size_t d = 0; d < w->idx.size(); ++d) {
    const WindowIdx &wi = w->idx[d];
    // TMA coordinates are 32-bit (PTX ISA): a tensor map's origin may be too.
    CtrlValue o = !wi.lo          ? CtrlValue{"0", true}
                  : b->tensor_map ? ctrl_value(wi.lo)
                                  : index_value(*b, wi.lo);
    origin.push_back(o.text);
    // A window of a tensor map moves the origin TMA loads from.
    if (b->tensor_map && o.text != "0")
      out.tma_coord[d] = b->tma_coord[d] == "0"
                             ? o.text
                             : paren(b->tma_coord[d]) + " + " + paren(wide_text(o));
    if (known && wi.is_slice) {
      // The guard's bounds are differences: 64-bit, whatever the origin's type.
      std::string wo = paren(wide_text(o));
      out.in_lo.push_back(o.text == "0" ? b->in_lo[d] : paren(b->in_lo[d]) + " - " + wo);
      out.in_hi.push_back(o.text == "0" ? b->in_hi[d] : paren(b->in_hi[d]) + " - " + wo);
    } else if (known) {
      std::string p = paren(origin.back());
      out.in_cond += (out.in_cond.empty() ? "" : " && ") + paren(b->in_lo[d]) + " <= " + p +
                     " && " + p + " < " + paren(b->in_hi[d]);
    }
    if (wi.is_slice) {
      out.strides.push_back(b->strides[d]);
      if (seen_slice && (wi.lo || wi.hi))
        out.dense = false;
      seen_slice = true;
    } else if (seen_slice) {
      out.dense = false;
    }
  }
  if (b->tensor_map)
    return !failed_;
  out.expr = view_address(*b, origin);
  if (b->swizzle_bytes != 0)
    out.swizzle_origin = view_origin_offset(*b, origin);
  return !failed_;
}

} // namespace exgc::codegen
