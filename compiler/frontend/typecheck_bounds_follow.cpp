// typecheck_bounds_follow.cpp - overhanging windows through behaviors ----//
// Owns: the check of a window argument that does not fit its buffer. Every
// access the callee makes through it must land inside the buffer, under the
// callee's loops, guards and asserts with the call's arguments substituted.
// The window is followed by every path: window statements over it (and
// windows of those), reads of its elements anywhere (an element passed as a
// data argument included), and calls passing it on whole or as a window, into
// their behaviors at any depth. Only a callee without a body (or a recursive
// call) is checked by the first and last element of what it gets. An instr's
// `out_of_bounds:` parameter guards itself, against the extents the
// generated code knows: the real buffer's when every call on the way is an
// (inlined) instr, else the enclosing proc's window, which must then fit.
#include "compiler/frontend/bounds_checker.h"

namespace exgc::tc::bounds {

void BoundsChecker::check_behavior(const ProcNode &callee, const Arg &param, const WindowExpr &we,
                                   const Expr &actual) {
  const View *base = view_of(we.buf);
  if (!base)
    return;
  Overhang o{base, &we, &actual, {}, {}};
  Alias top;
  for (size_t d = 0; d < we.idx.size(); ++d) {
    const WindowIdx &wi = we.idx[d];
    o.origin.push_back(wi.lo ? term(wi.lo) : solver_.ctx().int_val(0));
    if (wi.is_slice) {
      top.dims.push_back(d);
      o.slice_dims.push_back(d);
    }
  }
  top.origin = o.origin;
  follow_call(o, callee, {{param.name.id, top}}, {&proc_});
}

bool BoundsChecker::touch(const Overhang &o, const Alias &a, const std::vector<Expr> &idx,
                          SrcLoc at, const std::string &who) {
  if (idx.size() != a.dims.size())
    return true;
  std::vector<z3::expr> coord = a.origin;
  for (size_t k = 0; k < idx.size(); ++k)
    coord[a.dims[k]] = coord[a.dims[k]] + term(idx[k]);
  // Only the window's slice dimensions move; its points were checked at the call.
  for (size_t d : o.slice_dims) {
    Counterexample cex;
    z3::expr c = coord[d].simplify();
    Validity v = solver_.is_valid(ctx_, c >= 0 && c < o.base->extent[d], &cex);
    if (v == Validity::Valid)
      continue;
    const Expr &actual = *o.actual;
    if (v == Validity::Unknown) {
      diag_.report(actual->loc, DiagKind::SolverUnknown,
                   "window '" + show(actual) + "' inside '" + o.we->buf.name + "'",
                   solver_.last_unknown_reason());
      return false;
    }
    auto rep = diag_.report(actual->loc, DiagKind::WindowOutOfBounds, show(actual), o.we->buf.name,
                            d, o.base->extent_text[d]);
    rep.note(at, "accessed here by " + who);
    if (!cex.values.empty())
      rep.note(actual->loc, "for example " + cex.str());
    return false;
  }
  return true;
}

BoundsChecker::Alias BoundsChecker::narrow(const Alias &a, const WindowExpr &w) {
  Alias out;
  out.origin = a.origin;
  for (size_t k = 0; k < w.idx.size() && k < a.dims.size(); ++k) {
    const WindowIdx &wi = w.idx[k];
    size_t d = a.dims[k];
    if (wi.lo)
      out.origin[d] = out.origin[d] + term(wi.lo);
    if (wi.is_slice)
      out.dims.push_back(d);
  }
  return out;
}

/// The alias an argument expression names: the alias itself (`x`, `x[]`) or
/// a window of it; null when `e` names no alias.
const BoundsChecker::Alias *BoundsChecker::alias_of(const std::map<uint32_t, Alias> &aliases,
                                                    const Expr &e, Alias &scratch) {
  Sym s;
  if (const auto *v = e.as<Var>())
    s = v->name;
  else if (const auto *r = e.as<Read>(); r && r->idx.empty())
    s = r->buf;
  else if (const auto *w = e.as<WindowExpr>())
    s = w->buf;
  else
    return nullptr;
  auto it = aliases.find(s.id);
  if (it == aliases.end())
    return nullptr;
  if (const auto *w = e.as<WindowExpr>()) {
    scratch = narrow(it->second, *w);
    return &scratch;
  }
  return &it->second;
}

bool BoundsChecker::follow_reads(const Overhang &o, const std::map<uint32_t, Alias> &aliases,
                                 const Expr &e, const std::string &who) {
  if (!e)
    return true;
  if (const auto *r = e.as<Read>()) {
    auto it = aliases.find(r->buf.id);
    if (it != aliases.end() && !r->idx.empty() &&
        !touch(o, it->second, r->idx, e->loc, who + " through '" + r->buf.name + "'"))
      return false;
    return true;
  }
  if (const auto *b = e.as<BinOp>())
    return follow_reads(o, aliases, b->a, who) && follow_reads(o, aliases, b->b, who);
  if (const auto *u = e.as<UnOp>())
    return follow_reads(o, aliases, u->a, who);
  if (const auto *c = e.as<Call>())
    for (const Expr &a : c->args)
      if (!follow_reads(o, aliases, a, who))
        return false;
  return true;
}

bool BoundsChecker::follow_call(const Overhang &o, const ProcNode &callee,
                                std::map<uint32_t, Alias> aliases,
                                std::vector<const ProcNode *> stack) {
  stack.push_back(&callee);
  size_t depth = ctx_.size();
  for (const Expr &pred : callee.preds) {
    z3::expr t(solver_.ctx());
    if (solver_.translate(pred, t) && t.is_bool())
      ctx_.push_back(t);
  }
  bool ok = follow_block(o, callee, callee.body, aliases, stack);
  ctx_.resize(depth, solver_.ctx().bool_val(true));
  return ok;
}

bool BoundsChecker::follow_block(const Overhang &o, const ProcNode &callee, const Block &b,
                                 std::map<uint32_t, Alias> &aliases,
                                 const std::vector<const ProcNode *> &stack) {
  for (const Stmt &s : b)
    if (!follow_stmt(o, callee, s, aliases, stack))
      return false;
  return true;
}

bool BoundsChecker::follow_stmt(const Overhang &o, const ProcNode &callee, const Stmt &s,
                                std::map<uint32_t, Alias> &aliases,
                                const std::vector<const ProcNode *> &stack) {
  auto who = [&](const Sym &through) {
    return "'" + callee.name + "' through '" + through.name + "'";
  };
  auto store = [&](const Sym &buf, const std::vector<Expr> &idx, const Expr &rhs) {
    auto it = aliases.find(buf.id);
    if (it != aliases.end() && !touch(o, it->second, idx, s->loc, who(buf)))
      return false;
    return follow_reads(o, aliases, rhs, "'" + callee.name + "'");
  };
  if (const auto *a = s.as<Assign>())
    return store(a->buf, a->idx, a->rhs);
  if (const auto *r = s.as<Reduce>())
    return store(r->buf, r->idx, r->rhs);
  if (const auto *w = s.as<WindowStmt>()) {
    // A window of the parameter (or of a window of it) is one more name for it.
    if (const auto *we = w->rhs.as<WindowExpr>()) {
      auto it = aliases.find(we->buf.id);
      if (it != aliases.end())
        aliases[w->name.id] = narrow(it->second, *we);
    }
    return true;
  }
  if (const auto *f = s.as<For>()) {
    z3::expr i = solver_.var(f->iter);
    ctx_.push_back(i >= term(f->lo));
    ctx_.push_back(i < term(f->hi));
    bool ok = follow_block(o, callee, f->body, aliases, stack);
    ctx_.pop_back();
    ctx_.pop_back();
    return ok;
  }
  if (const auto *i = s.as<If>()) {
    z3::expr c(solver_.ctx());
    bool known = solver_.translate(i->cond, c) && c.is_bool();
    if (known)
      ctx_.push_back(c);
    bool ok = follow_block(o, callee, i->then_body, aliases, stack);
    if (known)
      ctx_.back() = !c;
    ok = ok && follow_block(o, callee, i->else_body, aliases, stack);
    if (known)
      ctx_.pop_back();
    return ok;
  }
  if (const auto *w = s.as<With>())
    return follow_block(o, callee, w->body, aliases, stack);
  if (const auto *call = s.as<CallStmt>())
    return follow_nested(o, callee, *call, aliases, stack);
  return true;
}

bool BoundsChecker::touch_whole(const Overhang &o, const Alias &a, const Arg &param,
                                const Expr &actual, const std::string &who) {
  std::vector<Expr> first, last;
  for (const Expr &e : param.type.shape) {
    first.push_back(IntImm::make(0));
    last.push_back(BinOp::make(BinOpKind::Sub, e, IntImm::make(1)));
  }
  return touch(o, a, first, actual->loc, who) && touch(o, a, last, actual->loc, who);
}

bool BoundsChecker::follow_nested(const Overhang &o, const ProcNode &caller, const CallStmt &call,
                                  const std::map<uint32_t, Alias> &aliases,
                                  const std::vector<const ProcNode *> &stack) {
  std::string who = "'" + caller.name + "'";
  Proc next = prog_.lookup_from(&caller, call.callee);
  if (!next) {
    for (const Expr &a : call.args)
      if (!follow_reads(o, aliases, a, who))
        return false;
    return true;
  }
  const ProcNode &q = *next;
  std::vector<const Arg *> positional;
  for (const Arg &a : q.args)
    if (!param_listed(q, "template", a.name.name))
      positional.push_back(&a);
  std::vector<Sym> bound;
  for (const KwArg &k : call.kwargs)
    if (const Arg *a = q.find_arg(k.key); a && a->type.kind == Type::Kind::Control) {
      solver_.bind(a->name, term(k.value));
      bound.push_back(a->name);
    }
  std::map<uint32_t, Alias> passed;
  std::vector<std::pair<const Arg *, const Expr *>> passed_args;
  struct Whole {
    const Arg *param;
    const Expr *actual;
    Alias alias;
  };
  std::vector<Whole> whole;
  bool ok = true;
  for (size_t i = 0; i < std::min(positional.size(), call.args.size()) && ok; ++i) {
    const Arg &param = *positional[i];
    const Expr &actual = call.args[i];
    if (param.type.kind == Type::Kind::Control) {
      z3::expr t(solver_.ctx());
      if (solver_.translate(actual, t) && t.is_int() == (param.type.scalar != ValueType::Bool)) {
        solver_.bind(param.name, t);
        bound.push_back(param.name);
      }
      continue;
    }
    Alias scratch;
    const Alias *a = param.type.shape.empty() ? nullptr : alias_of(aliases, actual, scratch);
    if (!a) {
      // An element passed as a data value is a read (`use(x[i])`).
      ok = follow_reads(o, aliases, actual, who);
      continue;
    }
    if (param_listed(q, "out_of_bounds", param.name.name)) {
      // The instruction guards its accesses against the extents its caller's
      // code knows: the real buffer's while every call on the way is inlined
      // (instructions), a proc's declared window otherwise, which must fit.
      bool inlined = std::all_of(stack.begin() + 1, stack.end(),
                                 [](const ProcNode *s) { return s->is_instr; });
      if (!inlined)
        whole.push_back({&param, &actual, *a});
      continue;
    }
    passed[param.name.id] = *a;
    passed_args.push_back({&param, &actual});
  }
  for (const Whole &w : whole)
    ok = ok && touch_whole(o, w.alias, *w.param, *w.actual, who);
  if (ok && !passed.empty()) {
    bool recursive = std::find(stack.begin(), stack.end(), &q) != stack.end();
    if (!q.body.empty() && !recursive) {
      ok = follow_call(o, q, passed, stack);
    } else {
      // Nothing to follow: every element of what is passed must be inside.
      for (auto &[param, actual] : passed_args)
        if (!(ok = touch_whole(o, passed.at(param->name.id), *param, *actual, who)))
          break;
    }
  }
  for (auto it = bound.rbegin(); it != bound.rend(); ++it)
    solver_.unbind(*it);
  return ok;
}

} // namespace exgc::tc::bounds
