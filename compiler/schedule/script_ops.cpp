// script_ops.cpp - operators and indexing in schedule scripts -----------------//
// Integers follow the index language: `/` and `%` are floor division and its
// remainder. They are 64-bit and checked: a result outside int64 is an error
// (ScriptIntOverflow), never a wrapped value. `+` joins strings and lists
// (charged a step per element copied, within the value budget); `*` of an
// int and a unit is a unit descriptor (`8 * cuda_thread`).
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/support/floor_div.h"

namespace exgc::schedule {
namespace {

/// Floor division; the caller has excluded b == 0 and INT64_MIN / -1.
/// `x op y` for an arithmetic op, false when the result is not an int64.
bool checked_arith(const std::string &op, int64_t x, int64_t y, int64_t &out) {
  if (op == "+")
    return !__builtin_add_overflow(x, y, &out);
  if (op == "-")
    return !__builtin_sub_overflow(x, y, &out);
  if (op == "*")
    return !__builtin_mul_overflow(x, y, &out);
  if (y == -1) { // x % -1 == 0; x / -1 == -x, which overflows for INT64_MIN
    if (op == "%")
      return out = 0, true;
    return !__builtin_sub_overflow(int64_t(0), x, &out); // never negate INT64_MIN itself
  }
  int64_t q = floor_div(x, y);
  out = op == "/" ? q : x - q * y; // |x - q * y| < |y|: no overflow
  return true;
}

bool is_int(const Value &v) { return v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool; }

BinOpKind meta_op(const std::string &op) {
  return op == "*" ? BinOpKind::Mul : op == "+" ? BinOpKind::Add : BinOpKind::Sub;
}

Expr as_expr(const Value &v, SrcLoc loc) {
  return v.kind == Value::Kind::Meta ? v.meta : IntImm::make(v.int_value, loc);
}

} // namespace

Value Interpreter::eval_binop(const script::ExprNode &e, Frame &f) {
  const std::string &op = e.text;
  if (op == "and" || op == "or") {
    Value a = eval(e.items[0], f);
    if (a.truthy() == (op == "or"))
      return a;
    return eval(e.items[1], f);
  }
  Value a = eval(e.items[0], f), b = eval(e.items[1], f);
  if (op == "==" || op == "!=")
    return Value::of_bool(values_equal(a, b) == (op == "=="));
  if (is_int(a) && is_int(b)) {
    int64_t x = a.int_value, y = b.int_value;
    if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") {
      if ((op == "/" || op == "%") && y == 0)
        fail(e.loc, DiagKind::ScriptDivByZero);
      int64_t r;
      if (!checked_arith(op, x, y, r))
        fail(e.loc, DiagKind::ScriptIntOverflow,
             std::to_string(x) + " " + op + " " + (y < 0 ? "(" + std::to_string(y) + ")" : std::to_string(y)));
      return Value::of_int(r);
    }
    if (op == "<") return Value::of_bool(x < y);
    if (op == "<=") return Value::of_bool(x <= y);
    if (op == ">") return Value::of_bool(x > y);
    if (op == ">=") return Value::of_bool(x >= y);
  }
  if (op == "+" && a.kind == Value::Kind::Str && b.kind == Value::Kind::Str) {
    int64_t size = static_cast<int64_t>(a.str.size() + b.str.size());
    require_value_size(e.loc, "string", size);
    charge(e.loc, 1 + size / 64); // characters copy fast, elements one by one
    return Value::of_str(a.str + b.str);
  }
  if (op == "+" && a.kind == Value::Kind::List && b.kind == Value::Kind::List) {
    int64_t elements = 0; // what the new list's elements weigh, saturating
    if (__builtin_add_overflow(a.weight - 1, b.weight - 1, &elements))
      elements = INT64_MAX;
    require_value_size(e.loc, "list", elements);
    charge(e.loc, static_cast<int64_t>(a.list->size() + b.list->size()));
    std::vector<Value> items = *a.list;
    items.insert(items.end(), b.list->begin(), b.list->end());
    return Value::of_list(std::move(items));
  }
  // Unit arithmetic: `8 * cuda_thread`, `2 * cuda_threads_strided(1, 4)`.
  // One side is an int: a unit times a unit is no unit.
  bool meta_a = a.kind == Value::Kind::Meta, meta_b = b.kind == Value::Kind::Meta;
  if ((op == "*" || op == "+" || op == "-") && (meta_a != meta_b) &&
      (meta_a || a.kind == Value::Kind::Int) && (meta_b || b.kind == Value::Kind::Int)) {
    // `u = 2 * u` in a loop nests without bound: descriptors have weights too.
    Value unit = Value::of_meta(BinOp::make(meta_op(op), as_expr(a, e.loc), as_expr(b, e.loc), e.loc));
    unit.weight = a.weight + b.weight; // each at most the budget: no overflow
    require_value_size(e.loc, "descriptor", unit.weight);
    return unit;
  }
  fail(e.loc, DiagKind::ScriptBadOperands, op, a.type_name(), b.type_name());
}

Value Interpreter::eval_index(const script::ExprNode &e, Frame &f) {
  Value obj = eval(e.callee, f);
  const script::Expr &ix = e.items[0];
  bool is_slice = ix->kind == script::ExprKind::Slice;
  auto bound = [&](const script::Expr &x, int64_t dflt) -> int64_t {
    if (!x)
      return dflt;
    Value v = eval(x, f);
    if (v.kind != Value::Kind::Int)
      fail(x->loc, DiagKind::ScriptBadOperands, "[]", obj.type_name(), v.type_name());
    return v.int_value;
  };
  int64_t n = obj.kind == Value::Kind::List ? static_cast<int64_t>(obj.list->size())
              : obj.kind == Value::Kind::Cursor ? static_cast<int64_t>(obj.cursor.count)
              : obj.kind == Value::Kind::Str ? static_cast<int64_t>(obj.str.size())
                                             : 0;
  int64_t lo = is_slice ? bound(ix->items[0], 0) : bound(ix, 0);
  int64_t hi = is_slice ? bound(ix->items[1], n) : lo;
  if (obj.kind == Value::Kind::Cursor)
    return cursor_index(*this, obj.cursor, lo, hi, is_slice, e.loc);
  if (obj.kind != Value::Kind::List && obj.kind != Value::Kind::Str)
    fail(e.loc, DiagKind::ScriptBadOperand, "[]", obj.type_name());
  if (lo < 0)
    lo += n;
  if (hi < 0)
    hi += n;
  if (lo < 0 || lo > n || (!is_slice && lo >= n))
    fail(e.loc, DiagKind::ScriptIndexRange, lo, n);
  if (!is_slice)
    hi = lo + 1; // lo < n: no overflow
  if (hi > n)
    fail(e.loc, DiagKind::ScriptIndexRange, hi, n);
  if (lo > hi)
    fail(e.loc, DiagKind::ScriptIndexRange, lo, n);
  charge(e.loc, is_slice ? hi - lo : 1);
  if (obj.kind == Value::Kind::Str) {
    std::string s = obj.str.substr(static_cast<size_t>(lo), static_cast<size_t>(hi - lo));
    return Value::of_str(s);
  }
  if (!is_slice)
    return (*obj.list)[static_cast<size_t>(lo)];
  return Value::of_list(std::vector<Value>(obj.list->begin() + lo, obj.list->begin() + hi));
}

} // namespace exgc::schedule
