// inline_assign.cpp - replace a scalar by the value assigned to it ---------------//
// inline_assign(p, stmt): `stmt` is `x = e` with `x` a scalar allocated
// earlier in the same block; every read of `x` in the statements after it
// (in that block) becomes `e`, and the assignment is deleted:
//   t: f32; t = a[i] * 2.0; y[i] = t + t  -->  t: f32; y[i] = a[i] * 2.0 + a[i] * 2.0
// (delete_buffer then removes the allocation). Statements keep their ids.
// Checked: `x` lives only in this block (allocated in it, so nothing after
// the block reads it, and not an argument, whose value the caller sees: Exo's
// #566); it is not written again, reduced into, windowed or passed to a call
// after the assignment (each read then saw exactly `e`'s value); and `e`
// reads the same values where it is substituted: no statement between the
// assignment and the last use of `x` writes an element `e` reads (decided
// with Z3 by the dependence analysis; Exo's #612 does not check it).
// Control values in `e` are never written. Data is computed in the type of
// the value it is stored into (docs/language.md), so `e` computed into x and
// `e` computed into a statement reading x agree only when the two types do,
// or when `e` is a read of data of x's own type (x then holds that value).
// An element assignment `x[idx] = e` (x a local buffer) is inlined the same
// way into the reads of that element; every other read of x after it must
// provably read another element (those keep reading x, whose other elements
// the deleted assignment never wrote).
// Fails when: `stmt` is not an assignment (CursorKindMismatch);
// `x` is not allocated earlier in the block (InlineAssignScope); it is
// written or passed on after (InlineAssignNotReadOnly, note at the use); an
// input of `e` may change before a use (InlineAssignInputChanged: notes at
// both accesses, counterexample); a read may or may not be the assigned
// element (InlineAssignElementUnclear, counterexample); a statement reading
// x computes in another type than x's (InlineAssignConversion, note at the
// statement); the solver gives up (SolverUnknown).
#include <set>
#include <utility>

