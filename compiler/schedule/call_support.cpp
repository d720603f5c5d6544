// call_support.cpp - callee names, call-site re-checks, affine forms -----------//
#include "compiler/schedule/call_support.h"

#include <algorithm>

#include "compiler/frontend/typecheck.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"

namespace exgc::schedule {

std::string callee_name(Interpreter &in, const Proc &callee) {
  const LoadedModule &main = *in.program().modules.front();
  std::string found;
  for (const auto &[name, q] : main.scope)
    if (q.get() == callee.get() && (found.empty() || name.size() < found.size()))
      found = name; // prefer `f` to `alias.f`
  return found;
}

const CallStmt *call_stmt_arg(Interpreter &in, const CallSite &call, Stmt &s) {
  s = stmt_arg(in, call.proc(), call.arg("call").value, call.loc);
  const auto *cs = s.as<CallStmt>();
  if (!cs)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'" + call.name + "'", "a call");
  return cs;
}

Proc callee_of(Interpreter &in, const Proc &p, const std::string &name) {
  if (Proc q = in.program().lookup_from(p.get(), name))
    return q;
  return in.result(name);
}

std::set<uint32_t> written_params(Interpreter &in, const Proc &f) {
  analysis::EffectCollector coll(*f, callee_lookup(in, f));
  std::set<uint32_t> out;
  for (const analysis::Access &a : coll.of(f->body).accesses)
    if (a.kind != analysis::AccessKind::Read)
      out.insert(a.buf.id);
  return out;
}

std::unique_ptr<Diagnostic> first_error_at(Interpreter &in, const ProcNode &p,
                                           const std::vector<SrcLoc> &at,
                                           const std::set<DiagKind> &ignore) {
  DiagEngine scratch(in.diag().sources());
  typecheck_proc(in.program(), p, scratch);
  for (const Diagnostic &d : scratch.diagnostics())
    for (const SrcLoc &l : at)
      if (d.severity == Severity::Error && d.loc == l && !ignore.count(d.kind))
        return std::make_unique<Diagnostic>(d);
  return nullptr;
}

Affine Affine::operator-(const Affine &o) const {
  Affine r = *this;
  r.ok = ok && o.ok;
  r.constant -= o.constant;
  for (const auto &[key, t] : o.terms) {
    auto it = r.terms.find(key);
    if (it == r.terms.end())
      r.terms[key] = {t.first, -t.second};
    else if ((it->second.second -= t.second) == 0)
      r.terms.erase(it);
  }
  return r;
}

namespace {

void add(Affine &a, const Affine &b, int64_t k) {
  a.ok = a.ok && b.ok;
  a.constant += k * b.constant;
  for (const auto &[key, t] : b.terms) {
    auto it = a.terms.find(key);
    if (it == a.terms.end())
      a.terms[key] = {t.first, k * t.second};
    else if ((it->second.second += k * t.second) == 0)
      a.terms.erase(it);
  }
}

Affine atom(const Expr &e, const std::string &key) {
  Affine a;
  a.terms[key] = {e, 1};
  return a;
}

} // namespace

bool Affine::mentions_any(const std::set<uint32_t> &ids) const {
  for (const auto &[key, t] : terms)
    for (uint32_t id : ids_of(t.first))
      if (ids.count(id))
        return true;
  return false;
}

std::set<uint32_t> ids_of(const Expr &e) {
  struct Ids : IRVisitor {
    std::set<uint32_t> ids;
    void visit_node(const Var *op) override { ids.insert(op->name.id); }
    void visit_node(const Read *op) override {
      ids.insert(op->buf.id);
      IRVisitor::visit_node(op);
    }
    void visit_node(const WindowExpr *op) override {
      ids.insert(op->buf.id);
      IRVisitor::visit_node(op);
    }
  } v;
  v.visit(e);
  return v.ids;
}

Affine to_affine(const Expr &e) {
  Affine out;
  if (!is_control(e->type) || e->type == ValueType::Bool) {
    out.ok = false;
    return out;
  }
  if (const auto *i = e.as<IntImm>()) {
    out.constant = i->value;
    return out;
  }
  if (const auto *v = e.as<Var>()) {
    // Zero-padded, so that terms come out in the order their names were
    // declared (id 998 before id 1003) whatever ran before this proc.
    std::string id = std::to_string(v->name.id);
    return atom(e, "v" + std::string(10 - std::min<size_t>(id.size(), 10), '0') + id);
  }
  if (const auto *u = e.as<UnOp>(); u && u->op == UnOpKind::Neg) {
    add(out, to_affine(u->a), -1);
    return out;
  }
  if (const auto *b = e.as<BinOp>()) {
    if (b->op == BinOpKind::Add || b->op == BinOpKind::Sub) {
      add(out, to_affine(b->a), 1);
      add(out, to_affine(b->b), b->op == BinOpKind::Add ? 1 : -1);
      return out;
    }
    if (b->op == BinOpKind::Mul) {
      Affine x = to_affine(b->a), y = to_affine(b->b);
      if (x.ok && x.terms.empty()) {
        add(out, y, x.constant);
        return out;
      }
      if (y.ok && y.terms.empty()) {
        add(out, x, y.constant);
        return out;
      }
    }
  }
  return atom(e, "t" + print_expr(e)); // `/`, `%`, calls: opaque, compared by text
}

Expr from_affine(const Affine &a, SrcLoc loc) {
  // Terms with positive coefficients first, so that `M - 128 * t` reads as
  // written by hand rather than `-(128 * t) + M`.
  std::vector<std::pair<Expr, int64_t>> terms;
  for (const auto &[key, t] : a.terms)
    if (t.second > 0)
      terms.push_back(t);
  for (const auto &[key, t] : a.terms)
    if (t.second < 0)
      terms.push_back(t);
  Expr sum;
  for (const auto &t : terms) {
    int64_t k = t.second;
    Expr term = at_loc(t.first, loc);
    if (k != 1 && k != -1)
      term = BinOp::make(BinOpKind::Mul, IntImm::make(k < 0 ? -k : k, loc), term, loc);
    if (!sum)
      sum = k < 0 ? UnOp::make(UnOpKind::Neg, term, loc) : term;
    else
      sum = BinOp::make(k < 0 ? BinOpKind::Sub : BinOpKind::Add, sum, term, loc);
  }
  if (!sum)
    return IntImm::make(a.constant, loc);
  if (a.constant != 0)
    sum = BinOp::make(a.constant < 0 ? BinOpKind::Sub : BinOpKind::Add, sum,
                      IntImm::make(a.constant < 0 ? -a.constant : a.constant, loc), loc);
  return sum;
}

} // namespace exgc::schedule

namespace exgc::schedule {
Expr at_loc(const Expr &e, SrcLoc loc) {
  if (const auto *i = e.as<IntImm>())
    return IntImm::make(i->value, loc);
  if (const auto *v = e.as<Var>())
    return Var::make(v->name, v->type, loc);
  if (const auto *b = e.as<BinOp>())
    return BinOp::make(b->op, at_loc(b->a, loc), at_loc(b->b, loc), loc);
  if (const auto *u = e.as<UnOp>())
    return UnOp::make(u->op, at_loc(u->a, loc), loc);
  if (const auto *c = e.as<Call>()) {
    std::vector<Expr> args;
    for (const Expr &a : c->args)
      args.push_back(at_loc(a, loc));
    return Call::make(c->func, std::move(args), c->kwargs, loc);
  }
  return e;
}
} // namespace exgc::schedule
