// computation_type.cpp - the type data is computed in ------------------------//
#include "compiler/schedule/computation_type.h"

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "compiler/ir/visitor.h"

namespace exgc::schedule {

namespace {

ValueType element_type(const ProcSymbols &names, const Sym &s) {
  const SymDecl *d = names.find(s);
  return d ? machine_type(d->elem) : ValueType::R;
}

/// Does an expression read `x`?
struct Reads : IRVisitor {
  uint32_t x;
  bool hit = false;
  void visit_node(const Read *op) override {
    hit |= op->buf.id == x;
    IRVisitor::visit_node(op);
  }
  void visit_node(const Var *op) override { hit |= op->name.id == x; }
};

void collect_readers(const Block &b, uint32_t x, std::vector<Stmt> &out) {
  for (const Stmt &s : b) {
    const Expr *rhs = s.as<Assign>()   ? &s.as<Assign>()->rhs
                      : s.as<Reduce>() ? &s.as<Reduce>()->rhs
                                       : nullptr;
    if (rhs) {
      Reads r;
      r.x = x;
      r.visit(*rhs);
      if (r.hit)
        out.push_back(s);
    }
    if (const auto *f = s.as<For>()) {
      collect_readers(f->body, x, out);
    } else if (const auto *i = s.as<If>()) {
      collect_readers(i->then_body, x, out);
      collect_readers(i->else_body, x, out);
    } else if (const auto *w = s.as<With>()) {
      collect_readers(w->body, x, out);
    }
  }
}

} // namespace

ValueType computed_in(const ProcSymbols &names, const Stmt &s) {
  if (const auto *a = s.as<Assign>())
    return element_type(names, a->buf);
  if (const auto *r = s.as<Reduce>())
    return element_type(names, r->buf);
  return ValueType::R;
}

bool is_copy_of_type(const ProcSymbols &names, const Expr &value, ValueType held) {
  held = machine_type(held);
  // A literal that `held` represents exactly is the same value in any type
  // that represents it (every type here holds the small integers).
  double v = 0;
  if (const auto *i = value.as<IntImm>())
    v = static_cast<double>(i->value);
  else if (const auto *f = value.as<FloatImm>())
    v = f->value;
  if (value.as<IntImm>() || value.as<FloatImm>()) {
    bool integral = std::fabs(v) < 9.0e18 && v == static_cast<double>(static_cast<int64_t>(v));
    switch (held) {
    case ValueType::I8: return integral && v >= -128 && v <= 127;
    case ValueType::U8: return integral && v >= 0 && v <= 255;
    case ValueType::U16: return integral && v >= 0 && v <= 65535;
    case ValueType::I32: return integral && v >= -2147483648.0 && v <= 2147483647.0;
    case ValueType::F32:
      return std::fabs(v) <= FLT_MAX && static_cast<double>(static_cast<float>(v)) == v;
    case ValueType::F64: return true;
    default: return false;
    }
  }
  const Sym *read = value.as<Read>()  ? &value.as<Read>()->buf
                    : value.as<Var>() ? &value.as<Var>()->name
                                      : nullptr;
  return read && is_data(value->type) && element_type(names, *read) == machine_type(held);
}

std::vector<Stmt> statements_reading(const Block &b, uint32_t x) {
  std::vector<Stmt> out;
  collect_readers(b, x, out);
  return out;
}

Stmt first_other_computation(const ProcSymbols &names, const Expr &value, ValueType held,
                             const std::vector<Stmt> &readers) {
  if (is_copy_of_type(names, value, held))
    return Stmt();
  for (const Stmt &s : readers)
    if (computed_in(names, s) != machine_type(held))
      return s;
  return Stmt();
}

} // namespace exgc::schedule
