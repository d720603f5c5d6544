// difftest_work.cpp - what one run of a proc costs, for the size search ---//
#include "compiler/codegen/difftest_work.h"

#include <vector>

#include "compiler/ir/instr_args.h"
#include "compiler/support/join.h"

namespace exgc::codegen {

namespace {

/// The C++ name of iterator `id` in a work function; the trailing `_` keeps
/// one name from being a prefix of another (`w1_`, `w12_`).
std::string iter_name(uint32_t id) { return "w" + std::to_string(id) + "_"; }

} // namespace

std::string WorkFunctions::of(const ProcNode &p) {
  auto known = name_of_proc_.find(&p);
  if (known != name_of_proc_.end())
    return known->second;
  CtrlPrinter cp;
  std::vector<std::string> params;
  for (const Arg &a : p.args)
    if (a.type.kind == Type::Kind::Control) {
      std::string v = "a" + std::to_string(params.size());
      cp.vars[a.name.id] = v;
      params.push_back("[[maybe_unused]] int64_t " + v);
    }
  // The callees' functions are written while the body is.
  std::string text = "(" + join(params, ", ") + ") {\n  return " + block(p, p.body, cp) + ";\n}\n\n";
  std::string name = "exgdt_work_p" + std::to_string(name_of_text_.size());
  auto [it, fresh] = name_of_text_.emplace(text, name);
  if (fresh)
    defs_ += "static int64_t " + name + text;
  name_of_proc_[&p] = it->second;
  return it->second;
}

std::string WorkFunctions::block(const ProcNode &p, const Block &b, const CtrlPrinter &cp) {
  int64_t leaves = 0;
  std::vector<std::string> terms;
  for (const Stmt &s : b) {
    if (s.as<Assign>() || s.as<Reduce>()) {
      ++leaves;
      continue;
    }
    std::string t = stmt(p, s, cp);
    if (!t.empty())
      terms.push_back(t);
  }
  if (leaves)
    terms.push_back("int64_t(" + std::to_string(leaves) + ")");
  if (terms.empty())
    return "int64_t(0)";
  if (terms.size() == 1)
    return terms[0];
  return "exgdt::wsum({" + join(terms, ", ") + "})";
}

std::string WorkFunctions::stmt(const ProcNode &p, const Stmt &s, const CtrlPrinter &cp) {
  if (const auto *f = s.as<For>())
    return loop(p, *f, cp);
  if (const auto *i = s.as<If>())
    return "exgdt::max64(" + block(p, i->then_body, cp) + ", " + block(p, i->else_body, cp) + ")";
  if (const auto *w = s.as<With>())
    return block(p, w->body, cp);
  if (const auto *c = s.as<CallStmt>())
    return call(p, *c, cp);
  return "";
}

std::string WorkFunctions::loop(const ProcNode &p, const For &f, const CtrlPrinter &cp) {
  CtrlPrinter bounds = cp;
  std::string lo = bounds.print(f.lo), hi = bounds.print(f.hi);
  if (!bounds.ok) {
    lo = "int64_t(0)";
    hi = "int64_t(1)";
  }
  std::string it = iter_name(f.iter.id);
  CtrlPrinter inner = cp;
  inner.vars[f.iter.id] = it;
  std::string body = block(p, f.body, inner);
  if (body.find(it) == std::string::npos)
    return "exgdt::wmul(exgdt::trips(" + lo + ", " + hi + "), " + body + ")";
  // The body is written once, as a function of the iterator.
  return "exgdt::wloop(" + lo + ", " + hi + ", [&](int64_t " + it + ") { return " + body + "; })";
}

std::string WorkFunctions::call(const ProcNode &p, const CallStmt &c, const CtrlPrinter &cp) {
  Proc q = callee_(&p, c.callee);
  if (!q)
    return "int64_t(1)";
  std::vector<Expr> args = q->is_instr ? bind_instr_args(c, *q) : c.args;
  std::vector<std::string> values;
  for (size_t i = 0; i < q->args.size(); ++i) {
    if (q->args[i].type.kind != Type::Kind::Control)
      continue;
    CtrlPrinter a = cp;
    std::string v = i < args.size() && args[i] ? a.print(args[i]) : "";
    values.push_back(a.ok && !v.empty() ? v : "int64_t(1)");
  }
  return of(*q) + "(" + join(values, ", ") + ")";
}

} // namespace exgc::codegen
