// typecheck_bounds.cpp - exact bounds and precondition checks (Z3) --------//
// Owns: proving, for every value of the sizes (positive) that satisfies the
// proc's asserts, every iterator in its range and under the enclosing `if`
// conditions, that
//  - every read, write and reduce, window point and barrier index is inside
//    its buffer; every window statement's slices fit their buffer;
//  - every allocation's extents are positive;
//  - at each call: each tensor/window argument has the callee's declared
//    extents, each callee assert holds, and each window argument fits its
//    buffer, or else every access the callee's behavior makes through it
//    does (so a guarded epilogue may pass a window that overhangs the tensor);
//    arguments in the callee's `out_of_bounds:` are exempt, as TMA is.
// An instr's own behavior is checked against its declared parameter shapes
// under its own asserts. Runs only on procs that typechecked.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>

#include "compiler/analysis/control_limits.h"
#include "compiler/analysis/solver.h"
#include "compiler/frontend/typecheck_internal.h"

namespace exgc::tc {

namespace {

using analysis::Counterexample;
using analysis::Validity;

/// How a buffer name reaches storage: its own extents and, per dimension,
/// the dimension of its base buffer and the offset there.
struct View {
  std::string name;
  std::vector<z3::expr> extent;
  std::vector<std::string> extent_text;
  std::vector<z3::expr> offset;  // origin in the root buffer, per own dim
  std::vector<z3::expr> stride;  // element stride, per own dim
  bool exempt = false;           // an instr's out_of_bounds parameter
};

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

class BoundsChecker {
public:
  BoundsChecker(const Program &prog, const ProcNode &p,
                const std::set<const ProcNode *> &ill_typed, DiagEngine &diag)
      : prog_(prog), proc_(p), ill_typed_(ill_typed), diag_(diag) {
    solver_.set_call_hook([this](const Call &c, z3::expr &out) { return stride_or_offset(c, out); });
    // Test hook: a tiny resource limit makes Z3 give up, deterministically.
    if (const char *r = std::getenv("EXGC_SOLVER_RLIMIT"))
      solver_.set_rlimit(static_cast<unsigned>(std::strtoul(r, nullptr, 10)));
  }

