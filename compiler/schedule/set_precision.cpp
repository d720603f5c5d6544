// set_precision.cpp - change the element type of an allocated buffer ---------//
// set_precision(p, alloc, "f64"): `x: f32[n]` -> `x: f64[n]`.
// Checked: the sequential meaning is over reals and a precision only says
// how the machine rounds them, so a float type may become another float type,
// and R (a precision not chosen yet) any data type.
// Changing between floats and integers would change values (0.25 stored as
// an integer is 0), and is refused. Integers wrap around, so an integer type
// may become another only when every value stored provably fits both: each
// write is an assignment of a literal in range or of a read of a buffer whose
// type fits (or of the buffer itself), and nothing else writes it (no `+=`,
// window or call argument).
// Fails when: `alloc` is not the allocation of a data buffer, the type is
// not a data type (NotADataType), or the change crosses between integers and
// floats, or between integer types that a stored value may not fit
// (PrecisionChangesKind, with a note at that write).
#include <algorithm>
#include <climits>
#include <cstdint>

#include "compiler/analysis/rounding_log.h"
#include "compiler/ir/symbols.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/computation_type.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/reduction_support.h"

namespace exgc::schedule {
namespace {

/// The values of an integer type; false for other types.
bool int_range(ValueType t, int64_t &lo, int64_t &hi) {
  switch (t) {
  case ValueType::I8: lo = -128; hi = 127; return true;
  case ValueType::U8: lo = 0; hi = 255; return true;
  case ValueType::U16: lo = 0; hi = 65535; return true;
  case ValueType::I32: lo = INT32_MIN; hi = INT32_MAX; return true;
  default: return false;
  }
}

/// Why integer buffer `x` may hold a value outside [lo, hi]: the first write
/// whose value is not provably inside (an integer literal inside, or a read of
/// a buffer whose type's values are all inside, or of `x` itself), or a use
/// that may write it other than such an assignment (a reduction, a window, a
/// call argument). Integers wrap around, so only such values are stored the
/// same in both types.
struct MayNotFit : IRVisitor {
  Sym x;
  int64_t lo = 0, hi = 0;
  const ProcSymbols *syms = nullptr;
  bool found = false;
  SrcLoc at;
  std::string why;
  void hit(SrcLoc loc, std::string w) {
    if (!found) {
      found = true;
      at = loc;
      why = std::move(w);
    }
  }
  bool fits(const Expr &e) const {
    if (const auto *i = e.as<IntImm>())
      return lo <= i->value && i->value <= hi;
    Sym b;
    if (const auto *r = e.as<Read>())
      b = r->buf;
    else if (const auto *v = e.as<Var>(); v && is_data(v->type))
      b = v->name;
    else
      return false;
    if (b == x)
      return true;
    int64_t blo, bhi;
    const Type *t = syms->type_of(b);
    return t && int_range(t->scalar, blo, bhi) && lo <= blo && bhi <= hi;
  }
  void visit_node(const Assign *op) override {
    if (op->buf == x && !fits(op->rhs))
      hit(op->loc, "this value may not fit in both types");
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    if (op->buf == x)
      hit(op->loc, "this sum may not fit in both types");
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowExpr *op) override {
    if (op->buf == x)
      hit(op->loc, "a window of it may be written");
    IRVisitor::visit_node(op);
  }
  void visit_node(const CallStmt *op) override {
    for (const Expr &a : op->args) {
      const auto *r = a.as<Read>();
      const auto *v = a.as<Var>();
      if ((r && r->buf == x && r->idx.empty()) || (v && v->name == x))
        hit(a->loc, "the call may write it");
    }
    IRVisitor::visit_node(op);
  }
};

} // namespace

Value set_precision(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("alloc").value, call.loc);
  const auto *a = s.as<Alloc>();
  if (!a || a->type.kind != Type::Kind::Data)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'set_precision'", "the allocation of a buffer");
  const std::string &name = call.arg("type").value.str;
  ValueType t;
  if (!parse_value_type(name, t) || !is_data(t))
    in.fail(call.loc, DiagKind::NotADataType, name);
  // R is a precision not chosen yet (the reference's meaning): any choice is a
  // normal step, with the rounding of the type chosen.
  if (a->type.scalar != ValueType::R && is_float(t) != is_float(a->type.scalar))
    in.fail(call.loc, DiagKind::PrecisionChangesKind, a->name.name, value_type_name(a->type.scalar),
            name);
  int64_t olo, ohi, nlo, nhi;
  if (t != a->type.scalar && int_range(t, nlo, nhi) && int_range(a->type.scalar, olo, ohi)) {
    MayNotFit v;
    v.x = a->name;
    v.lo = std::max(olo, nlo);
    v.hi = std::min(ohi, nhi);
    ProcSymbols syms(*p);
    v.syms = &syms;
    v.visit(p->body);
    if (v.found) {
      in.diag().report(call.loc, DiagKind::PrecisionChangesKind, a->name.name,
                       value_type_name(a->type.scalar), name)
          .note(v.at, v.why);
      throw ScriptAbort{};
    }
  }
  // Another float type rounds every value stored into the buffer otherwise.
  // (R, computed as f32, may also become an integer type: that rounds too.)
  ValueType was = machine_type(a->type.scalar);
  if (t != was && (is_float(t) || a->type.scalar == ValueType::R))
    analysis::RoundingLog::record(
        {"stores '" + a->name.name + "' as " + name + " instead of " + value_type_name(was),
         is_float(t) && analysis::unit_roundoff(t) > analysis::unit_roundoff(was) ? t : was});
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &old) -> Block {
    return {old.as<Alloc>()->edited([&](Alloc &n) { n.type.scalar = t; })};
  }));
}

} // namespace exgc::schedule
