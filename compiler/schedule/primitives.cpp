// primitives.cpp - the table of primitives, from primitives.def ---------------//
// Planned primitives are listed with a null implementation, so a script that
// uses one gets "not implemented yet" at its line rather than "unknown name".
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

#define EXGC_PRIMITIVE(name, fn, params) Value fn(Interpreter &, const CallSite &);
#include "compiler/schedule/primitives.def"

namespace {
using K = ParamKind;
} // namespace

const std::vector<PrimitiveSpec> &all_primitives() {
  static const std::vector<PrimitiveSpec> t = {
#define EXGC_PRIMITIVE(name, fn, params) {#name, std::vector<Param> params, fn},
#define EXGC_PLANNED(name) {#name, {}, nullptr},
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

std::string primitive_signature(const PrimitiveSpec &p) {
  std::string out = std::string(p.name) + "(";
  for (size_t i = 0; i < p.params.size(); ++i)
    out += std::string(i ? ", " : "") + p.params[i].name + ": " + param_kind_name(p.params[i].kind) +
           (p.params[i].required ? "" : " (optional)");
  return out + (p.fn ? ")" : ") (not implemented yet)");
}

const char *param_kind_name(ParamKind k) {
  switch (k) {
  case ParamKind::Proc: return "proc";
  case ParamKind::Stmt: return "cursor or pattern";
  case ParamKind::Int: return "int";
  case ParamKind::Bool: return "bool";
  case ParamKind::Str: return "str";
  case ParamKind::List: return "list";
  case ParamKind::Meta: return "descriptor";
  case ParamKind::Any: return "value";
  }
  return "?";
}

} // namespace exgc::schedule
