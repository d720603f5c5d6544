// difftest_work.cpp - what one run of a proc costs, for the size search ---//
#include "compiler/codegen/difftest_work.h"

#include <vector>

#include "compiler/ir/instr_args.h"

namespace exgc::codegen {

namespace {

// A loop whose iterator its body's work reads doubles the text (first and
// last iteration); past this length only the last iteration is written.
const size_t kMaxText = 4096;

class Work {
public:
  explicit Work(const CalleeOf &callee) : callee_(callee) {}

  std::string block(const ProcNode &p, const Block &b, const CtrlPrinter &cp) {
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
    std::string out = "exgdt::wsum({";
    for (size_t i = 0; i < terms.size(); ++i)
      out += (i ? ", " : "") + terms[i];
    return out + "})";
  }

private:
  std::string stmt(const ProcNode &p, const Stmt &s, const CtrlPrinter &cp) {
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

  std::string loop(const ProcNode &p, const For &f, const CtrlPrinter &cp) {
    CtrlPrinter bounds = cp;
    std::string lo = bounds.print(f.lo), hi = bounds.print(f.hi);
    if (!bounds.ok) {
      lo = "int64_t(0)";
      hi = "int64_t(1)";
    }
    auto at = [&](const std::string &value) {
      CtrlPrinter inner = cp;
      inner.vars[f.iter.id] = value;
      return block(p, f.body, inner);
    };
    std::string first = at("(" + lo + ")"), last = at("(" + hi + " - 1)");
    std::string body = first == last || first.size() + last.size() > kMaxText
                           ? last
                           : "exgdt::max64(" + first + ", " + last + ")";
    return "exgdt::wmul(exgdt::trips(" + lo + ", " + hi + "), " + body + ")";
  }

  std::string call(const ProcNode &p, const CallStmt &c, const CtrlPrinter &cp) {
    Proc q = callee_(&p, c.callee);
    if (!q)
      return "int64_t(1)";
    std::vector<Expr> args = q->is_instr ? bind_instr_args(c, *q) : c.args;
    CtrlPrinter inner;
    for (size_t i = 0; i < q->args.size() && i < args.size(); ++i) {
      if (q->args[i].type.kind != Type::Kind::Control || !args[i])
        continue;
      CtrlPrinter a = cp;
      std::string v = a.print(args[i]);
      if (a.ok)
        inner.vars[q->args[i].name.id] = "(" + v + ")";
    }
    return block(*q, q->body, inner);
  }

  const CalleeOf &callee_;
};

} // namespace

std::string work_expr(const ProcNode &p, const CtrlPrinter &ctrl, const CalleeOf &callee) {
  return Work(callee).block(p, p.body, ctrl);
}

} // namespace exgc::codegen
