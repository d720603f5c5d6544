// pattern.cpp - match proc-syntax fragments against IR ----------------------//
#include "compiler/schedule/pattern.h"

#include "compiler/schedule/cursor.h"

#include <cctype>

namespace exgc::schedule {
namespace {

using FK = FragExpr::Kind;

bool is_name(const FragExprP &p, const std::string &n) {
  return p && (p->is_hole() || (p->kind == FK::Name && p->text == n));
}

/// A lone `_` stands for any list; otherwise one pattern per element.
template <typename T, typename F>
bool match_list(const std::vector<FragExprP> &pats, size_t first, const std::vector<T> &xs, F f) {
  size_t n = pats.size() - first;
  if (n == 1 && pats[first]->is_hole())
    return true;
  if (n != xs.size())
    return false;
  for (size_t i = 0; i < n; ++i)
    if (!f(*pats[first + i], xs[i]))
      return false;
  return true;
}

/// Every keyword the pattern gives is present and matches.
bool match_kwargs(const std::vector<std::pair<std::string, FragExprP>> &pats,
                  const std::vector<KwArg> &ks) {
  for (const auto &[key, pat] : pats) {
    bool found = false;
    for (const KwArg &k : ks)
      if (k.key == key && match_expr(*pat, k.value))
        found = true;
    if (!found)
      return false;
  }
  return true;
}

bool match_window_idx(const FragExpr &pat, const WindowIdx &w) {
  if (pat.is_hole())
    return true;
  if (pat.kind != FK::Slice)
    return !w.is_slice && match_expr(pat, w.lo);
  if (!w.is_slice)
    return false;
  auto bound = [](const FragExprP &p, const Expr &e) {
    if (!p)
      return !e;
    return p->is_hole() || (e && match_expr(*p, e));
  };
  return bound(pat.items[0], w.lo) && bound(pat.items[1], w.hi);
}

/// `x` or `x[i, j]` against buffer `buf` with indices `idx`.
bool match_access(const FragExpr &pat, const Sym &buf, const std::vector<Expr> &idx) {
  if (pat.is_hole())
    return true;
  if (pat.kind == FK::Name)
    return pat.text == buf.name && idx.empty();
  if (pat.kind != FK::Index || !is_name(pat.items[0], buf.name))
    return false;
  return match_list(pat.items, 1, idx, [](const FragExpr &p, const Expr &e) {
    return p.kind != FK::Slice && match_expr(p, e);
  });
}

bool match_mem(const FragExprP &pat, const Expr &mem) {
  if (!pat)
    return true; // no `@` in the pattern: any memory
  if (!mem)
    return is_name(pat, "DRAM");
  return match_expr(*pat, mem);
}

/// `f32[M, K] @ Mem`, `f32`, `[f32][M] @ Mem`, `barrier[n] @ Mech`, `_`.
bool match_type(const FragExpr &pat, const Type &t) {
  if (pat.is_hole())
    return true;
  const FragExpr *base = &pat;
  FragExprP mem;
  if (pat.kind == FK::Annot) {
    base = pat.items[0].get();
    mem = pat.items[1];
  }
  if (!match_mem(mem, t.mem))
    return false;
  std::string head = t.kind == Type::Kind::Barrier ? "barrier" : value_type_name(t.scalar);
  if (base->kind == FK::Name)
    return base->text == head && t.shape.empty() && !t.window;
  if (base->is_hole())
    return true;
  if (base->kind != FK::Index)
    return false;
  const FragExpr &h = *base->items[0];
  bool window_pat = h.kind == FK::List;
  if (window_pat != t.window)
    return false;
  const FragExprP &name = window_pat ? (h.items.size() == 1 ? h.items[0] : nullptr) : base->items[0];
  if (!name || !is_name(name, head))
    return false;
  return match_list(base->items, 1, t.shape,
                    [](const FragExpr &p, const Expr &e) { return match_expr(p, e); });
}

bool match_loop_range(const FragExpr &pat, const For &f) {
  if (pat.is_hole())
    return true;
  if (pat.kind != FK::Call || !(pat.text == "_" || pat.text == f.mode.name))
    return false;
  std::vector<Expr> bounds{f.lo, f.hi};
  return match_list(pat.items, 0, bounds,
                    [](const FragExpr &p, const Expr &e) { return match_expr(p, e); }) &&
         match_kwargs(pat.kwargs, f.mode.kwargs);
}

bool match_call_stmt(const FragStmt &pat, const Stmt &s) {
  const FragExpr &call = *pat.a;
  auto bars = [&](const std::vector<Expr> &bs) {
    if (pat.barriers.empty())
      return true; // no `>>` in the pattern: any trailing barriers
    if (pat.barriers.size() == 1 && pat.barriers[0]->is_hole())
      return !bs.empty();
    if (pat.barriers.size() != bs.size())
      return false;
    for (size_t i = 0; i < bs.size(); ++i)
      if (!match_expr(*pat.barriers[i], bs[i]))
        return false;
    return true;
  };
  auto timeline = [](const FragExpr &p, const std::string &tl) {
    return p.is_hole() || (p.kind == FK::Name && p.text == tl);
  };
  auto args_are = [&](size_t n) { return call.kwargs.empty() && call.items.size() == n; };
  if (const auto *f = s.as<Fence>())
    return call.text == "Fence" && args_are(2) && pat.barriers.empty() &&
           timeline(*call.items[0], f->first) && timeline(*call.items[1], f->second);
  if (const auto *a = s.as<Arrive>())
    return call.text == "Arrive" && args_are(1) && timeline(*call.items[0], a->timeline) &&
           bars(a->barriers);
  if (const auto *w = s.as<Await>())
    return call.text == "Await" && args_are(3) && pat.barriers.empty() &&
           match_expr(*call.items[0], w->bar) && timeline(*call.items[1], w->timeline) &&
           match_expr(*call.items[2], w->n);
  const auto *c = s.as<CallStmt>();
  if (!c || !(call.text == "_" || call.text == c->callee))
    return false;
  return match_list(call.items, 0, c->args,
                    [](const FragExpr &p, const Expr &e) { return match_expr(p, e); }) &&
         match_kwargs(call.kwargs, c->kwargs) && bars(c->barriers);
}

/// The expressions directly inside `s`, in source order.
std::vector<Expr> stmt_exprs(const Stmt &s) {
  std::vector<Expr> out;
  auto add = [&](const std::vector<Expr> &es) { out.insert(out.end(), es.begin(), es.end()); };
  if (const auto *a = s.as<Assign>()) {
    add(a->idx);
    out.push_back(a->rhs);
  } else if (const auto *r = s.as<Reduce>()) {
    add(r->idx);
    out.push_back(r->rhs);
  } else if (const auto *al = s.as<Alloc>()) {
    add(al->type.shape);
  } else if (const auto *w = s.as<WindowStmt>()) {
    out.push_back(w->rhs);
  } else if (const auto *f = s.as<For>()) {
    out.push_back(f->lo);
    out.push_back(f->hi);
  } else if (const auto *i = s.as<If>()) {
    out.push_back(i->cond);
  } else if (const auto *c = s.as<CallStmt>()) {
    add(c->args);
    for (const KwArg &k : c->kwargs)
      out.push_back(k.value);
  } else if (const auto *aw = s.as<Await>()) {
    out.push_back(aw->bar);
    out.push_back(aw->n);
  }
  return out;
}

void expr_children(const Expr &e, std::vector<Expr> &out) {
  if (const auto *r = e.as<Read>())
    out.insert(out.end(), r->idx.begin(), r->idx.end());
  else if (const auto *w = e.as<WindowExpr>())
    for (const WindowIdx &i : w->idx) {
      if (i.lo)
        out.push_back(i.lo);
      if (i.hi)
        out.push_back(i.hi);
    }
  else if (const auto *b = e.as<BinOp>())
    out.insert(out.end(), {b->a, b->b});
  else if (const auto *u = e.as<UnOp>())
    out.push_back(u->a);
  else if (const auto *c = e.as<Call>())
    out.insert(out.end(), c->args.begin(), c->args.end());
}

void collect_exprs(const Expr &e, const FragExpr &pat, std::vector<Expr> &out) {
  if (!e)
    return;
  if (match_expr(pat, e))
    out.push_back(e);
  std::vector<Expr> kids;
  expr_children(e, kids);
  for (const Expr &k : kids)
    collect_exprs(k, pat, out);
}

} // namespace

bool match_expr(const FragExpr &pat, const Expr &e) {
  switch (pat.kind) {
  case FK::Hole: return true;
  case FK::Name:
    if (const auto *v = e.as<Var>())
      return v->name.name == pat.text;
    if (const auto *r = e.as<Read>())
      return r->idx.empty() && r->buf.name == pat.text;
    return false;
  case FK::Int:
    if (const auto *i = e.as<IntImm>())
      return i->value == pat.int_value;
    return false;
  case FK::Float:
    if (const auto *f = e.as<FloatImm>())
      return f->value == pat.float_value;
    return false;
  case FK::Bool:
    if (const auto *b = e.as<BoolImm>())
      return b->value == (pat.int_value != 0);
    return false;
  case FK::Str:
    if (const auto *s = e.as<StrImm>())
      return s->value == pat.text;
    return false;
  case FK::Index:
    if (const auto *r = e.as<Read>())
      return match_access(pat, r->buf, r->idx);
    if (const auto *w = e.as<WindowExpr>())
      return is_name(pat.items[0], w->buf.name) &&
             match_list(pat.items, 1, w->idx, [](const FragExpr &p, const WindowIdx &i) {
               return match_window_idx(p, i);
             });
    return false;
  case FK::Slice: return false; // only inside an Index
  case FK::Call:
    if (const auto *c = e.as<Call>())
      return (pat.text == "_" || pat.text == c->func) &&
             match_list(pat.items, 0, c->args,
                        [](const FragExpr &p, const Expr &x) { return match_expr(p, x); }) &&
             match_kwargs(pat.kwargs, c->kwargs);
    return false;
  case FK::BinOp:
    if (const auto *b = e.as<BinOp>())
      return b->op == pat.op && match_expr(*pat.items[0], b->a) && match_expr(*pat.items[1], b->b);
    return false;
  case FK::Neg: {
    // The builder folds `-` into literals: `-1` in a pattern is the literal -1.
    const FragExpr &x = *pat.items[0];
    if (const auto *i = e.as<IntImm>(); i && x.kind == FK::Int)
      return i->value == -x.int_value;
    if (const auto *f = e.as<FloatImm>(); f && x.kind == FK::Float)
      return f->value == -x.float_value;
    const auto *u = e.as<UnOp>();
    return u && u->op == UnOpKind::Neg && match_expr(x, u->a);
  }
  case FK::Not: {
    const auto *u = e.as<UnOp>();
    return u && u->op == UnOpKind::Not && match_expr(*pat.items[0], u->a);
  }
  case FK::List:
    if (const auto *l = e.as<ListExpr>())
      return match_list(pat.items, 0, l->elems,
                        [](const FragExpr &p, const Expr &x) { return match_expr(p, x); });
    return false;
  case FK::Annot: return false; // `@` appears in types and window statements only
  }
  EXGC_UNREACHABLE("fragment expression kind");
}

bool match_stmt(const FragStmt &pat, const Stmt &s) {
  switch (pat.kind) {
  case FragStmt::Kind::Hole: return true;
  case FragStmt::Kind::Pass: return s.as<Pass>() != nullptr;
  case FragStmt::Kind::For: {
    const auto *f = s.as<For>();
    return f && (pat.name == "_" || pat.name == f->iter.name) && match_loop_range(*pat.a, *f) &&
           match_block(pat.body, f->body);
  }
  case FragStmt::Kind::If: {
    const auto *i = s.as<If>();
    return i && match_expr(*pat.a, i->cond) && match_block(pat.body, i->then_body) &&
           (!pat.has_else || match_block(pat.orelse, i->else_body));
  }
  case FragStmt::Kind::With: {
    const auto *w = s.as<With>();
    return w && match_expr(*pat.a, w->ctx) && match_block(pat.body, w->body);
  }
  case FragStmt::Kind::Assign:
    if (const auto *a = s.as<Assign>())
      return match_access(*pat.a, a->buf, a->idx) && match_expr(*pat.b, a->rhs);
    if (const auto *w = s.as<WindowStmt>()) {
      // `y = x[a:b] @ M` binds a window; the pattern's `@` part is optional.
      const FragExpr *rhs = pat.b.get();
      FragExprP mem;
      if (rhs->kind == FK::Annot) {
        mem = rhs->items[1];
        rhs = rhs->items[0].get();
      }
      return is_name(pat.a, w->name.name) && match_expr(*rhs, w->rhs) &&
             (!mem || (w->mem && match_expr(*mem, w->mem)));
    }
    return false;
  case FragStmt::Kind::Reduce: {
    const auto *r = s.as<Reduce>();
    return r && match_access(*pat.a, r->buf, r->idx) && match_expr(*pat.b, r->rhs);
  }
  case FragStmt::Kind::Decl: {
    const auto *a = s.as<Alloc>();
    return a && (pat.name == "_" || pat.name == a->name.name) && match_type(*pat.a, a->type);
  }
  case FragStmt::Kind::Call: return match_call_stmt(pat, s);
  }
  EXGC_UNREACHABLE("fragment statement kind");
}

bool match_block(const std::vector<FragStmtP> &pat, const Block &b) {
  if (pat.size() == 1 && pat[0]->kind == FragStmt::Kind::Hole)
    return true;
  if (pat.size() != b.size())
    return false;
  for (size_t i = 0; i < b.size(); ++i)
    if (!match_stmt(*pat[i], b[i]))
      return false;
  return true;
}

std::vector<StmtMatch> find_stmt_matches(const Block &body, const std::vector<FragStmtP> &pat) {
  std::vector<StmtMatch> out;
  for (size_t i = 0; i < body.size(); ++i) {
    bool ok = i + pat.size() <= body.size();
    for (size_t k = 0; ok && k < pat.size(); ++k)
      ok = match_stmt(*pat[k], body[i + k]);
    if (ok)
      out.push_back({&body, i, pat.size()});
    for (const Block *child : child_blocks(body[i])) {
      std::vector<StmtMatch> inner = find_stmt_matches(*child, pat);
      out.insert(out.end(), inner.begin(), inner.end());
    }
  }
  return out;
}

std::vector<Expr> find_expr_matches(const Block &body, const FragExpr &pat,
                                    std::vector<NodeId> *holders) {
  std::vector<Expr> out;
  for (const Stmt &s : body) {
    size_t before = out.size();
    for (const Expr &e : stmt_exprs(s))
      collect_exprs(e, pat, out);
    if (holders)
      holders->insert(holders->end(), out.size() - before, s->id);
    for (const Block *child : child_blocks(s)) {
      std::vector<Expr> inner = find_expr_matches(*child, pat, holders);
      out.insert(out.end(), inner.begin(), inner.end());
    }
  }
  return out;
}

std::vector<Expr> find_expr_matches_in(const Expr &e, const FragExpr &pat) {
  std::vector<Expr> out;
  collect_exprs(e, pat, out);
  return out;
}

int64_t split_nth(std::string &pattern) {
  size_t hash = pattern.rfind('#');
  if (hash == std::string::npos)
    return 1;
  std::string num = pattern.substr(hash + 1);
  size_t b = num.find_first_not_of(" \t"), e = num.find_last_not_of(" \t");
  if (b == std::string::npos)
    return 0;
  num = num.substr(b, e - b + 1);
  int64_t nth = 0;
  for (char ch : num) {
    if (!std::isdigit(static_cast<unsigned char>(ch)) || nth > 1000000)
      return 0;
    nth = nth * 10 + (ch - '0');
  }
  pattern = pattern.substr(0, hash);
  size_t last = pattern.find_last_not_of(" \t");
  pattern = last == std::string::npos ? "" : pattern.substr(0, last + 1);
  // A second '#' would be parsed as a comment and silently dropped.
  char quote = 0;
  for (char ch : pattern) {
    if (quote)
      quote = ch == quote ? 0 : quote;
    else if (ch == '"' || ch == '\'')
      quote = ch;
    else if (ch == '#')
      return 0;
  }
  return nth;
}

} // namespace exgc::schedule
