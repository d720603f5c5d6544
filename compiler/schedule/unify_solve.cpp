// unify_solve.cpp - solving and proving the equations of a unification --------//
#include "compiler/ir/printer.h"
#include "compiler/ir/symbols.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/stage_source.h"
#include "compiler/schedule/unify.h"

namespace exgc::schedule {
namespace {

bool meets(const std::set<uint32_t> &a, const std::set<uint32_t> &b) {
  for (uint32_t x : a)
    if (b.count(x))
      return true;
  return false;
}

} // namespace

Expr Unifier::subst(const Expr &e) const {
  std::map<uint32_t, Expr> m = values_;
  for (const auto &[id, v] : iters_)
    m[id] = v;
  return analysis::substitute(e, m);
}

bool Unifier::solve_equation(const Equation &eq) {
  Expr cs = subst(eq.callee);
  uint32_t unknown = 0;
  int64_t coeff = 0;
  Affine rest;
  if (const auto *v = cs.as<Var>(); v && cs->type == ValueType::Bool) {
    if (!param(v->name.id) || values_.count(v->name.id))
      return false;
    if (meets(ids_of(eq.block), block_iters_))
      mismatch(eq.at_c, eq.at_b, "argument '" + v->name.name + "' would be '" +
                                     print_expr(eq.block) + "', which changes with the block's loops");
    values_[v->name.id] = eq.block;
    return true;
  }
  Affine a = to_affine(cs);
  if (!a.ok)
    return false;
  for (const auto &[key, t] : a.terms) {
    std::set<uint32_t> ids = ids_of(t.first);
    bool open = false;
    for (uint32_t id : ids)
      open |= param(id) && !values_.count(id);
    if (!open)
      continue;
    const auto *v = t.first.as<Var>();
    if (!v || unknown || (t.second != 1 && t.second != -1))
      return false; // not solvable (yet): another equation may fix the others
    unknown = v->name.id;
    coeff = t.second;
  }
  if (!unknown)
    return false;
  Affine b = to_affine(eq.block);
  Affine others = a;
  for (auto it = others.terms.begin(); it != others.terms.end(); ++it)
    if (const auto *v = it->second.first.as<Var>(); v && v->name.id == unknown) {
      others.terms.erase(it);
      break;
    }
  Affine value = coeff == 1 ? b - others : others - b;
  if (!b.ok || value.mentions_any(block_iters_))
    mismatch(eq.at_c, eq.at_b, "argument '" + param(unknown)->name.name + "' would be '" +
                                   print_expr(from_affine(value, loc_)) +
                                   "', which changes with the block's loops");
  values_[unknown] = from_affine(value, loc_);
  return true;
}

bool Unifier::solve_window(const Access &acc) {
  const Arg *a = param(acc.param);
  bool progress = false;
  auto it = windows_.find(acc.param);
  if (it == windows_.end()) {
    Window w;
    w.buf = acc.bbuf;
    const ProcSymbols symbols(*p_);
    const SymDecl *decl = symbols.find(w.buf);
    w.type = decl ? decl->elem : ValueType::R;
    size_t slices = 0;
    for (size_t d = 0; d < acc.bidx.size(); ++d) {
      const Expr &e = acc.bidx[d];
      // A slice dimension: its index moves with the block's loops, or differs
      // between two accesses of the parameter (`src[0] + src[1]` against
      // `part[0, j] + part[1, j]`: the butterfly steps).
      bool s = meets(ids_of(e), block_iters_);
      for (const Access &other : accesses_)
        s = s || (other.param == acc.param && other.bbuf == acc.bbuf &&
                  !is_zero(to_affine(other.bidx[d]) - to_affine(e)));
      w.slice.push_back(s);
      w.at.push_back(s ? Expr() : at_loc(e, loc_));
      slices += s;
    }
    if (slices != a->type.shape.size())
      mismatch(acc.at_c, acc.at_b,
               "the block's loops run over " + std::to_string(slices) + " dimension(s) of '" +
                   w.buf.name + "', parameter '" + a->name.name + "' has " +
                   std::to_string(a->type.shape.size()));
    it = windows_.emplace(acc.param, w).first;
    progress = true;
  }
  Window &w = it->second;
  if (w.buf != acc.bbuf)
    mismatch(acc.at_c, acc.at_b, "parameter '" + a->name.name + "' would be '" + w.buf.name +
                                     "' in one access and '" +
                                     acc.bbuf.name + "' in another");
  for (size_t d = 0, j = 0; d < w.slice.size(); ++d) {
    if (!w.slice[d])
      continue;
    size_t k = j++;
    if (w.at[d])
      continue;
    Expr cj = subst(acc.cidx[k]);
    bool open = false;
    for (uint32_t id : ids_of(cj))
      open |= param(id) && !values_.count(id);
    if (open)
      continue;
    Affine lo = to_affine(acc.bidx[d]) - to_affine(cj);
    if (!lo.ok || lo.mentions_any(block_iters_))
      mismatch(acc.at_c, acc.at_b, "index '" + print_expr(acc.bidx[d]) + "' of '" + w.buf.name +
                                       "' is not '" + print_expr(cj) +
                                       "' plus an offset fixed in the block");
    w.at[d] = from_affine(lo, loc_);
    progress = true;
  }
  return progress;
}

bool Unifier::bind(const std::string &name, const Expr &value) {
  for (const Arg &a : callee_.args)
    if (a.name.name == name && a.type.kind == Type::Kind::Control) {
      values_[a.name.id] = at_loc(value, loc_);
      return true;
    }
  return false;
}

void Unifier::solve() {
  for (bool progress = true; progress;) {
    progress = false;
    for (const Equation &eq : eqs_)
      progress |= solve_equation(eq);
    for (const Access &acc : accesses_)
      progress |= solve_window(acc);
  }
  for (const Arg &a : callee_.args) {
    bool tensor = a.type.kind == Type::Kind::Data && !a.type.shape.empty();
    bool solved = tensor ? windows_.count(a.name.id) != 0 : values_.count(a.name.id) != 0;
    if (tensor && solved)
      for (const Expr &e : windows_[a.name.id].at)
        solved &= bool(e);
    if (!solved || a.type.kind == Type::Kind::Barrier)
      in_.fail(loc_, DiagKind::ReplaceUnsolved, a.name.name, callee_.name);
  }
  // A data argument is evaluated once, before the body runs: it must not
  // change with the block's loops nor read what the block writes, by any
  // name: buffers are compared by the root a window name views.
  analysis::EffectCollector names(*p_, callee_lookup(in_, p_));
  auto roots = [&](const std::set<uint32_t> &ids) {
    std::set<uint32_t> out;
    for (uint32_t id : ids)
      out.insert(names.root_of(Sym{"", id}).id);
    return out;
  };
  const std::set<uint32_t> written_roots = roots(block_written_);
  for (const auto &[id, v] : values_) {
    const Arg *a = param(id);
    if (!a || a->type.kind != Type::Kind::Data)
      continue;
    std::set<uint32_t> ids = ids_of(v);
    if (meets(ids, block_iters_) || meets(roots(ids), written_roots))
      mismatch(Stmt(), Stmt(), "data argument '" + a->name.name + "' would be '" + print_expr(v) +
                                   "', which " +
                                   (meets(ids, block_iters_) ? "changes with the block's loops"
                                                             : "reads what the block writes"));
  }
  for (const auto &[id1, w1] : windows_)
    for (const auto &[id2, w2] : windows_)
      if (id1 < id2 && names.root_of(w1.buf).id == names.root_of(w2.buf).id &&
          (written_.count(id1) || written_.count(id2)))
        mismatch(Stmt(), Stmt(), "parameters '" + param(id1)->name.name + "' and '" +
                                     param(id2)->name.name + "' would both be '" + w1.buf.name +
                                     "', and one of them is written");
}

void Unifier::verify() {
  // Each access, with its window solved, is one more equation per dimension.
  for (const Access &acc : accesses_) {
    const Window &w = windows_.at(acc.param);
    for (size_t d = 0, j = 0; d < w.slice.size(); ++d) {
      Expr want = w.at[d];
      if (w.slice[d]) {
        const auto *zero = w.at[d].as<IntImm>();
        want = zero && zero->value == 0 ? acc.cidx[j] : BinOp::make(BinOpKind::Add, w.at[d], acc.cidx[j]);
        ++j;
      }
      eqs_.push_back({want, acc.bidx[d], acc.ctx, acc.at_c, acc.at_b});
    }
  }
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  for (const Equation &eq : eqs_) {
    Expr c = subst(eq.callee);
    Expr goal;
    if (c->type == ValueType::Bool) // c <=> b
      goal = BinOp::make(BinOpKind::Or, BinOp::make(BinOpKind::And, c, eq.block),
                         BinOp::make(BinOpKind::And, UnOp::make(UnOpKind::Not, c),
                                     UnOp::make(UnOpKind::Not, eq.block)));
    else
      goal = BinOp::make(BinOpKind::Eq, c, eq.block);
    analysis::Counterexample cex;
    analysis::Validity v = dep.prove(eq.ctx, goal, &cex);
    if (v == analysis::Validity::Valid)
      continue;
    if (v == analysis::Validity::Unknown)
      fail_unknown(in_, loc_, "that '" + print_expr(eq.block) + "' equals '" + print_expr(c) + "'",
                   solver);
    auto d = in_.diag().report(loc_, DiagKind::ReplaceNotEquivalent, callee_.name,
                               print_expr(eq.block), print_expr(c));
    d.note(eq.at_b->loc, "in this statement of the block: '" + first_line(eq.at_b) + "'");
    if (!cex.values.empty())
      d.note(loc_, "for example " + cex.str());
    throw ScriptAbort{};
  }
}

Stmt Unifier::make_call(const std::string &callee_name) {
  std::vector<Expr> args;
  std::vector<KwArg> kwargs;
  for (const Arg &a : callee_.args) {
    if (is_template(a)) {
      Affine k = to_affine(values_.at(a.name.id));
      if (!k.ok || !k.terms.empty())
        mismatch(Stmt(), Stmt(), "template argument '" + a.name.name + "' would be '" +
                                     print_expr(values_.at(a.name.id)) + "', not a constant");
      kwargs.push_back({a.name.name, IntImm::make(k.constant, loc_), loc_});
      continue;
    }
    if (a.type.kind != Type::Kind::Data || a.type.shape.empty()) {
      Expr v = values_.at(a.name.id);
      args.push_back(is_control(v->type) ? at_loc(v, loc_) : v);
      continue;
    }
    const Window &w = windows_.at(a.name.id);
    if (!a.type.window) {
      bool whole = true;
      for (size_t d = 0; d < w.slice.size(); ++d) {
        Affine lo = w.slice[d] ? to_affine(w.at[d]) : Affine();
        whole &= w.slice[d] && lo.ok && lo.terms.empty() && lo.constant == 0;
      }
      if (!whole)
        mismatch(Stmt(), Stmt(), "parameter '" + a.name.name + "' is a whole tensor; the block " +
                                     "uses part of '" + w.buf.name + "'");
      args.push_back(Read::make(w.buf, {}, w.type, loc_));
      continue;
    }
    std::vector<WindowIdx> idx;
    StageSource src;
    const StageSource *whole_dim =
        find_stage_source(*p_, w.buf.name, src) && src.sym == w.buf ? &src : nullptr;
    for (size_t d = 0, j = 0; d < w.slice.size(); ++d) {
      if (!w.slice[d]) {
        idx.push_back(WindowIdx::point(w.at[d]));
        continue;
      }
      Affine hi = to_affine(BinOp::make(BinOpKind::Add, w.at[d], subst(a.type.shape[j++])));
      // A slice over the whole dimension is written `:`, as by hand.
      Affine lo = to_affine(w.at[d]);
      if (whole_dim && d < whole_dim->type.shape.size() && is_zero(lo) &&
          is_zero(hi - to_affine(whole_dim->type.shape[d]))) {
        idx.push_back(WindowIdx::slice(Expr(), Expr()));
        continue;
      }
      idx.push_back(WindowIdx::slice(w.at[d], from_affine(hi, loc_)));
    }
    args.push_back(WindowExpr::make(w.buf, std::move(idx), w.type, loc_));
  }
  return CallStmt::make(callee_name, std::move(args), std::move(kwargs), {}, loc_);
}

} // namespace exgc::schedule
