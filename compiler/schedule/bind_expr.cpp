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
// the new scalar has the expression's own data type, so the stored value is
// rounded as the expression was. Only data expressions are bound (control
// values cannot come from buffers). Inside a CudaDeviceFunction the scalar
// lives in CudaRmem (one per thread), elsewhere in host memory.
// Fails when: `exprs` does not parse (PatternSyntax, PatternNotSupported) or
// matches no right-hand side (PatternNoMatch); the match is not a data value
// (NotADataExpr); `name` is already a name in the proc (NameInUse).
#include "compiler/frontend/fragment.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/edit.h"
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
        const auto *c = w->ctx.as<Call>();
        block(w->body, dev || (c && c->func == "CudaDeviceFunction"));
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
  ValueType t = site.match->type;
  if (!is_data(t))
    in.fail(call.loc, DiagKind::NotADataExpr, print_expr(site.match));
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
  return Value::of_proc(replace_stmt(p, site.stmt->id, [&](const Stmt &old) -> Block {
    Block b = r.mutate(old);
    return {alloc, assign, b.front()};
  }));
}

} // namespace exgc::schedule