#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/symbols.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/computation_type.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// The first use of `x` other than a plain read: an assignment or reduction
/// to it, a window of it, or the buffer as a call argument.
struct OtherUse : IRVisitor {
  uint32_t x;
  bool found = false;
  SrcLoc at;
  void hit(bool is, SrcLoc loc) {
    if (is && !found) {
      found = true;
      at = loc;
    }
  }
  void visit_node(const Assign *op) override {
    hit(op->buf.id == x, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    hit(op->buf.id == x, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowExpr *op) override {
    hit(op->buf.id == x, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const CallStmt *op) override {
    for (const Expr &a : op->args) {
      if (const auto *r = a.as<Read>())
        hit(r->buf.id == x, r->loc);
      // A data scalar passed by name is passed by pointer: the callee may
      // write it, and no substitution can stand for it.
      if (const auto *v = a.as<Var>(); v && is_data(v->type))
        hit(v->name.id == x, v->loc);
    }
    IRVisitor::visit_node(op);
  }
};

/// Reads of `x` become `value`; for an element assignment, only the reads
/// at the places in `same` (by source position).
struct Substitute : IRMutator {
  uint32_t x;
  Expr value;
  const std::set<std::pair<uint32_t, uint32_t>> *same = nullptr;
  Expr mutate_node(const Read *op, const Expr &self) override {
    if (op->buf.id == x && (!same || same->count({op->loc.line, op->loc.col})))
      return value;
    return IRMutator::mutate_node(op, self);
  }
};

/// For `x[idx] = e`: the reads of `x` in `between` that read that element,
/// by source position; every other read must provably read another one.
std::set<std::pair<uint32_t, uint32_t>> same_element_reads(Interpreter &in, const Proc &p, const Stmt &s,
                                                           const Assign &as, const Block &between,
                                                           SrcLoc loc) {
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::Effects fx = coll.of(between);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  const analysis::Context base = context_at(p, s);
  std::set<std::pair<uint32_t, uint32_t>> same, other;
  std::string target = as.buf.name + "[";
  for (size_t d = 0; d < as.idx.size(); ++d)
    target += (d ? ", " : "") + print_expr(as.idx[d]);
  target += "]";
  for (const analysis::Access &a : fx.accesses) {
    if (a.buf.id != as.buf.id)
      continue;
    Expr eq;
    for (size_t d = 0; d < as.idx.size() && d < a.idx.size(); ++d) {
      Expr e = BinOp::make(BinOpKind::Eq, a.idx[d], as.idx[d]);
      eq = eq ? BinOp::make(BinOpKind::And, eq, e) : e;
    }
    analysis::Context ctx = base;
    ctx.scopes.insert(ctx.scopes.end(), a.scopes.begin(), a.scopes.end());
    analysis::Counterexample cex;
    analysis::Validity v = dep.prove(ctx, eq, &cex);
    if (v == analysis::Validity::Unknown)
      fail_unknown(in, loc, "whether '" + a.text + "' reads '" + target + "'", solver);
    auto unclear = [&] {
      auto rep = in.diag().report(loc, DiagKind::InlineAssignElementUnclear, a.text, target);
      rep.note(a.loc, "'" + a.text + "' reads '" + as.buf.name + "' here");
      if (!cex.values.empty())
        rep.note(loc, "for example " + cex.str() + ", it reads another element");
      throw ScriptAbort{};
    };
    bool is_same = v == analysis::Validity::Valid;
    if (!is_same && dep.prove(ctx, UnOp::make(UnOpKind::Not, eq), nullptr) != analysis::Validity::Valid)
      unclear();
    // One read node copied into two places may get two answers: refuse it.
    std::pair<uint32_t, uint32_t> at{a.loc.line, a.loc.col};
    if ((is_same ? other : same).count(at))
      unclear();
    (is_same ? same : other).insert(at);
  }
  return same;
}

/// Refuses when `e` (the value of `as`) would be computed in another type
/// once inlined into a statement of `between` that reads it.
void require_same_computation(Interpreter &in, const ProcNode &p, const Assign &as,
                             const Block &between, SrcLoc loc) {
  ProcSymbols names(p);
  const SymDecl *x = names.find(as.buf);
  ValueType held = machine_type(x ? x->elem : ValueType::R);
  if (Stmt s = first_other_computation(names, as.rhs, held, statements_reading(between, as.buf.id))) {
    const char *computed = value_type_name(computed_in(names, s));
    in.diag().report(loc, DiagKind::InlineAssignConversion, as.buf.name, value_type_name(held), computed)
        .note(s->loc, std::string("it computes in ") + computed + " here");
    throw ScriptAbort{};
  }
}

} // namespace

Value inline_assign(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("stmt").value, call.loc);
  const auto *as = s.as<Assign>();
  if (!as)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'inline_assign'", "an assignment");
  Located l;
  locate(*p, s->id, l);
  bool local = false;
  for (size_t i = 0; i < l.index; ++i)
    if (const auto *a = (*l.block)[i].as<Alloc>(); a && a->name.id == as->buf.id)
      local = true;
  if (!local)
    in.fail(call.loc, DiagKind::InlineAssignScope, as->buf.name);

  Block after(l.block->begin() + static_cast<long>(l.index + 1), l.block->end());
  OtherUse other;
  other.x = as->buf.id;
  other.visit(after);
  if (other.found) {
    in.diag().report(call.loc, DiagKind::InlineAssignNotReadOnly, as->buf.name)
        .note(other.at, "'" + as->buf.name + "' is used here");
    throw ScriptAbort{};
  }
  size_t uses = 0; // statements up to the last use of x
  for (size_t i = 0; i < after.size(); ++i)
    if (analysis::mentions(Block{after[i]}, as->buf))
      uses = i + 1;
  Block between(after.begin(), after.begin() + static_cast<long>(uses));
  require_same_computation(in, *p, *as, between, call.loc);

  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  analysis::Conflict c;
  analysis::Answer ans =
      dep.conflict(context_at(p, s), {}, coll.of_expr(as->rhs), coll.of(between), nullptr, &c);
  if (ans == analysis::Answer::Unknown)
    fail_unknown(in, call.loc, "that the inputs of '" + as->buf.name + "' stay unchanged", solver);
  if (ans == analysis::Answer::Conflict)
    fail_conflict(in, call.loc, c, DiagKind::InlineAssignInputChanged, c.first.buf.name, as->buf.name);

  Substitute sub;
  sub.x = as->buf.id;
  sub.value = as->rhs;
  std::set<std::pair<uint32_t, uint32_t>> same;
  if (!as->idx.empty()) {
    same = same_element_reads(in, p, s, *as, between, call.loc);
    sub.same = &same;
  }
  Proc out = p;
  for (const Stmt &u : between)
    out = replace_stmt(out, u->id, [&](const Stmt &old) { return sub.mutate(old); });
  return Value::of_proc(replace_stmt(out, s->id, [&](const Stmt &) -> Block {
    if (l.block->size() == 1)
      return {Pass::make(call.loc)};
    return {};
  }));
}

} // namespace exgc::schedule
