// bounds_checker.cpp - the exact bounds check's views and walk -----------//
// Owns: the bodies of BoundsChecker's entry (run), its views (parameters,
// allocations, windows and the buffer queries of asserts), its arithmetic
// checks and its walk over statements; calls are in typecheck_bounds.cpp,
// overhanging windows in typecheck_bounds_follow.cpp. The class is declared
// in bounds_checker.h.
#include "compiler/frontend/bounds_checker.h"

namespace exgc::tc::bounds {

namespace {

/// True when `t` mentions a value the solver keeps opaque (IndexSolver::opaque).
bool has_opaque(const z3::expr &t) {
  if (!t.is_app())
    return false;
  if (t.num_args() == 0)
    return t.decl().decl_kind() == Z3_OP_UNINTERPRETED && t.decl().name().str().rfind("?", 0) == 0;
  for (unsigned i = 0; i < t.num_args(); ++i)
    if (has_opaque(t.arg(i)))
      return true;
  return false;
}

} // namespace

bool param_listed(const ProcNode &p, const char *key, const std::string &name) {
  const InstrAttr *a = p.attr(key);
  if (!a)
    return false;
  for (const Expr &e : a->values) {
    // The builder names a buffer parameter as `Read(x, {})`, a control one as `Var(x)`.
    if (const auto *v = e.as<Var>(); v && v->name.name == name)
      return true;
    if (const auto *r = e.as<Read>(); r && r->idx.empty() && r->buf.name == name)
      return true;
  }
  return false;
}

BoundsChecker::BoundsChecker(const Program &prog, const ProcNode &p,
                             const std::set<const ProcNode *> &ill_typed, DiagEngine &diag)
    : prog_(prog), proc_(p), ill_typed_(ill_typed), diag_(diag) {
  solver_.set_call_hook([this](const Call &c, z3::expr &out) { return buffer_query(c, out); });
}

void BoundsChecker::run() {
  for (const Arg &a : proc_.args) {
    // The ranges generated functions check at entry (control_limits.h).
    z3::expr max = solver_.ctx().int_val(analysis::kMaxSize);
    if (a.type.kind == Type::Kind::Control && a.type.scalar == ValueType::Size)
      ctx_.push_back(solver_.var(a.name) >= 1 && solver_.var(a.name) <= max);
    if (a.type.kind == Type::Kind::Control && a.type.scalar == ValueType::Index)
      ctx_.push_back(solver_.var(a.name) >= -max && solver_.var(a.name) <= max);
    if (a.type.kind != Type::Kind::Control) {
      views_[a.name.id] = param_view(a);
      ctx_.push_back(*views_[a.name.id].base >= 0);
    }
  }
  for (const Arg &a : proc_.args)
    check_arith(a.type.shape);
  for (const Expr &pred : proc_.preds) {
    check_arith(pred); // under the asserts before it, which run first
    z3::expr t(solver_.ctx());
    if (solver_.translate(pred, t) && t.is_bool())
      ctx_.push_back(t);
  }
  if (!proc_.preds.empty() && solver_.is_satisfiable(ctx_) == Validity::Invalid)
    diag_.report(proc_.preds.front()->loc, DiagKind::UnsatisfiableAsserts, proc_.name);
  walk(proc_.body);
}

z3::expr BoundsChecker::term(const Expr &e) {
  z3::expr t(solver_.ctx());
  if (e && solver_.translate(e, t) && t.is_int())
    return t;
  return solver_.opaque("unknown" + std::to_string(++fresh_), e ? show(e) : "?");
}

View BoundsChecker::param_view(const Arg &a) {
  View v = declared_view(a.name, a.type, param_listed(proc_, "out_of_bounds", a.name.name));
  std::string id = a.name.name + "!" + std::to_string(a.name.id);
  v.base = solver_.opaque("base(" + id + ")", "base(" + a.name.name + ")");
  return v;
}

View BoundsChecker::declared_view(const Sym &s, const Type &t, bool exempt) {
  View v;
  v.name = s.name;
  v.exempt = exempt;
  size_t n = t.shape.size();
  for (const Expr &e : t.shape) {
    v.extent.push_back(term(e));
    v.extent_text.push_back(show(e));
    v.offset.push_back(
        t.window ? solver_.opaque("offset(" + s.name + "!" + std::to_string(s.id) + ")" +
                                      std::to_string(v.offset.size()),
                                  "offset(" + s.name + ", " + std::to_string(v.offset.size()) + ")")
                 : solver_.ctx().int_val(0));
  }
  // Dense row-major strides; a product of two unknown extents is not linear,
  // so it stays opaque (asserts about it can then not be proven).
  v.stride.assign(n, solver_.ctx().int_val(1));
  for (size_t d = n; d-- > 0;) {
    std::string key = "stride(" + s.name + "!" + std::to_string(s.id) + ")" + std::to_string(d);
    std::string shown = "stride(" + s.name + ", " + std::to_string(d) + ")";
    if (t.window) {
      v.stride[d] = solver_.opaque(key, shown);
      continue;
    }
    if (d + 1 == n)
      continue;
    int64_t c;
    z3::expr next = v.stride[d + 1], ext = v.extent[d + 1];
    bool next_const = next.simplify().is_numeral_i64(c),
         ext_const = ext.simplify().is_numeral_i64(c);
    v.stride[d] = next_const || ext_const ? (next * ext).simplify() : solver_.opaque(key, shown);
  }
  return v;
}

bool BoundsChecker::buffer_query(const Call &c, z3::expr &out) {
  if (!Call::is_buffer_query(c.func) || c.args.size() != 2)
    return false;
  Sym s;
  if (const auto *v = c.args[0].as<Var>())
    s = v->name;
  else if (const auto *r = c.args[0].as<Read>())
    s = r->buf;
  const auto *d = c.args[1].as<IntImm>();
  auto it = views_.find(s.id);
  if (!d || it == views_.end())
    return false;
  if (c.func == "aligned")
    return d->value >= 1 && (out = aligned(it->second, d->value), true);
  if (d->value < 0 || static_cast<size_t>(d->value) >= it->second.extent.size())
    return false;
  out = c.func == "stride" ? it->second.stride[d->value] : it->second.offset[d->value];
  return true;
}

z3::expr BoundsChecker::aligned(const View &v, int64_t n) {
  z3::context &z = solver_.ctx();
  if (!v.base)
    return z.bool_val(false);
  z3::expr sum = *v.base, each = z.bool_val(true), k = z.int_val(n);
  for (const auto &[idx, stride] : v.placed) {
    int64_t c;
    if (stride.simplify().is_numeral_i64(c))
      sum = sum + idx * z.int_val(c);
    else
      each = each && (z3::mod(idx, k) == 0 || z3::mod(stride, k) == 0);
  }
  return (z3::mod(sum, k) == 0 && each).simplify();
}

void BoundsChecker::check_arith(const Expr &e) {
  std::vector<Expr> sums;
  collect_arith(e, sums);
  if (sums.empty())
    return;
  z3::expr lo = solver_.ctx().int_val(INT64_MIN), hi = solver_.ctx().int_val(INT64_MAX);
  std::vector<z3::expr> terms;
  std::vector<Expr> shown;
  for (const Expr &x : sums) {
    z3::expr t(solver_.ctx());
    // Opaque parts (strides and origins of windows) are the caller's real
    // buffers' and stay out of this proof.
    if (solver_.translate(x, t) && t.is_int() && !has_opaque(t)) {
      terms.push_back(t);
      shown.push_back(x);
    }
  }
  z3::expr all = solver_.ctx().bool_val(true);
  for (const z3::expr &t : terms)
    all = all && lo <= t && t <= hi;
  if (terms.empty() || solver_.is_valid(ctx_, all) == Validity::Valid)
    return;
  // Name the innermost part that may overflow (sums are in post-order).
  for (size_t i = 0; i < terms.size(); ++i)
    if (!prove(lo <= terms[i] && terms[i] <= hi, shown[i]->loc,
               "'" + show(shown[i]) + "' within 64 bits", DiagKind::IndexOverflow,
               show(shown[i])))
      return;
}

void BoundsChecker::collect_arith(const Expr &e, std::vector<Expr> &sums) {
  if (!e)
    return;
  if (const auto *b = e.as<BinOp>()) {
    collect_arith(b->a, sums);
    collect_arith(b->b, sums);
    if (is_data(e->type))
      return;
    if ((b->op == BinOpKind::Div || b->op == BinOpKind::Mod) && !b->b.as<IntImm>())
      prove(term(b->b) >= 1, b->b->loc, "divisor '" + show(b->b) + "' >= 1",
            DiagKind::DivisorNotPositive, show(b->b));
    if (b->op == BinOpKind::Add || b->op == BinOpKind::Sub || b->op == BinOpKind::Mul)
      sums.push_back(e);
  } else if (const auto *u = e.as<UnOp>()) {
    collect_arith(u->a, sums);
    if (u->op == UnOpKind::Neg && !is_data(e->type))
      sums.push_back(e);
  } else if (const auto *c = e.as<Call>()) {
    if (!Call::is_buffer_query(c->func))
      for (const Expr &a : c->args)
        collect_arith(a, sums);
  } else if (const auto *r = e.as<Read>()) {
    for (const Expr &i : r->idx)
      collect_arith(i, sums);
  } else if (const auto *w = e.as<WindowExpr>()) {
    for (const WindowIdx &wi : w->idx) {
      collect_arith(wi.lo, sums);
      collect_arith(wi.hi, sums);
    }
  }
}

void BoundsChecker::check_arith(const std::vector<Expr> &es) {
  for (const Expr &e : es)
    check_arith(e);
}

void BoundsChecker::check_index(const View &v, size_t d, const Expr &idx, SrcLoc loc) {
  if (v.exempt)
    return;
  z3::expr i = term(idx);
  prove(i >= 0 && i < v.extent[d], idx->loc.valid() ? idx->loc : loc,
        "'" + show(idx) + "' in bounds of '" + v.name + "'", DiagKind::OutOfBounds, show(idx),
        v.name, d, v.extent_text[d]);
}

void BoundsChecker::check_access(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc) {
  const View *v = view_of(buf);
  if (!v || v->extent.size() != idx.size())
    return;
  for (size_t d = 0; d < idx.size(); ++d)
    check_index(*v, d, idx[d], loc);
}

void BoundsChecker::check_reads(const Expr &e) {
  if (!e)
    return;
  if (const auto *r = e.as<Read>()) {
    check_access(r->buf, r->idx, e->loc);
    return;
  }
  if (const auto *b = e.as<BinOp>()) {
    check_reads(b->a);
    check_reads(b->b);
  } else if (const auto *u = e.as<UnOp>()) {
    check_reads(u->a);
  } else if (const auto *c = e.as<Call>()) {
    if (!Call::is_buffer_query(c->func))
      for (const Expr &a : c->args)
        check_reads(a);
  }
}

View BoundsChecker::window_view(const WindowExpr &we) {
  View out;
  out.name = we.buf.name;
  const View *base = view_of(we.buf);
  if (!base || base->extent.size() != we.idx.size())
    return out;
  out.exempt = base->exempt;
  for (size_t d = 0; d < we.idx.size(); ++d) {
    const WindowIdx &wi = we.idx[d];
    if (!wi.is_slice)
      continue;
    z3::expr lo = wi.lo ? term(wi.lo) : solver_.ctx().int_val(0);
    z3::expr hi = wi.hi ? term(wi.hi) : base->extent[d];
    out.extent.push_back((hi - lo).simplify());
    std::string hi_text = wi.hi ? show(wi.hi) : base->extent_text[d];
    out.extent_text.push_back(wi.lo ? hi_text + " - (" + show(wi.lo) + ")" : hi_text);
    out.offset.push_back((base->offset[d] + lo).simplify());
    out.stride.push_back(base->stride[d]);
  }
  out.base = base->base;
  out.placed = base->placed;
  for (size_t d = 0; d < we.idx.size(); ++d)
    if (we.idx[d].lo)
      out.placed.emplace_back(term(we.idx[d].lo), base->stride[d]);
  return out;
}

bool BoundsChecker::window_fits(const WindowExpr &we, const Expr &self, bool report) {
  const View *base = view_of(we.buf);
  if (!base || base->exempt || base->extent.size() != we.idx.size())
    return true;
  bool ok = true;
  for (size_t d = 0; d < we.idx.size(); ++d) {
    const WindowIdx &wi = we.idx[d];
    if (!wi.is_slice) {
      z3::expr p = term(wi.lo);
      if (report)
        ok &= prove(p >= 0 && p < base->extent[d], wi.lo->loc, "'" + show(wi.lo) + "' in bounds",
                    DiagKind::OutOfBounds, show(wi.lo), we.buf.name, d, base->extent_text[d]);
      else
        ok &= solver_.is_valid(ctx_, p >= 0 && p < base->extent[d]) == Validity::Valid;
      continue;
    }
    z3::expr lo = wi.lo ? term(wi.lo) : solver_.ctx().int_val(0);
    z3::expr hi = wi.hi ? term(wi.hi) : base->extent[d];
    z3::expr goal = lo >= 0 && lo <= hi && hi <= base->extent[d];
    if (report)
      ok &= prove(goal, self->loc, "window '" + show(self) + "' inside '" + we.buf.name + "'",
                  DiagKind::WindowOutOfBounds, show(self), we.buf.name, d, base->extent_text[d]);
    else
      ok &= solver_.is_valid(ctx_, goal) == Validity::Valid;
  }
  return ok;
}

void BoundsChecker::walk(const Block &b) {
  for (const Stmt &s : b)
    walk(s);
}

void BoundsChecker::walk(const Stmt &s) {
  switch (s->kind) {
  case StmtKind::Assign: {
    const auto *a = s.as<Assign>();
    check_arith(a->idx);
    check_arith(a->rhs);
    check_access(a->buf, a->idx, s->loc);
    check_reads(a->rhs);
    return;
  }
  case StmtKind::Reduce: {
    const auto *r = s.as<Reduce>();
    check_arith(r->idx);
    check_arith(r->rhs);
    check_access(r->buf, r->idx, s->loc);
    check_reads(r->rhs);
    return;
  }
  case StmtKind::Alloc: {
    const auto *a = s.as<Alloc>();
    check_arith(a->type.shape);
    View v = declared_view(a->name, a->type, false);
    if (analysis::starts_aligned(a->type.mem))
      v.base = solver_.ctx().int_val(0);
    for (size_t d = 0; d < v.extent.size(); ++d)
      prove(v.extent[d] >= 1, a->type.shape[d]->loc, "extent '" + v.extent_text[d] + "' positive",
            DiagKind::ExtentNotPositive, v.extent_text[d], a->name.name);
    views_[a->name.id] = v;
    return;
  }
  case StmtKind::WindowStmt: {
    const auto *w = s.as<WindowStmt>();
    const auto *we = w->rhs.as<WindowExpr>();
    check_arith(w->rhs);
    window_fits(*we, w->rhs, true);
    View v = window_view(*we);
    v.name = w->name.name;
    views_[w->name.id] = v;
    return;
  }
  case StmtKind::For: {
    const auto *f = s.as<For>();
    check_arith(f->lo);
    check_arith(f->hi);
    z3::expr i = solver_.var(f->iter);
    ctx_.push_back(i >= term(f->lo));
    ctx_.push_back(i < term(f->hi));
    walk(f->body);
    ctx_.pop_back();
    ctx_.pop_back();
    return;
  }
  case StmtKind::If: {
    const auto *i = s.as<If>();
    check_arith(i->cond);
    z3::expr c(solver_.ctx());
    bool known = solver_.translate(i->cond, c) && c.is_bool();
    if (known)
      ctx_.push_back(c);
    walk(i->then_body);
    if (known)
      ctx_.back() = !c;
    walk(i->else_body);
    if (known)
      ctx_.pop_back();
    return;
  }
  case StmtKind::Pass:
  case StmtKind::Fence:
    return;
  case StmtKind::With:
    walk(s.as<With>()->body);
    return;
  case StmtKind::Arrive:
    for (const Expr &b : s.as<Arrive>()->barriers)
      check_barrier(b);
    return;
  case StmtKind::Await:
    check_barrier(s.as<Await>()->bar);
    return;
  case StmtKind::CallStmt:
    check_call(*s.as<CallStmt>());
    return;
  }
  EXGC_UNREACHABLE("stmt kind");
}

void BoundsChecker::check_barrier(const Expr &e) {
  check_arith(e);
  if (const auto *r = e.as<Read>())
    check_access(r->buf, r->idx, e->loc);
  else if (const auto *w = e.as<WindowExpr>())
    window_fits(*w, e, true);
}

} // namespace exgc::tc::bounds
