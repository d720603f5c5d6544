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
// Control values in `e` are never written. The value is rounded as `e` was,
// not to x's precision: precisions only say how the machine rounds the real
// values the proc means.
// Fails when: `stmt` is not an assignment to a scalar (CursorKindMismatch);
// `x` is not allocated earlier in the block (InlineAssignScope); it is
// written or passed on after (InlineAssignNotReadOnly, note at the use); an
// input of `e` may change before a use (InlineAssignInputChanged: notes at
// both accesses, counterexample); the solver gives up (SolverUnknown).
#include "compiler/ir/mutator.h"
#include "compiler/ir/visitor.h"
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

/// Reads of `x` become `value`.
struct Substitute : IRMutator {
  uint32_t x;
  Expr value;
  Expr mutate_node(const Read *op, const Expr &self) override {
    return op->buf.id == x ? value : IRMutator::mutate_node(op, self);
  }
};

} // namespace

Value inline_assign(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("stmt").value, call.loc);
  const auto *as = s.as<Assign>();
  if (!as || !as->idx.empty())
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'inline_assign'", "an assignment to a scalar");
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
