// instr_args.cpp - an instruction call's arguments by parameter ------------//
#include "compiler/ir/instr_args.h"

namespace exgc {

bool instr_attr_names(const ProcNode &instr, const char *key, const std::string &name) {
  if (const InstrAttr *a = instr.attr(key))
    for (const Expr &v : a->values) {
      if (const auto *var = v.as<Var>(); var && var->name.name == name)
        return true;
      if (const auto *r = v.as<Read>(); r && r->buf.name == name)
        return true;
    }
  return false;
}

std::vector<Expr> bind_instr_args(const CallStmt &call, const ProcNode &instr) {
  std::vector<Expr> bound(instr.args.size());
  size_t next = 0;
  for (size_t i = 0; i < instr.args.size(); ++i) {
    const std::string &n = instr.args[i].name.name;
    if (instr_attr_names(instr, "template", n)) {
      for (const KwArg &k : call.kwargs)
        if (k.key == n)
          bound[i] = k.value;
    } else if (next < call.args.size()) {
      bound[i] = call.args[next++];
    }
  }
  return bound;
}

} // namespace exgc
