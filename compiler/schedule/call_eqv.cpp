// call_eqv.cpp - call a scheduled version of the callee ----------------------//
// call_eqv(p, call, g): `f(args)` becomes `g(args)` (same arguments, trailing
// barriers and id), where `g` is a schedule's result made from `f`.
// Checked: `f` and `g` have one origin: following each back through the
// schedules and steps that made it reaches the same proc (the reference's
// provenance union-find), so every step between them kept the meaning; and
// no unsafe step is on either path (an unsafe step may change the meaning).
// Steps keep a proc's arguments, so the call stays well typed; the result is
// typechecked again whole at the end. `g` must be a proc of the main module's
// scope or a schedule's result (schedules run in order: its schedule must
// come first).
// And the call passes no buffer through two arguments of which one is
// written, unless the two regions are proven disjoint: steps on `g` took its
// parameters to be distinct buffers.
// Fails when: `call` is not a call (CursorKindMismatch); `g` has no name a call
// can use (CalleeNotVisible: a schedule's intermediate proc); the origins
// differ, an unsafe step made one of them, or written arguments may alias
// (CallNotEquivalent).
#include <algorithm>

#include "compiler/ir/printer.h"
#include "compiler/ir/symbols.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/reduction_support.h"

namespace exgc::schedule {
namespace {

/// The buffer argument `a` passes (root, through window statements of `p`),
/// and its region of that buffer, one [lo, hi) per dimension, when `a` is
/// written on the buffer directly (`x`, `x[i]`, `x[a:b, k]`); `region` is
/// left empty when it is not known.
Sym arg_region(const analysis::EffectCollector &coll, const ProcSymbols &syms, const Expr &a,
               std::vector<std::pair<Expr, Expr>> &region) {
  Sym base;
  const Type *t = nullptr;
  auto one_more = [](const Expr &e) { return BinOp::make(BinOpKind::Add, e, IntImm::make(1)); };
  if (const auto *v = a.as<Var>(); v && is_data(v->type))
    return coll.root_of(v->name); // a scalar: one element, no dimensions
  if (const auto *r = a.as<Read>()) {
    base = r->buf;
    t = syms.type_of(base);
    if (coll.root_of(base) == base && t) {
      if (r->idx.empty())
        for (const Expr &e : t->shape)
          region.emplace_back(IntImm::make(0), e);
      else
        for (const Expr &e : r->idx)
          region.emplace_back(e, one_more(e));
    }
  } else if (const auto *w = a.as<WindowExpr>()) {
    base = w->buf;
    t = syms.type_of(base);
    if (coll.root_of(base) == base && t && t->shape.size() == w->idx.size())
      for (size_t d = 0; d < w->idx.size(); ++d) {
        const WindowIdx &wi = w->idx[d];
        Expr lo = wi.lo ? wi.lo : IntImm::make(0);
        region.emplace_back(lo, !wi.is_slice ? one_more(lo) : wi.hi ? wi.hi : t->shape[d]);
      }
  } else {
    return Sym();
  }
  return coll.root_of(base);
}

/// Steps on `g` took its parameters to be distinct buffers (two names, two
/// buffers: the dependence analysis compares Syms). A call that passes one
/// buffer through two arguments, one of them written, is only equivalent
/// when the solver proves the two regions disjoint (Exo refuses any such
/// call). Overlap where neither side is written is harmless.
void check_no_alias(Interpreter &in, const Proc &p, const Stmt &s, const CallStmt &cs,
                    const Proc &f, const Proc &g, const std::string &name, SrcLoc loc) {
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  std::set<uint32_t> written = written_params(in, f), wg = written_params(in, g);
  written.insert(wg.begin(), wg.end());
  size_t n = std::min(cs.args.size(), f->args.size());
  std::vector<Sym> roots(n);
  std::vector<std::vector<std::pair<Expr, Expr>>> regions(n);
  ProcSymbols syms(*p);
  for (size_t i = 0; i < n; ++i)
    if (f->args[i].type.kind == Type::Kind::Data)
      roots[i] = arg_region(coll, syms, cs.args[i], regions[i]);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      if (!roots[i].id || roots[i] != roots[j])
        continue;
      if (!written.count(f->args[i].name.id) && !written.count(f->args[j].name.id) &&
          !written.count(g->args[i].name.id) && !written.count(g->args[j].name.id))
        continue;
      bool disjoint = false;
      if (!regions[i].empty() && regions[i].size() == regions[j].size()) {
        Expr apart;
        for (size_t d = 0; d < regions[i].size(); ++d) {
          Expr sep = BinOp::make(BinOpKind::Or,
                                 BinOp::make(BinOpKind::Le, regions[i][d].second, regions[j][d].first),
                                 BinOp::make(BinOpKind::Le, regions[j][d].second, regions[i][d].first));
          apart = apart ? BinOp::make(BinOpKind::Or, apart, sep) : sep;
        }
        analysis::IndexSolver solver;
        analysis::DependenceAnalyzer dep(solver);
        disjoint = dep.prove(context_at(p, s), apart, nullptr) == analysis::Validity::Valid;
      }
      if (!disjoint)
        in.fail(loc, DiagKind::CallNotEquivalent, name, cs.callee,
                "arguments " + std::to_string(i + 1) + " ('" + print_expr(cs.args[i]) + "') and " +
                    std::to_string(j + 1) + " ('" + print_expr(cs.args[j]) +
                    "') may overlap in '" + roots[i].name +
                    "' and one of them is written; the steps that made '" + name +
                    "' took its arguments to be distinct buffers");
    }
}

} // namespace

Value call_eqv(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const CallStmt *cs = call_stmt_arg(in, call, s);
  const Proc &g = call.arg("proc").value.proc;
  std::string name = callee_name(in, g);
  for (const auto &[result, q] : in.results())
    if (name.empty() && q.get() == g.get())
      name = result;
  if (name.empty())
    in.fail(call.loc, DiagKind::CalleeNotVisible, g->name);
  Proc f = callee_of(in, p, cs->callee);
  EXGC_CHECK(f) << "a call names a proc in scope or a result: " << cs->callee;
  bool unsafe = false;
  if (in.origin(f, &unsafe).get() != in.origin(g, &unsafe).get())
    in.fail(call.loc, DiagKind::CallNotEquivalent, name, cs->callee,
            "'" + name + "' is not made from '" + cs->callee + "' by schedules");
  if (unsafe)
    in.fail(call.loc, DiagKind::CallNotEquivalent, name, cs->callee,
            "an unsafe step made one of them");
  // f and g agree in real arithmetic; a step between them may round otherwise.
  for (const Proc &x : {f, g})
    for (const Interpreter::Step *step : in.rounding_steps(x))
      for (const analysis::RoundingChange &r : step->rounding)
        analysis::RoundingLog::record(
            {"calls '" + name + "' for '" + cs->callee + "': step '" + step->primitive + "' at line " +
                 std::to_string(step->loc.line) + " " + r.what,
             r.type});
  check_no_alias(in, p, s, *cs, f, g, name, call.loc);
  Stmt n = cs->edited([&](CallStmt &c) { c.callee = name; });
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {n}; }));
}

} // namespace exgc::schedule
