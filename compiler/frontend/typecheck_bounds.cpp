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
//    does (so a guarded epilogue may pass a window that overhangs the tensor;
//    typecheck_bounds_follow.cpp); arguments in the callee's `out_of_bounds:`
//    are exempt, as TMA is; every `size` argument is at least 1 and an
//    instr's control arguments lie in the range of control_limits.h;
//  - every divisor that is not a literal is at least 1, and every sum,
//    difference, product and negation of control arithmetic stays within
//    int64_t (sizes at most 2^40, index arguments within +-2^40).
// An instr's own behavior is checked against its declared parameter shapes
// under its own asserts. Runs only on procs that typechecked. The checker's
// state is in bounds_checker.h, its per-statement walk in bounds_checker.cpp.
#include "compiler/frontend/bounds_checker.h"

namespace exgc::tc {

namespace bounds {

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

} // namespace bounds

void check_bounds(const Program &program, const ProcNode &p,
                  const std::set<const ProcNode *> &ill_typed, DiagEngine &diag) {
  bounds::BoundsChecker(program, p, ill_typed, diag).run();
}

} // namespace exgc::tc
