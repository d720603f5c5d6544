// expr_emitter_narrow.cpp - 32-bit index arithmetic in kernels ------------//
// Kernel code computes a control value in int32_t when value_range.h proves
// it fits, and in int64_t otherwise. Each text carries its C++ type: a
// binary operation on two 32-bit operands whose result may not fit casts one
// operand to int64_t first (the other follows by C++'s usual conversions), so
// no 32-bit operation can overflow. Offsets into memory whose extents no
// constant bounds (global buffers, tensor maps) are 64-bit, as are values
// handed to text the backend does not write (an instruction's `emit:`).
#include "compiler/analysis/memories.h"
#include "compiler/codegen/c_names.h"
#include "compiler/codegen/expr_emitter.h"

namespace exgc::codegen {

namespace {

bool narrow_ctype(const std::string &t) { return t == "int32_t" || t == "int"; }

std::string widen(const std::string &s) { return "static_cast<int64_t>(" + s + ")"; }

bool is_literal(const Expr &e) { return e.as<IntImm>() != nullptr; }

} // namespace

std::optional<analysis::IndexRange> ExprEmitter::range(const Expr &e) {
  return analysis::value_range(e, [this](const Var &v) -> std::optional<analysis::IndexRange> {
    const CxxBinding *b = env_.lookup(v.name);
    return b && b->kind == CxxBinding::Kind::Scalar ? b->range : std::nullopt;
  });
}

std::string ExprEmitter::iterator_ctype(const Expr &lo, const Expr &hi,
                                        std::optional<analysis::IndexRange> *r) {
  auto rl = range(lo), rh = range(hi);
  *r = std::nullopt;
  if (rl && rh)
    *r = analysis::IndexRange{rl->lo, std::max(rl->lo, rh->hi - 1)};
  // The iterator reaches hi when the loop ends: hi must fit too.
  bool fits = *r && analysis::fits_int32(*rl) && analysis::fits_int32(*rh);
  return narrow_index && fits ? "int32_t" : "int64_t";
}

ExprEmitter::CtrlValue ExprEmitter::ctrl_value(const Expr &e) {
  if (!narrow_index)
    return {ctrl_plain(e), false};
  if (const auto *i = e.as<IntImm>())
    return {c_int_literal(i->value), i->value >= INT32_MIN && i->value <= INT32_MAX};
  if (const auto *v = e.as<Var>()) {
    std::string text = ctrl_plain(e);
    const CxxBinding *b = env_.lookup(v->name);
    bool narrow = b && narrow_ctype(b->ctype);
    if (narrow && all_wide_)
      return {widen(text), false};
    return {text, narrow};
  }
  if (const auto *op = e.as<BinOp>()) {
    switch (op->op) {
    case BinOpKind::Add:
    case BinOpKind::Sub:
    case BinOpKind::Mul:
    case BinOpKind::Div:
    case BinOpKind::Mod:
      return narrow_arith(op);
    default:
      return {ctrl_plain(e), false}; // bool
    }
  }
  if (const auto *u = e.as<UnOp>(); u && u->op == UnOpKind::Neg) {
    CtrlValue a = ctrl_value(u->a);
    auto r = range(e);
    bool narrow = a.narrow && r && analysis::fits_int32(*r);
    if (a.narrow && !narrow)
      a.text = widen(a.text);
    return {"(-" + paren(a.text) + ")", narrow};
  }
  if (e.as<Call>())
    return narrow_call(e);
  return {ctrl_plain(e), false};
}

ExprEmitter::CtrlValue ExprEmitter::narrow_arith(const BinOp *op) {
  CtrlValue a = ctrl_value(op->a), b = ctrl_value(op->b);
  auto ra = range(op->a), rb = range(op->b);
  std::optional<analysis::IndexRange> r;
  if (ra && rb)
    r = analysis::combine_ranges(op->op, *ra, *rb);
  const bool fits = r && analysis::fits_int32(*r);
  const bool division = op->op == BinOpKind::Div || op->op == BinOpKind::Mod;
  CtrlValue out;
  if (division && !(ra && rb && ra->lo >= 0 && rb->lo >= 1)) {
    out.text = std::string(op->op == BinOpKind::Div ? "exg_floordiv(" : "exg_floormod(") +
               a.text + ", " + b.text + ")";
  } else {
    // A dividend known non-negative over a positive divisor: C's / and % are
    // the floor forms, and a constant divisor becomes a multiply.
    out.narrow = a.narrow && b.narrow && fits;
    if (a.narrow && b.narrow && !out.narrow) {
      if (is_literal(op->a) && !is_literal(op->b))
        b.text = widen(b.text);
      else
        a.text = widen(a.text);
    }
    out.text = operand(a.text, op->a, op->op, false) + " " + binop_spelling(op->op) + " " +
               operand(b.text, op->b, op->op, true);
  }
  // A quotient or remainder that fits, of a dividend that did not ((K + 31)
  // / 32): 32 bits from here on.
  if (division && fits && !out.narrow && !all_wide_)
    out = {"static_cast<int32_t>(" + out.text + ")", true, out.text};
  return out;
}

ExprEmitter::CtrlValue ExprEmitter::narrow_call(const Expr &e) {
  const auto *c = e.as<Call>();
  const std::string &f = c->func;
  if ((f == "min" || f == "max") && c->args.size() == 2 && c->kwargs.empty()) {
    CtrlValue x = ctrl_value(c->args[0]), y = ctrl_value(c->args[1]);
    bool narrow = x.narrow && y.narrow;
    return {"exg_" + f + "<" + (narrow ? "int32_t" : "int64_t") + ">(" + x.text + ", " + y.text +
                ")",
            narrow};
  }
  if (f == "select" && c->args.size() == 4 && c->kwargs.empty() && !is_data(c->args[0]->type) &&
      !is_data(c->args[1]->type)) {
    CtrlValue a = ctrl_value(c->args[0]), b = ctrl_value(c->args[1]);
    CtrlValue x = ctrl_value(c->args[2]), y = ctrl_value(c->args[3]);
    // The conditional's type is the common one: 32-bit only when both are.
    return {"(" + a.text + " < " + b.text + " ? " + x.text + " : " + y.text + ")",
            x.narrow && y.narrow};
  }
  std::string text = ctrl_plain(e);
  if (f == "stride") // an int64_t kernel parameter, or a constant's literal
    return {text, is_digits(text)};
  // Anything else of integer value is made 64-bit: its operands may be
  // 32-bit texts, whatever the function computes them in.
  bool integer = is_control(e->type) && e->type != ValueType::Bool;
  return {integer ? widen(text) : text, false};
}

std::string ExprEmitter::ctrl_wide(const Expr &e) {
  // Every name read as 64 bits, so the whole computation is: an address the
  // loop advances stays one 64-bit induction variable for nvcc, where a
  // 32-bit sum converted at the end would be recomputed and widened each time.
  bool saved = all_wide_;
  all_wide_ = true;
  std::string text = wide_text(ctrl_value(e));
  all_wide_ = saved;
  return text;
}

ExprEmitter::CtrlValue ExprEmitter::index_value(const CxxBinding &b, const Expr &e) {
  if (!narrow_index)
    return {ctrl_plain(e), false};
  // Registers and shared memory have constant extents below 2^31 elements,
  // and an index the bounds check proved inside keeps every offset there.
  const analysis::MemoryInfo *m = analysis::resolve_memory(b.mem).info;
  bool small = m && (m->space == analysis::MemSpace::Shared ||
                     m->space == analysis::MemSpace::Registers);
  return small ? ctrl_value(e) : CtrlValue{ctrl_wide(e), false};
}

std::string ExprEmitter::wide_text(const CtrlValue &v) {
  if (!v.wide.empty())
    return v.wide;
  return v.narrow && !is_digits(v.text) ? widen(v.text) : v.text;
}

} // namespace exgc::codegen
