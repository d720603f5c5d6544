// difftest_ctrl.h - control expressions of a difftest case as C++ ---------//
// Owns: how the difftest program writes extents, asserts and loop bounds: C++
// over variables that hold the control arguments (floor division and modulo
// as the language defines them, exgdt::fdiv/fmod).
#pragma once
#include <map>
#include <string>

#include "compiler/ir/nodes.h"

namespace exgc::codegen {

/// Control expressions (extents, asserts) as C++ over the size variables.
class CtrlPrinter {
public:
  std::map<uint32_t, std::string> vars; // Sym id -> C++ variable
  bool ok = true;

  std::string print(const Expr &e) {
    if (const auto *i = e.as<IntImm>())
      return "int64_t(" + std::to_string(i->value) + ")";
    if (const auto *b = e.as<BoolImm>())
      return b->value ? "true" : "false";
    if (const auto *v = e.as<Var>()) {
      auto it = vars.find(v->name.id);
      if (it != vars.end())
        return it->second;
    }
    if (const auto *u = e.as<UnOp>())
      return std::string(u->op == UnOpKind::Neg ? "(-" : "(!") + print(u->a) + ")";
    if (const auto *b = e.as<BinOp>()) {
      std::string a = print(b->a), c = print(b->b);
      switch (b->op) {
      case BinOpKind::Div: return "exgdt::fdiv(" + a + ", " + c + ")";
      case BinOpKind::Mod: return "exgdt::fmod(" + a + ", " + c + ")";
      case BinOpKind::And: return "(" + a + " && " + c + ")";
      case BinOpKind::Or: return "(" + a + " || " + c + ")";
      default: return "(" + a + " " + binop_spelling(b->op) + " " + c + ")";
      }
    }
    if (const auto *c = e.as<Call>(); c && (c->func == "min" || c->func == "max") && c->args.size() == 2)
      return "exgdt::" + c->func + "64(" + print(c->args[0]) + ", " + print(c->args[1]) + ")";
    ok = false;
    return "0";
  }
};

} // namespace exgc::codegen
