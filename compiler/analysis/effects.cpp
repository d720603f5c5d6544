// effects.cpp - collecting the accesses of statements --------------------------//
#include "compiler/analysis/effects.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/ir/window.h"

namespace exgc::analysis {

const char *access_verb(AccessKind k) {
  switch (k) {
  case AccessKind::Read: return "reads";
  case AccessKind::Write: return "writes";
  case AccessKind::Reduce: return "reduces into";
  }
  return "?";
}

namespace {

struct Subst : IRMutator {
  const std::map<uint32_t, Expr> *m;
  Expr mutate_node(const Var *op, const Expr &self) override {
    auto it = m->find(op->name.id);
    return it == m->end() ? self : it->second;
  }
};

struct Mentions : IRVisitor {
  Sym s;
  bool found = false;
  void visit_node(const Var *op) override { found |= op->name == s; }
  void visit_node(const Read *op) override {
    found |= op->buf == s;
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowExpr *op) override {
    found |= op->buf == s;
    IRVisitor::visit_node(op);
  }
  void visit_node(const Assign *op) override {
    found |= op->buf == s;
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    found |= op->buf == s;
    IRVisitor::visit_node(op);
  }
};

std::string access_text(const Sym &buf, const std::vector<Expr> &idx) {
  std::string t = buf.name;
  if (idx.empty())
    return t;
  t += "[";
  for (size_t i = 0; i < idx.size(); ++i)
    t += (i ? ", " : "") + print_expr(idx[i]);
  return t + "]";
}

void collect_windows(const Block &b, std::vector<const WindowStmt *> &out) {
  for (const Stmt &s : b) {
    if (const auto *w = s.as<WindowStmt>())
      out.push_back(w);
    else if (const auto *f = s.as<For>())
      collect_windows(f->body, out);
    else if (const auto *i = s.as<If>()) {
      collect_windows(i->then_body, out);
      collect_windows(i->else_body, out);
    } else if (const auto *w2 = s.as<With>())
      collect_windows(w2->body, out);
  }
}

} // namespace

Expr substitute(const Expr &e, const std::map<uint32_t, Expr> &m) {
  if (!e || m.empty())
    return e;
  Subst s;
  s.m = &m;
  return s.mutate(e);
}

Expr size_conditions(const Expr &pred) {
  if (const auto *c = pred.as<Call>(); c && c->func == "aligned")
    return BoolImm::make(true, pred->loc);
  if (const auto *b = pred.as<BinOp>(); b && b->op == BinOpKind::And)
    return BinOp::make(BinOpKind::And, size_conditions(b->a), size_conditions(b->b), pred->loc);
  return pred;
}

bool mentions(const Expr &e, const Sym &s) {
  if (!e)
    return false;
  Mentions v;
  v.s = s;
  v.visit(e);
  return v.found;
}

bool mentions(const Block &b, const Sym &s) {
  Mentions v;
  v.s = s;
  for (const Stmt &st : b)
    v.visit(st);
  return v.found;
}

EffectCollector::EffectCollector(const ProcNode &proc, CalleeLookup callees)
    : callees_(std::move(callees)) {
  std::vector<const WindowStmt *> ws;
  collect_windows(proc.body, ws);
  Env env;
  for (const WindowStmt *w : ws) {
    const auto *we = w->rhs.as<WindowExpr>();
    if (!we)
      continue;
    std::vector<bool> sl;
    std::vector<Expr> st;
    for (const WindowIdx &wi : we->idx) {
      sl.push_back(wi.is_slice);
      st.push_back(wi.lo ? wi.lo : IntImm::make(0));
    }
    windows_[w->name.id] = resolve_window(we->buf, sl, st, env);
  }
}

Expr EffectCollector::subst(const Expr &e, const Env &env) const { return substitute(e, env.vars); }

const Alias *EffectCollector::alias_of(const Sym &buf, const Env &env) const {
  if (auto it = env.bufs.find(buf.id); it != env.bufs.end())
    return &it->second;
  if (auto it = windows_.find(buf.id); it != windows_.end())
    return &it->second;
  return nullptr;
}

Alias EffectCollector::resolve_window(const Sym &buf, const std::vector<bool> &is_slice,
                                      const std::vector<Expr> &start, Env &env) const {
  const Alias *a = alias_of(buf, env);
  if (!a)
    return Alias{buf, is_slice, start};
  // A window of a window: the inner one's starts placed through the outer.
  Alias out{a->base, {}, window_to_buffer(a->is_slice, a->start, start, plain_sum)};
  size_t k = 0;
  for (size_t d = 0; d < a->start.size(); ++d)
    out.is_slice.push_back(a->is_slice[d] && k < is_slice.size() ? is_slice[k++] : a->is_slice[d]);
  return out;
}

void EffectCollector::access(AccessKind k, const Sym &buf, const std::vector<Expr> &idx0,
                             SrcLoc loc, const std::string &text, Env &env, Effects &out) const {
  std::vector<Expr> idx;
  for (const Expr &e : idx0)
    idx.push_back(subst(e, env));
  Access a;
  a.kind = k;
  a.loc = loc;
  a.text = text;
  a.scopes = env.scopes;
  if (const Alias *al = alias_of(buf, env)) {
    a.buf = al->base;
    a.idx = window_to_buffer(al->is_slice, al->start, idx, plain_sum);
  } else {
    a.buf = buf;
    a.idx = idx;
  }
  out.mentioned.insert(a.buf.id);
  out.accesses.push_back(std::move(a));
}

void EffectCollector::reads(const Expr &e, Env &env, Effects &out) const {
  if (!e)
    return;
  if (const auto *r = e.as<Read>()) {
    for (const Expr &i : r->idx)
      reads(i, env, out);
    if (r->type != ValueType::Meta)
      access(AccessKind::Read, r->buf, r->idx, e->loc, print_expr(e), env, out);
    return;
  }
  if (const auto *v = e.as<Var>()) {
    out.mentioned.insert(v->name.id);
    // A data scalar argument named as a value is a read of that buffer.
    if (is_data(v->type))
      access(AccessKind::Read, v->name, {}, e->loc, v->name.name, env, out);
    return;
  }
  if (const auto *b = e.as<BinOp>()) {
    reads(b->a, env, out);
    reads(b->b, env, out);
  } else if (const auto *u = e.as<UnOp>()) {
    reads(u->a, env, out);
  } else if (const auto *c = e.as<Call>()) {
    if (!Call::is_buffer_query(c->func))
      for (const Expr &a : c->args)
        reads(a, env, out);
  } else if (const auto *w = e.as<WindowExpr>()) {
    out.mentioned.insert(w->buf.id);
  }
}

namespace {
/// The arguments of call `c` in the order of `callee`'s parameters: an
/// instr's template parameters (its `template:` line) are passed by keyword
/// (`lane_mask=4`), the others positionally. Empty when they do not fit.
std::vector<Expr> call_actuals(const CallStmt &c, const ProcNode &callee) {
  std::vector<Expr> out;
  const InstrAttr *t = callee.attr("template");
  size_t next = 0;
  for (const Arg &a : callee.args) {
    bool is_template = false;
    for (const Expr &v : t ? t->values : std::vector<Expr>{})
      is_template |= v.as<Var>() && v.as<Var>()->name.name == a.name.name;
    if (!is_template) {
      if (next == c.args.size())
        return {};
      out.push_back(c.args[next++]);
      continue;
    }
    const KwArg *k = nullptr;
    for (const KwArg &kw : c.kwargs)
      k = kw.key == a.name.name ? &kw : k;
    if (!k)
      return {};
    out.push_back(k->value);
  }
  if (next != c.args.size())
    return {};
  return out;
}
} // namespace

void EffectCollector::call(const CallStmt &c, Env &env, Effects &out) const {
  const ProcNode *callee = callees_ ? callees_(c.callee) : nullptr;
  const std::vector<Expr> actuals = callee ? call_actuals(c, *callee) : std::vector<Expr>{};
  if (!callee || env.depth > 64 || actuals.size() != callee->args.size()) {
    // Unknown callee: it may read and write every buffer it is given,
    // anywhere; a data scalar passed by name is passed by pointer, so it is
    // such a buffer too. Other arguments (values, control expressions) are
    // only read.
    for (const Expr &a : c.args) {
      Sym b;
      if (const auto *r = a.as<Read>())
        b = r->buf;
      else if (const auto *w = a.as<WindowExpr>())
        b = w->buf;
      else if (const auto *v = a.as<Var>(); v && is_data(v->type))
        b = v->name;
      else {
        reads(a, env, out);
        continue;
      }
      if (const auto *r = a.as<Read>())
        for (const Expr &x : r->idx)
          reads(x, env, out);
      for (AccessKind k : {AccessKind::Read, AccessKind::Write}) {
        access(k, b, {}, a->loc, print_expr(a), env, out);
        out.accesses.back().anywhere = true;
      }
    }
    return;
  }
  Effects body; // the callee's own effects, filtered below
  Env inner;
  inner.scopes = env.scopes;
  inner.depth = env.depth + 1;
  for (size_t i = 0; i < callee->args.size(); ++i) {
    const Arg &p = callee->args[i];
    const Expr &a = actuals[i];
    reads(a.as<WindowExpr>() || a.as<Read>() ? Expr() : a, env, out);
    if (p.type.kind == Type::Kind::Control) {
      inner.vars[p.name.id] = subst(a, env);
      continue;
    }
    if (p.type.kind == Type::Kind::Barrier)
      continue;
    std::vector<bool> sl;
    std::vector<Expr> st;
    Sym base;
    if (const auto *r = a.as<Read>()) {
      base = r->buf;
      for (const Expr &x : r->idx) {
        reads(x, env, out);
        sl.push_back(false);
        st.push_back(subst(x, env));
      }
    } else if (const auto *w = a.as<WindowExpr>()) {
      base = w->buf;
      for (const WindowIdx &wi : w->idx) {
        sl.push_back(wi.is_slice);
        st.push_back(wi.lo ? subst(wi.lo, env) : IntImm::make(0));
      }
    } else if (const auto *v = a.as<Var>(); v && is_data(v->type)) {
      base = v->name;
    } else {
      // A value (a literal, an expression) bound to a data parameter: the
      // parameter is then private to the call.
      body.defs.insert(p.name.id);
      continue;
    }
    out.mentioned.insert(base.id);
    Alias al = resolve_window(base, sl, st, env);
    // A whole buffer passed as is: the parameter's indices are the buffer's.
    if (sl.empty() && st.empty() && al.base == base)
      inner.bufs[p.name.id] = Alias{base, std::vector<bool>(p.type.shape.size(), true),
                                    std::vector<Expr>(p.type.shape.size(), IntImm::make(0))};
    else
      inner.bufs[p.name.id] = al;
  }
  // What the callee allocates is private to each run of it: its accesses
  // never conflict with anything outside this call, and its declarations are
  // not the caller's (two calls of one callee share the callee's Syms).
  block(callee->body, inner, body);
  for (Access &a : body.accesses)
    if (!body.defs.count(a.buf.id))
      out.accesses.push_back(std::move(a));
  for (uint32_t id : body.mentioned)
    if (!body.defs.count(id))
      out.mentioned.insert(id);
}

void EffectCollector::stmt(const Stmt &s, Env &env, Effects &out) const {
  switch (s->kind) {
  case StmtKind::Assign: {
    const auto *a = s.as<Assign>();
    for (const Expr &i : a->idx)
      reads(i, env, out);
    reads(a->rhs, env, out);
    access(AccessKind::Write, a->buf, a->idx, s->loc, access_text(a->buf, a->idx), env, out);
    return;
  }
  case StmtKind::Reduce: {
    const auto *r = s.as<Reduce>();
    for (const Expr &i : r->idx)
      reads(i, env, out);
    reads(r->rhs, env, out);
    access(AccessKind::Reduce, r->buf, r->idx, s->loc, access_text(r->buf, r->idx), env, out);
    return;
  }
  case StmtKind::Alloc:
    out.defs.insert(s.as<Alloc>()->name.id);
    out.mentioned.insert(s.as<Alloc>()->name.id);
    return;
  case StmtKind::WindowStmt: {
    const auto *w = s.as<WindowStmt>();
    out.defs.insert(w->name.id);
    if (const auto *we = w->rhs.as<WindowExpr>()) {
      out.mentioned.insert(we->buf.id);
      std::vector<bool> sl;
      std::vector<Expr> st;
      for (const WindowIdx &wi : we->idx) {
        sl.push_back(wi.is_slice);
        st.push_back(wi.lo ? subst(wi.lo, env) : IntImm::make(0));
      }
      env.bufs[w->name.id] = resolve_window(we->buf, sl, st, env);
    }
    return;
  }
  case StmtKind::For: {
    const auto *f = s.as<For>();
    reads(f->lo, env, out);
    reads(f->hi, env, out);
    Scope sc;
    sc.is_loop = true;
    sc.iter = f->iter;
    sc.lo = subst(f->lo, env);
    sc.hi = subst(f->hi, env);
    env.scopes.push_back(sc);
    block(f->body, env, out);
    env.scopes.pop_back();
    return;
  }
  case StmtKind::If: {
    const auto *i = s.as<If>();
    reads(i->cond, env, out);
    Scope sc;
    sc.is_loop = false;
    sc.cond = subst(i->cond, env);
    env.scopes.push_back(sc);
    block(i->then_body, env, out);
    env.scopes.back().negated = true;
    block(i->else_body, env, out);
    env.scopes.pop_back();
    return;
  }
  case StmtKind::CallStmt:
    call(*s.as<CallStmt>(), env, out);
    return;
  case StmtKind::With:
    block(s.as<With>()->body, env, out);
    return;
  case StmtKind::Pass:
  case StmtKind::Fence:
  case StmtKind::Arrive:
  case StmtKind::Await:
    return;
  }
}

void EffectCollector::block(const Block &b, Env &env, Effects &out) const {
  for (const Stmt &s : b)
    stmt(s, env, out);
}

Effects EffectCollector::of(const Block &b) const {
  Env env;
  Effects out;
  block(b, env, out);
  return out;
}

Effects EffectCollector::of(const Stmt &s) const { return of(Block{s}); }

Effects EffectCollector::of_expr(const Expr &e) const {
  Env env;
  Effects out;
  reads(e, env, out);
  return out;
}

Sym EffectCollector::root_of(const Sym &buf) const {
  auto it = windows_.find(buf.id);
  return it == windows_.end() ? buf : it->second.base;
}

namespace {
bool first_touch(const Effects &e, const Sym &buf, SrcLoc &at) {
  for (const Access &a : e.accesses)
    if (a.buf.id == buf.id) {
      at = a.loc;
      return true;
    }
  return false;
}
bool mentions_root(const EffectCollector &c, const Effects &e, const Sym &buf) {
  for (uint32_t id : e.mentioned)
    if (id == buf.id || c.root_of(Sym{"", id}).id == buf.id)
      return true;
  return false;
}
} // namespace

bool EffectCollector::touches(const Block &code, const Sym &buf, SrcLoc &at) const {
  for (const Stmt &s : code) {
    Effects e = of(s);
    if (first_touch(e, buf, at))
      return true;
    if (mentions_root(*this, e, buf)) {
      at = s->loc;
      return true;
    }
  }
  return false;
}

bool EffectCollector::touches(const Expr &x, const Sym &buf, SrcLoc &at) const {
  Effects e = of_expr(x);
  if (first_touch(e, buf, at))
    return true;
  if (mentions_root(*this, e, buf)) {
    at = x->loc;
    return true;
  }
  return false;
}

} // namespace exgc::analysis
