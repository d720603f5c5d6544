// value.cpp - constructors and printing of script values -------------------//
#include "compiler/schedule/value.h"

#include "compiler/schedule/cursor.h"

#include "compiler/ir/printer.h"

namespace exgc::schedule {

Value Value::of_int(int64_t v) {
  Value x;
  x.kind = Kind::Int;
  x.int_value = v;
  return x;
}
Value Value::of_bool(bool v) {
  Value x;
  x.kind = Kind::Bool;
  x.int_value = v;
  return x;
}
Value Value::of_str(std::string s) {
  Value x;
  x.kind = Kind::Str;
  x.str = std::move(s);
  x.weight = 1 + static_cast<int64_t>(x.str.size());
  return x;
}
Value Value::of_list(std::vector<Value> items) {
  Value x;
  x.kind = Kind::List;
  for (const Value &i : items) // saturating: the interpreter refuses heavy lists first
    x.weight = i.weight > INT64_MAX - x.weight ? INT64_MAX : x.weight + i.weight;
  x.list = std::make_shared<const std::vector<Value>>(std::move(items));
  return x;
}
Value Value::of_proc(Proc p) {
  Value x;
  x.kind = Kind::Proc;
  x.proc = std::move(p);
  return x;
}
Value Value::of_cursor(Cursor c) {
  Value x;
  x.kind = Kind::Cursor;
  x.cursor = std::move(c);
  return x;
}
Value Value::of_meta(Expr e) {
  Value x;
  x.kind = Kind::Meta;
  x.meta = std::move(e);
  return x;
}
Value Value::of_func(std::string name, const DefDecl *def) {
  Value x;
  x.kind = Kind::Func;
  x.str = std::move(name);
  x.def = def;
  return x;
}

const char *value_kind_name(Value::Kind k) {
  switch (k) {
  case Value::Kind::None: return "None";
  case Value::Kind::Int: return "int";
  case Value::Kind::Bool: return "bool";
  case Value::Kind::Str: return "str";
  case Value::Kind::List: return "list";
  case Value::Kind::Proc: return "proc";
  case Value::Kind::Cursor: return "cursor";
  case Value::Kind::Meta: return "descriptor";
  case Value::Kind::Func: return "function";
  }
  return "?";
}

const char *Value::type_name() const { return value_kind_name(kind); }

std::string Value::a_type() const {
  if (kind == Kind::None)
    return "None";
  return (kind == Kind::Int ? "an " : "a ") + std::string(type_name());
}

namespace {

/// `<cursor in f: x[i] = 0.0>`: the first line of the statement it names in
/// the proc it was made from (`+ 1 more` for a block of two).
std::string cursor_display(const Cursor &c) {
  std::string head = "<cursor in " + (c.proc ? c.proc->name : std::string("?"));
  Located l;
  EXGC_CHECK(c.proc && locate(*c.proc, c.node, l)) << "a cursor outside the proc it was made from";
  std::string text = print_stmt(l.stmt);
  text = text.substr(0, text.find('\n'));
  if (c.kind == Cursor::Kind::GapBefore)
    text = "before " + text;
  if (c.kind == Cursor::Kind::GapAfter)
    text = "after " + text;
  if (c.kind == Cursor::Kind::Block && c.count > 1)
    text += " + " + std::to_string(c.count - 1) + " more";
  return head + ": " + text + ">";
}

} // namespace

std::string Value::to_display() const {
  std::string out;
  append_display(out, SIZE_MAX);
  return out;
}

bool Value::append_display(std::string &out, size_t limit) const {
  switch (kind) {
  case Kind::None: out += "None"; break;
  case Kind::Int: out += std::to_string(int_value); break;
  case Kind::Bool: out += int_value ? "True" : "False"; break;
  case Kind::Str: out += str; break;
  case Kind::List:
    out += "[";
    for (size_t i = 0; i < list->size(); ++i) {
      if (i)
        out += ", ";
      if (!(*list)[i].append_display(out, limit))
        return false;
    }
    out += "]";
    break;
  case Kind::Proc: out += print_proc(*proc); break;
  case Kind::Cursor: out += cursor_display(cursor); break;
  case Kind::Meta: out += print_expr(meta); break;
  case Kind::Func: out += "<function " + str + ">"; break;
  }
  return out.size() <= limit;
}

bool Value::truthy() const {
  switch (kind) {
  case Kind::None: return false;
  case Kind::Int: case Kind::Bool: return int_value != 0;
  case Kind::Str: return !str.empty();
  case Kind::List: return !list->empty();
  default: return true;
  }
}

bool values_equal(const Value &a, const Value &b) {
  if ((a.kind == Value::Kind::Int || a.kind == Value::Kind::Bool) &&
      (b.kind == Value::Kind::Int || b.kind == Value::Kind::Bool))
    return a.int_value == b.int_value;
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case Value::Kind::None: return true;
  case Value::Kind::Str: return a.str == b.str;
  case Value::Kind::List:
    if (a.list->size() != b.list->size())
      return false;
    for (size_t i = 0; i < a.list->size(); ++i)
      if (!values_equal((*a.list)[i], (*b.list)[i]))
        return false;
    return true;
  case Value::Kind::Proc: return a.proc == b.proc;
  case Value::Kind::Cursor:
    return a.cursor.kind == b.cursor.kind && a.cursor.node == b.cursor.node &&
           a.cursor.count == b.cursor.count;
  case Value::Kind::Meta: return print_expr(a.meta) == print_expr(b.meta);
  case Value::Kind::Func: return a.str == b.str && a.def == b.def;
  default: return false;
  }
}

} // namespace exgc::schedule
