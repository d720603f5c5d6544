// primitives.cpp - the table of primitives, from primitives.def ---------------//
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

#define EXGC_PRIMITIVE(name, fn, params) Value fn(Interpreter &, const CallSite &);
#include "compiler/schedule/primitives.def"

namespace {
using K = ParamKind;
} // namespace

const std::vector<PrimitiveSpec> &all_primitives() {
  static const std::vector<PrimitiveSpec> t = {
#define EXGC_PRIMITIVE(name, fn, params) {#name, std::vector<Param> params, fn, false},
#define EXGC_UNSAFE_PRIMITIVE(name, fn, params) {#name, std::vector<Param> params, fn, true},
#include "compiler/schedule/primitives.def"
  };
  return t;
}

const PrimitiveSpec *find_primitive(const std::string &name) {
  for (const PrimitiveSpec &p : all_primitives())
    if (name == p.name)
      return &p;
  return nullptr;
}

PrimArg CallSite::arg(const char *param) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (std::string(params[i]) == param)
      return {args[i], static_cast<int>(i + 1), params[i], name.c_str(), loc};
  EXGC_CHECK(false) << "primitive " << name << " has no parameter " << param;
  EXGC_UNREACHABLE("unknown parameter");
}

bool is_unsafe_primitive(const std::string &name) {
  const PrimitiveSpec *p = find_primitive(name);
  return p && p->unsafe;
}

std::string primitive_signature(const PrimitiveSpec &p) {
  std::string out = std::string(p.name) + "(";
  for (size_t i = 0; i < p.params.size(); ++i)
    out += std::string(i ? ", " : "") + p.params[i].name + ": " + param_kind_name(p.params[i].kind) +
           (p.params[i].required() ? "" : " = " + p.params[i].fallback.spelling());
  return out + ")";
}

Value ParamDefault::value() const {
  switch (kind) {
  case Kind::Required:
  case Kind::Absent: return Value::none();
  case Kind::Int: return Value::of_int(int_value);
  case Kind::Bool: return Value::of_bool(int_value != 0);
  case Kind::Str: return Value::of_str(str);
  }
  EXGC_UNREACHABLE("default kind");
}

std::string ParamDefault::spelling() const {
  switch (kind) {
  case Kind::Required:
  case Kind::Absent: return "None";
  case Kind::Int: return std::to_string(int_value);
  case Kind::Bool: return int_value ? "True" : "False";
  case Kind::Str: return std::string("\"") + str + "\"";
  }
  EXGC_UNREACHABLE("default kind");
}

const char *param_kind_name(ParamKind k) {
  switch (k) {
  case ParamKind::Proc: return "proc";
  case ParamKind::Stmt: return "cursor or pattern";
  case ParamKind::Int: return "int";
  case ParamKind::Count: return "a positive int";
  case ParamKind::Bool: return "bool";
  case ParamKind::Str: return "str";
  case ParamKind::Name: return "a name (an identifier that is not a keyword)";
  case ParamKind::List: return "list";
  case ParamKind::Meta: return "descriptor";
  case ParamKind::Any: return "value";
  case ParamKind::Keywords: return "keyword arguments";
  }
  return "?";
}

} // namespace exgc::schedule
