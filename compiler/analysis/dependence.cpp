// dependence.cpp - conflict queries over access summaries ---------------------//
#include "compiler/analysis/dependence.h"

#include <cstdlib>

#include "compiler/analysis/rounding_log.h"
#include "compiler/ir/printer.h"

namespace exgc::analysis {

namespace {

bool find_context(const Block &b, NodeId node, std::vector<Scope> &scopes) {
  for (const Stmt &s : b) {
    if (s->id == node)
      return true;
    if (const auto *f = s.as<For>()) {
      scopes.push_back(Scope{true, f->iter, f->lo, f->hi, Expr(), false});
      if (find_context(f->body, node, scopes))
        return true;
      scopes.pop_back();
    } else if (const auto *i = s.as<If>()) {
      scopes.push_back(Scope{false, Sym(), Expr(), Expr(), i->cond, false});
      if (find_context(i->then_body, node, scopes))
        return true;
      scopes.back().negated = true;
      if (find_context(i->else_body, node, scopes))
        return true;
      scopes.pop_back();
    } else if (const auto *w = s.as<With>()) {
      if (find_context(w->body, node, scopes))
        return true;
    }
  }
  return false;
}

/// Can `facts` hold with accesses `a` and `b` (indices `ia`, `ib`) at one
/// element? Fills `out` (a, b, the model) unless the answer is no.
Answer meet(IndexSolver &solver, std::vector<z3::expr> &facts, const Access &a,
            const std::vector<z3::expr> &ia, const Access &b, const std::vector<z3::expr> &ib,
            Conflict *out) {
  if (!a.anywhere && !b.anywhere && ia.size() == ib.size())
    for (size_t d = 0; d < ia.size(); ++d)
      facts.push_back(ia[d] == ib[d]);
  Counterexample cex;
  Validity v = solver.is_satisfiable(facts, &cex);
  if (v == Validity::Invalid)
    return Answer::NoConflict;
  if (out) {
    out->first = a;
    out->second = b;
    out->cex = cex;
  }
  return v == Validity::Valid ? Answer::Conflict : Answer::Unknown;
}

} // namespace

bool context_of(const ProcNode &p, NodeId node, Context &out) {
  out = Context{};
  for (const Arg &a : p.args)
    if (a.type.kind == Type::Kind::Control && a.type.scalar == ValueType::Size)
      out.facts.push_back(BinOp::make(BinOpKind::Ge, Var::make(a.name, ValueType::Size), IntImm::make(1)));
  for (const Expr &e : p.preds)
    out.facts.push_back(e);
  return find_context(p.body, node, out.scopes);
}

DependenceAnalyzer::DependenceAnalyzer(IndexSolver &solver) : solver_(solver) {}

bool DependenceAnalyzer::kinds_conflict(AccessKind a, AccessKind b) {
  if (a == AccessKind::Read && b == AccessKind::Read)
    return false;
  if (a == AccessKind::Reduce && b == AccessKind::Reduce)
    return false;
  return true;
}

Sym DependenceAnalyzer::copy(const Sym &s, int side) {
  auto key = std::make_pair(s.id, side);
  auto it = copies_.find(key);
  if (it != copies_.end())
    return it->second;
  Sym c = Sym::fresh(side == 2 ? s.name + "'" : s.name);
  copies_.emplace(key, c);
  return c;
}

std::vector<z3::expr> DependenceAnalyzer::context_terms(const Context &ctx) {
  std::vector<z3::expr> out;
  z3::expr t(solver_.ctx());
  for (const Expr &e : ctx.facts)
    if (solver_.translate(e, t) && t.is_bool())
      out.push_back(t);
  for (const Scope &s : ctx.scopes) {
    if (s.is_loop) {
      z3::expr v = solver_.var(s.iter);
      if (solver_.translate(s.lo, t) && t.is_int())
        out.push_back(v >= t);
      if (solver_.translate(s.hi, t) && t.is_int())
        out.push_back(v < t);
    } else if (solver_.translate(s.cond, t) && t.is_bool()) {
      out.push_back(s.negated ? !t : t);
    }
  }
  return out;
}

std::vector<Sym> DependenceAnalyzer::bind_scopes(const Access &a, int side, std::vector<z3::expr> &facts,
                                                 bool *exact) {
  std::vector<Sym> bound;
  z3::expr t(solver_.ctx());
  auto add = [&](const Expr &e, bool want_int, auto make) {
    if (solver_.translate(e, t) && (want_int ? t.is_int() : t.is_bool()))
      facts.push_back(make(t));
    else if (exact)
      *exact = false;
  };
  for (const Scope &s : a.scopes) {
    if (s.is_loop) {
      z3::expr v = solver_.var(copy(s.iter, side));
      add(s.lo, true, [&](const z3::expr &lo) { return v >= lo; });
      add(s.hi, true, [&](const z3::expr &hi) { return v < hi; });
      solver_.bind(s.iter, v);
      bound.push_back(s.iter);
    } else {
      add(s.cond, false, [&](const z3::expr &c) { return s.negated ? !c : c; });
    }
  }
  return bound;
}

Answer DependenceAnalyzer::conflict(const Context &ctx, const std::vector<LoopInstance> &loops,
                                    const Effects &one, const Effects &two, const Relation &rel,
                                    Conflict *out) {
  std::vector<z3::expr> base = context_terms(ctx);
  auto is_private = [&](const Access &a) {
    return one.defs.count(a.buf.id) || two.defs.count(a.buf.id);
  };
  int opaque_count = 0;
  // Binds the `loops` and the scopes of `acc` to copies tagged `side`: their
  // ranges go to `facts`, the copies of `loops` to `copies`; returns the
  // access's indices (an index outside the index language is any value).
  auto side_terms = [&](const Access &acc, int side, std::vector<z3::expr> &facts,
                        std::vector<z3::expr> &copies) {
    std::vector<Sym> bound;
    z3::expr t(solver_.ctx());
    for (const LoopInstance &l : loops) {
      z3::expr v = solver_.var(copy(l.iter, side));
      if (solver_.translate(l.lo, t) && t.is_int())
        facts.push_back(v >= t);
      if (solver_.translate(l.hi, t) && t.is_int())
        facts.push_back(v < t);
      solver_.bind(l.iter, v);
      bound.push_back(l.iter);
      copies.push_back(v);
    }
    std::vector<Sym> inner = bind_scopes(acc, side, facts);
    bound.insert(bound.end(), inner.begin(), inner.end());
    std::vector<z3::expr> idx;
    for (const Expr &e : acc.idx) {
      if (solver_.translate(e, t) && t.is_int())
        idx.push_back(t);
      else
        idx.push_back(solver_.opaque("dep" + std::to_string(++opaque_count), print_expr(e)));
    }
    for (auto it = bound.rbegin(); it != bound.rend(); ++it)
      solver_.unbind(*it);
    return idx;
  };
  for (const Access &a : one.accesses) {
    if (is_private(a))
      continue;
    for (const Access &b : two.accesses) {
      if (a.buf.id != b.buf.id || is_private(b))
        continue;
      // Two `+=` into one element commute, but a floating sum then rounds
      // otherwise: record the buffer when they may meet (RoundingLog).
      bool sums = a.kind == AccessKind::Reduce && b.kind == AccessKind::Reduce;
      if (!kinds_conflict(a.kind, b.kind) &&
          !(sums && RoundingLog::active() && !RoundingLog::has_reordered(a.buf)))
        continue;
      std::vector<z3::expr> facts = base, copies1, copies2;
      std::vector<z3::expr> ia = side_terms(a, 1, facts, copies1);
      std::vector<z3::expr> ib = side_terms(b, 2, facts, copies2);
      if (rel)
        facts.push_back(rel(copies1, copies2));
      Answer ans = meet(solver_, facts, a, ia, b, ib, sums ? nullptr : out);
      if (sums) {
        if (ans != Answer::NoConflict)
          RoundingLog::reordered_sums(a.buf);
        continue;
      }
      if (ans != Answer::NoConflict)
        return ans;
    }
  }
  return Answer::NoConflict;
}

Answer DependenceAnalyzer::flows(const Context &ctx, const Access &read,
                                 const std::vector<Access> &covering, const LoopInstance &loop,
                                 const std::vector<Access> &earlier, Conflict *out) {
  std::vector<z3::expr> base = context_terms(ctx);
  z3::expr t(solver_.ctx());
  // The indices of `a` with its scopes bound to copies tagged `side` (their
  // ranges and conditions go to `facts`); an index outside the index
  // language becomes an opaque value.
  int opaque_count = 0;
  auto indices = [&](const Access &a, int side, std::vector<z3::expr> &facts, bool *exact = nullptr) {
    std::vector<Sym> bound = bind_scopes(a, side, facts, exact);
    std::vector<z3::expr> idx;
    for (const Expr &e : a.idx) {
      if (solver_.translate(e, t) && t.is_int())
        idx.push_back(t);
      else
        idx.push_back(solver_.opaque("flow" + std::to_string(++opaque_count), print_expr(e)));
    }
    for (auto it = bound.rbegin(); it != bound.rend(); ++it)
      solver_.unbind(*it);
    return idx;
  };
  std::vector<z3::expr> ridx = indices(read, 1, base);
  // Some covering write, at some instance, writes the read's element.
  z3::expr covered = solver_.ctx().bool_val(false);
  int side = 3;
  for (const Access &w : covering) {
    if (w.anywhere || read.anywhere || w.buf.id != read.buf.id || w.idx.size() != read.idx.size())
      continue;
    // "Some write covers the read" is a must-fact: a write under a condition
    // or a loop bound the solver cannot read (`stride`, `offset`) covers
    // nothing, where dropping the fact would make it unconditional.
    std::vector<z3::expr> wfacts;
    bool exact = true;
    std::vector<z3::expr> widx = indices(w, side, wfacts, &exact);
    if (!exact)
      continue;
    z3::expr body = solver_.ctx().bool_val(true);
    for (const z3::expr &f : wfacts)
      body = body && f;
    for (size_t d = 0; d < ridx.size(); ++d)
      body = body && widx[d] == ridx[d];
    z3::expr_vector vars(solver_.ctx());
    for (const Scope &s : w.scopes)
      if (s.is_loop)
        vars.push_back(solver_.var(copy(s.iter, side)));
    covered = covered || (vars.empty() ? body : z3::exists(vars, body));
    ++side;
  }
  base.push_back(!covered);
  // An earlier iteration of `loop` writes the same element.
  z3::expr now = solver_.var(loop.iter);
  for (const Access &e : earlier) {
    if (e.buf.id != read.buf.id)
      continue;
    std::vector<z3::expr> facts = base;
    z3::expr before = solver_.var(copy(loop.iter, 2));
    if (solver_.translate(loop.lo, t) && t.is_int())
      facts.push_back(before >= t);
    if (solver_.translate(loop.hi, t) && t.is_int())
      facts.push_back(before < t);
    facts.push_back(before < now);
    solver_.bind(loop.iter, before);
    std::vector<z3::expr> eidx = indices(e, 2, facts);
    solver_.unbind(loop.iter);
    Answer ans = meet(solver_, facts, e, eidx, read, ridx, out);
    if (ans != Answer::NoConflict)
      return ans;
  }
  return Answer::NoConflict;
}

Validity DependenceAnalyzer::prove(const Context &ctx, const Expr &e, Counterexample *cex) {
  z3::expr goal(solver_.ctx());
  if (!solver_.translate(e, goal) || !goal.is_bool())
    return Validity::Unknown;
  return solver_.is_valid(context_terms(ctx), goal, cex);
}

} // namespace exgc::analysis
