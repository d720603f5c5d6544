// bind_expr.cpp - compute a data expression into a new scalar first ----------//
// bind_expr(p, exprs, name): finds the first assignment or reduction (in
// program order) whose right-hand side contains a match of the expression
// pattern `exprs`, and binds it:
//   y[i] = a[i] * b[i] + a[i] * b[i]  -- ("a[_] * b[_]", "ab") -->
//   ab: f32
//   ab = a[i] * b[i]
//   y[i] = ab + ab
// Every occurrence in that right-hand side of the same expression (the same
// text as the first match) becomes `name`.
// Checked: the statement evaluates its right-hand side before it writes, so
// computing the expression just before the statement reads the same values;
// the new scalar has the type of the statement's destination, the type the
// expression is computed in (docs/language.md, "Data semantics"), so no
// value is converted that was not before: `iz[0] = bz[1] * bz[2] + bz[3]`
// with i8 operands binds `bz[1] * bz[2]` into an i32, as it was computed. Only data expressions are bound (control
// values cannot come from buffers). Inside a CudaDeviceFunction the scalar
// lives in CudaRmem (one per thread), elsewhere in host memory.
// With cse=True (the reference's option), the same expression in the
// assignments and reductions that follow in the block becomes `name` too, up
// to and including the first that writes a buffer the expression reads, and
// not past any other kind of statement (cse_statements); a statement whose
// destination has another type keeps its expression.
// Fails when: `exprs` does not parse (PatternSyntax, PatternNotSupported) or
// matches no right-hand side (PatternNoMatch); the match is not a data value
// (NotADataExpr); `name` is already a name in the proc (NameInUse).
#include <set>

#include "compiler/frontend/fragment.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/computation_type.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/pattern.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// The first Assign/Reduce whose rhs has a match; `device` when inside a
/// CudaDeviceFunction.
struct FindSite {
  const FragExpr *pat;
  Stmt stmt;
  Expr match;
  bool device = false;

  void block(const Block &b, bool dev) {
    for (const Stmt &s : b) {
      if (stmt)
        return;
      const Expr *rhs = nullptr;
      if (const auto *a = s.as<Assign>())
        rhs = &a->rhs;
      else if (const auto *r = s.as<Reduce>())
        rhs = &r->rhs;
      if (rhs) {
        std::vector<Expr> m = find_expr_matches_in(*rhs, *pat);
        if (!m.empty()) {
          stmt = s;
          match = m.front();
          device = dev;
          return;
        }
      }
      if (const auto *f = s.as<For>())
        block(f->body, dev);
      else if (const auto *i = s.as<If>()) {
        block(i->then_body, dev);
        block(i->else_body, dev);
      } else if (const auto *w = s.as<With>()) {
        block(w->body, dev || w->context() == ContextKind::CudaDeviceFunction);
      }
    }
  }
};

struct Names : IRVisitor {
  std::string name;
  bool found = false;
  void visit_node(const Alloc *op) override {
    found |= op->name.name == name;
    IRVisitor::visit_node(op);
  }
  void visit_node(const For *op) override {
    found |= op->iter.name == name;
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowStmt *op) override {
    found |= op->name.name == name;
    IRVisitor::visit_node(op);
  }
};

struct ReplaceText : IRMutator {
  std::string text;
  Expr with;
  Expr mutate_node(const BinOp *op, const Expr &self) override { return hit(self) ? with : IRMutator::mutate_node(op, self); }
  Expr mutate_node(const UnOp *op, const Expr &self) override { return hit(self) ? with : IRMutator::mutate_node(op, self); }
  Expr mutate_node(const Read *op, const Expr &self) override { return hit(self) ? with : IRMutator::mutate_node(op, self); }
  Expr mutate_node(const Call *op, const Expr &self) override { return hit(self) ? with : IRMutator::mutate_node(op, self); }
  Expr mutate_node(const Var *op, const Expr &self) override { return hit(self) ? with : IRMutator::mutate_node(op, self); }
  bool hit(const Expr &e) const { return is_data(e->type) && print_expr(e) == text; }
};

/// With cse=True: the assignments and reductions after `site` in its block
/// whose occurrences of `match` still read the same values. The scan stops
/// at the first other statement and after the first one that writes a
/// buffer `match` reads (its own right-hand side is read before it writes).
/// Only assignments and reductions are crossed, so no binding changes what
/// the expression's names mean.
std::vector<Stmt> cse_statements(Interpreter &in, const Proc &p, const Stmt &site, const Expr &match) {
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  std::set<uint32_t> inputs;
  for (const analysis::Access &a : coll.of_expr(match).accesses)
    inputs.insert(a.buf.id);
  auto writes_input = [&](const Stmt &s) {
    for (const analysis::Access &a : coll.of(Block{s}).accesses)
      if (a.kind != analysis::AccessKind::Read && (a.anywhere || inputs.count(a.buf.id)))
        return true;
    return false;
  };
  std::vector<Stmt> out;
  Located l;
  locate(*p, site->id, l);
  if (writes_input(site))
    return out;
  for (size_t i = l.index + 1; i < l.block->size(); ++i) {
    const Stmt &s = (*l.block)[i];
    if (!s.as<Assign>() && !s.as<Reduce>())
      break;
    out.push_back(s);
    if (writes_input(s))
      break;
  }
  return out;
}

} // namespace

Value bind_expr(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  const std::string &pattern = call.arg("exprs").value.str;
  const std::string &name = call.arg("name").value.str;
  FragExprP pat;
  FragmentError err;
  if (!parse_expr_fragment(pattern, pat, err))
    in.fail(call.loc, err.syntax ? DiagKind::PatternSyntax : DiagKind::PatternNotSupported, pattern,
            err.message);
  FindSite site;
  site.pat = pat.get();
  site.block(p->body, false);
  if (!site.stmt)
    in.fail(call.loc, DiagKind::PatternNoMatch, pattern, p->name, "");
  if (!is_data(site.match->type))
    in.fail(call.loc, DiagKind::NotADataExpr, print_expr(site.match));
  ProcSymbols symbols(*p);
  ValueType t = computed_in(symbols, site.stmt);
  Names names;
  names.name = name;
  names.visit_proc(*p);
  if (names.found || p->find_arg(name))
    in.fail(call.loc, DiagKind::NameInUse, name, p->name);
  if (t == ValueType::R)
    t = ValueType::F32; // a literal-only expression: the CPU reference's float
  Sym sym = Sym::fresh(name);
  Expr mem = site.device ? Var::make(Sym::global("CudaRmem"), ValueType::Meta, call.loc) : Expr();
  Stmt alloc = Alloc::make(sym, Type::data(t, {}, mem, false, call.loc), call.loc);
  Stmt assign = Assign::make(sym, {}, site.match, call.loc);
  ReplaceText r;
  r.text = print_expr(site.match);
  r.with = Read::make(sym, {}, t, call.loc);
  Proc out = p;
  if (call.arg("cse").value.int_value != 0)
    for (const Stmt &s : cse_statements(in, p, site.stmt, site.match))
      if (computed_in(symbols, s) == t)
        out = replace_stmt(out, s->id, [&](const Stmt &old) { return r.mutate(old); });
  return Value::of_proc(replace_stmt(out, site.stmt->id, [&](const Stmt &old) -> Block {
    Block b = r.mutate(old);
    return {alloc, assign, b.front()};
  }));
}

} // namespace exgc::schedule