  void run() {
    for (const Arg &a : proc_.args) {
      // The ranges generated functions check at entry (control_limits.h).
      z3::expr max = solver_.ctx().int_val(analysis::kMaxSize);
      if (a.type.kind == Type::Kind::Control && a.type.scalar == ValueType::Size)
        ctx_.push_back(solver_.var(a.name) >= 1 && solver_.var(a.name) <= max);
      if (a.type.kind == Type::Kind::Control && a.type.scalar == ValueType::Index)
        ctx_.push_back(solver_.var(a.name) >= -max && solver_.var(a.name) <= max);
      if (a.type.kind != Type::Kind::Control)
        views_[a.name.id] = declared_view(a.name, a.type, param_listed(proc_, "out_of_bounds", a.name.name));
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

private:
  z3::expr term(const Expr &e) {
    z3::expr t(solver_.ctx());
    if (e && solver_.translate(e, t) && t.is_int())
      return t;
    return solver_.opaque("unknown" + std::to_string(++fresh_), e ? show(e) : "?");
  }

  View declared_view(const Sym &s, const Type &t, bool exempt) {
    View v;
    v.name = s.name;
    v.exempt = exempt;
    size_t n = t.shape.size();
    for (const Expr &e : t.shape) {
      v.extent.push_back(term(e));
      v.extent_text.push_back(show(e));
      v.offset.push_back(t.window ? solver_.opaque("offset(" + s.name + "!" + std::to_string(s.id) + ")" +
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
      bool next_const = next.simplify().is_numeral_i64(c), ext_const = ext.simplify().is_numeral_i64(c);
      v.stride[d] = next_const || ext_const ? (next * ext).simplify() : solver_.opaque(key, shown);
    }
    return v;
  }

  bool stride_or_offset(const Call &c, z3::expr &out) {
    if ((c.func != "stride" && c.func != "offset") || c.args.size() != 2)
      return false;
    Sym s;
    if (const auto *v = c.args[0].as<Var>())
      s = v->name;
    else if (const auto *r = c.args[0].as<Read>())
      s = r->buf;
    const auto *d = c.args[1].as<IntImm>();
    auto it = views_.find(s.id);
    if (!d || it == views_.end() || d->value < 0 ||
        static_cast<size_t>(d->value) >= it->second.extent.size())
      return false;
    out = c.func == "stride" ? it->second.stride[d->value] : it->second.offset[d->value];
    return true;
  }

  /// Proves `goal` under the context; reports `kind` (with args) on failure.
  template <typename... Args>
  bool prove(const z3::expr &goal, SrcLoc loc, const std::string &what, DiagKind kind,
             const Args &...args) {
    Counterexample cex;
    Validity v = solver_.is_valid(ctx_, goal, &cex);
    pending_note_.clear();
    if (v == Validity::Valid)
      return true;
    if (v == Validity::Unknown) {
      diag_.report(loc, DiagKind::SolverUnknown, what, solver_.last_unknown_reason());
      return false;
    }
    auto d = diag_.report(loc, kind, args...);
    if (!cex.values.empty())
      d.note(loc, "for example " + cex.str());
    pending_note_ = "x";
    return false;
  }

  /// The arithmetic of control expression `e` is defined wherever it runs:
  /// every division and remainder by something other than a literal (an
  /// instr's template parameter) has a divisor >= 1, and every sum,
  /// difference, product and negation stays within int64_t, which is what
  /// the generated code computes in (Z3's integers are unbounded).
  void check_arith(const Expr &e) {
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
  void collect_arith(const Expr &e, std::vector<Expr> &sums) {
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
      if (c->func != "stride" && c->func != "offset")
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
  void check_arith(const std::vector<Expr> &es) {
    for (const Expr &e : es)
      check_arith(e);
  }

  void check_index(const View &v, size_t d, const Expr &idx, SrcLoc loc) {
    if (v.exempt)
      return;
    z3::expr i = term(idx);
    prove(i >= 0 && i < v.extent[d], idx->loc.valid() ? idx->loc : loc,
          "'" + show(idx) + "' in bounds of '" + v.name + "'", DiagKind::OutOfBounds, show(idx),
          v.name, d, v.extent_text[d]);
  }

  const View *view_of(const Sym &s) {
    auto it = views_.find(s.id);
    return it == views_.end() ? nullptr : &it->second;
  }

  void check_access(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc) {
    const View *v = view_of(buf);
    if (!v || v->extent.size() != idx.size())
      return;
    for (size_t d = 0; d < idx.size(); ++d)
      check_index(*v, d, idx[d], loc);
  }

  void check_reads(const Expr &e) {
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
      if (c->func != "stride" && c->func != "offset")
        for (const Expr &a : c->args)
          check_reads(a);
    }
  }

  /// The view of window expression `we` over its buffer (not checked here).
  View window_view(const WindowExpr &we) {
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
    return out;
  }

  // Window statements and call arguments need fit checks with their own
  // messages; this does the slice goals one by one.
  bool window_fits(const WindowExpr &we, const Expr &self, bool report) {
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

  void walk(const Block &b) {
    for (const Stmt &s : b)
      walk(s);
  }

  void walk(const Stmt &s) {
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

  void check_barrier(const Expr &e) {
    check_arith(e);
    if (const auto *r = e.as<Read>())
      check_access(r->buf, r->idx, e->loc);
    else if (const auto *w = e.as<WindowExpr>())
      window_fits(*w, e, true);
  }

  void check_call(const CallStmt &c);
  void check_behavior(const ProcNode &callee, const Arg &param, const WindowExpr &we,
                      const Expr &actual);

  // Following an overhanging window argument through the callee's behavior,
  // and the behaviors of whatever the callee passes it to, at any depth.
  /// The argument being followed: its base buffer, and the origin there.
  struct Overhang {
    const View *base;
    const WindowExpr *we;
    const Expr *actual;
    std::vector<z3::expr> origin;  // per base dim
    std::vector<size_t> slice_dims; // base dims the window spans
  };
  /// A name for (part of) the window inside some callee: own dim k is base
  /// dim dims[k]; base coordinate d is origin[d] + the index on that dim.
  struct Alias {
    std::vector<size_t> dims;
    std::vector<z3::expr> origin;
  };
  bool touch(const Overhang &o, const Alias &a, const std::vector<Expr> &idx, SrcLoc at,
             const std::string &who);
  Alias narrow(const Alias &a, const WindowExpr &w);
  const Alias *alias_of(const std::map<uint32_t, Alias> &aliases, const Expr &e, Alias &scratch);
  bool follow_reads(const Overhang &o, const std::map<uint32_t, Alias> &aliases, const Expr &e,
                    const std::string &who);
  bool follow_call(const Overhang &o, const ProcNode &callee, std::map<uint32_t, Alias> aliases,
                   std::vector<const ProcNode *> stack);
  bool follow_block(const Overhang &o, const ProcNode &callee, const Block &b,
                    std::map<uint32_t, Alias> &aliases, const std::vector<const ProcNode *> &stack);
  bool follow_stmt(const Overhang &o, const ProcNode &callee, const Stmt &s,
                   std::map<uint32_t, Alias> &aliases, const std::vector<const ProcNode *> &stack);
  /// The first and last element of `param`'s window, passed as `actual`.
  bool touch_whole(const Overhang &o, const Alias &a, const Arg &param, const Expr &actual,
                   const std::string &who);
  bool follow_nested(const Overhang &o, const ProcNode &caller, const CallStmt &call,
                     const std::map<uint32_t, Alias> &aliases,
                     const std::vector<const ProcNode *> &stack);

  const Program &prog_;
  const ProcNode &proc_;
  const std::set<const ProcNode *> &ill_typed_;
  DiagEngine &diag_;
  analysis::IndexSolver solver_;
  std::vector<z3::expr> ctx_;
  std::map<uint32_t, View> views_;
  unsigned fresh_ = 0;
  std::string pending_note_; // non-empty: prove() just reported an error
};

void BoundsChecker::check_call(const CallStmt &c) {
  check_arith(c.args);
  for (const Expr &b : c.barriers)
    check_barrier(b);
  Proc callee = prog_.lookup_from(&proc_, c.callee);
  if (!callee || ill_typed_.count(callee.get()))
    return;
  const ProcNode &p = *callee;
  std::vector<const Arg *> positional;
  for (const Arg &a : p.args)
    if (!param_listed(p, "template", a.name.name))
      positional.push_back(&a);
  std::vector<Sym> bound;
  std::map<uint32_t, View> saved;
  auto bind = [&](const Sym &s, const z3::expr &t) {
    solver_.bind(s, t);
    bound.push_back(s);
  };
  // Every `size` argument is at least 1, as the callee assumes (template
  // values included: an instruction's body is inlined with no run-time check).
  // An inlined instruction also needs the range a generated function checks
  // at entry (control_limits.h).
  auto size_at_least_1 = [&](const Arg &a, const z3::expr &t, const Expr &actual) {
    if (a.type.scalar == ValueType::Size)
      prove(t >= 1, actual->loc, "size argument '" + a.name.name + "' of '" + p.name + "' >= 1",
            DiagKind::SizeArgNotPositive, a.name.name, p.name);
    z3::expr max = solver_.ctx().int_val(analysis::kMaxSize);
    if (p.is_instr && a.type.scalar != ValueType::Bool)
      prove(t >= -max && t <= max, actual->loc, "argument '" + a.name.name + "' within 2^40",
            DiagKind::ControlArgRange, a.name.name, p.name);
  };
  for (const KwArg &k : c.kwargs)
    if (const Arg *a = p.find_arg(k.key); a && a->type.kind == Type::Kind::Control) {
      z3::expr t = term(k.value);
      size_at_least_1(*a, t, k.value);
      bind(a->name, t);
    }
  struct Pending {
    const Arg *param;
    const Expr *actual;
    View view;
  };
  std::vector<Pending> tensors;
  for (size_t i = 0; i < std::min(positional.size(), c.args.size()); ++i) {
    const Arg &param = *positional[i];
    const Expr &actual = c.args[i];
    if (param.type.kind == Type::Kind::Control) {
      z3::expr t(solver_.ctx());
      if (solver_.translate(actual, t) && t.is_int() == (param.type.scalar != ValueType::Bool)) {
        size_at_least_1(param, t, actual);
        bind(param.name, t);
      } else if (param.type.scalar != ValueType::Bool) {
        size_at_least_1(param, term(actual), actual);
      }
      continue;
    }
    if (param.type.kind == Type::Kind::Barrier) {
      check_barrier(actual);
      continue;
    }
    if (param.type.shape.empty()) {
      check_reads(actual);
      continue;
    }
    View v;
    if (const auto *we = actual.as<WindowExpr>()) {
      v = window_view(*we);
      const View *base = view_of(we->buf);
      for (size_t d = 0; base && d < we->idx.size() && d < base->extent.size(); ++d)
        if (!we->idx[d].is_slice && !param_listed(p, "out_of_bounds", param.name.name))
          check_index(*base, d, we->idx[d].lo, actual->loc);
    } else if (const auto *var = actual.as<Var>(); var && view_of(var->name)) {
      v = *view_of(var->name);
    } else if (const auto *r = actual.as<Read>(); r && view_of(r->buf)) {
      v = *view_of(r->buf);
    } else {
      continue;
    }
    tensors.push_back({&param, &actual, v});
  }
  // Callee parameters see the actual buffers (for stride() and offset()).
  for (const Pending &t : tensors) {
    auto old = views_.find(t.param->name.id);
    if (old != views_.end())
      saved.emplace(old->first, old->second);
    views_[t.param->name.id] = t.view;
  }
  for (const Pending &t : tensors) {
    const Type &pt = t.param->type;
    if (t.view.extent.size() != pt.shape.size())
      continue;
    for (size_t d = 0; d < pt.shape.size(); ++d)
      prove(term(pt.shape[d]) == t.view.extent[d], (*t.actual)->loc,
            "the extents of argument '" + t.param->name.name + "' equal", DiagKind::CallShapeMismatch,
            t.view.extent_text[d], t.param->name.name, show(pt.shape[d]), p.name);
    const auto *we = t.actual->as<WindowExpr>();
    if (!we || param_listed(p, "out_of_bounds", t.param->name.name))
      continue;
    if (window_fits(*we, *t.actual, false))
      continue;
    // The window overhangs its buffer: fine if every access the behavior makes
    // through it stays inside. Without a behavior (or in a recursive call), report.
    if (p.body.empty() || &p == &proc_)
      window_fits(*we, *t.actual, true);
    else
      check_behavior(p, *t.param, *we, *t.actual);
  }
  for (const Expr &pred : p.preds) {
    z3::expr g(solver_.ctx());
    std::string why;
    if (!solver_.translate(pred, g, &why) || !g.is_bool()) {
      diag_.report(c.loc, DiagKind::SolverUnknown,
                   "precondition '" + show(pred) + "' of '" + p.name + "'", why)
          .note(pred->loc, "'assert' declared here");
      continue;
    }
    prove(g, c.loc, "precondition '" + show(pred) + "' of '" + p.name + "'",
          DiagKind::PreconditionFailed, show(pred), p.name);
    if (!pending_note_.empty())
      diag_.at(diag_.diagnostics().size() - 1).notes.push_back({pred->loc, "'assert' declared here"});
  }
  for (const Pending &t : tensors)
    views_.erase(t.param->name.id);
  for (auto &[id, v] : saved)
    views_[id] = v;
  for (auto it = bound.rbegin(); it != bound.rend(); ++it)
    solver_.unbind(*it);
}

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

} // namespace

void check_bounds(const Program &program, const ProcNode &p,
                  const std::set<const ProcNode *> &ill_typed, DiagEngine &diag) {
  BoundsChecker(program, p, ill_typed, diag).run();
}

} // namespace exgc::tc
