// unify.cpp - matching a callee's body against a block ------------------------//
#include "compiler/schedule/unify.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/symbols.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/computation_type.h"
#include "compiler/schedule/loop_support.h"

namespace exgc::schedule {
namespace {

/// "a loop", "an assignment": a statement kind in words.
std::string a_kind(StmtKind k) {
  switch (k) {
  case StmtKind::Assign: return "an assignment";
  case StmtKind::Reduce: return "a reduction";
  case StmtKind::Alloc: return "an allocation";
  case StmtKind::WindowStmt: return "a window statement";
  case StmtKind::For: return "a loop";
  case StmtKind::If: return "an if";
  case StmtKind::Pass: return "a pass";
  case StmtKind::CallStmt: return "a call";
  case StmtKind::With: return "a with block";
  case StmtKind::Fence: return "a Fence";
  case StmtKind::Arrive: return "an Arrive";
  case StmtKind::Await: return "an Await";
  }
  return "a statement";
}

analysis::Context with_scope(analysis::Context ctx, analysis::Scope s) {
  ctx.scopes.push_back(std::move(s));
  return ctx;
}

} // namespace

Unifier::Unifier(Interpreter &in, const Proc &p, const ProcNode &callee, SrcLoc loc)
    : in_(in), p_(p), callee_(callee), loc_(loc) {}

const Arg *Unifier::param(uint32_t id) const {
  for (const Arg &a : callee_.args)
    if (a.name.id == id)
      return &a;
  return nullptr;
}

bool Unifier::is_template(const Arg &a) const {
  const InstrAttr *t = callee_.attr("template");
  if (!t)
    return false;
  for (const Expr &e : t->values)
    if (const auto *v = e.as<Var>(); v && v->name.name == a.name.name)
      return true;
  return false;
}

std::string Unifier::first_line(const Stmt &s) {
  std::string t = print_stmt(s);
  size_t b = t.find_first_not_of(' ');
  t = t.substr(b == std::string::npos ? 0 : b);
  return t.substr(0, t.find('\n'));
}

void Unifier::mismatch(const Stmt &at_c, const Stmt &at_b, const std::string &why) {
  auto d = in_.diag().report(loc_, DiagKind::ReplaceNoMatch, callee_.name, why);
  if (at_b)
    d.note(at_b->loc, "in this statement of the block: '" + first_line(at_b) + "'");
  if (at_c)
    d.note(at_c->loc, "matched against this statement of '" + callee_.name + "': '" +
                          first_line(at_c) + "'");
  throw ScriptAbort{};
}

void Unifier::match_block(const Block &c, const Block &b, analysis::Context ctx) {
  if (c.size() != b.size())
    mismatch(c.empty() ? Stmt() : c[0], b.empty() ? Stmt() : b[0],
             "the body has " + std::to_string(c.size()) + " statement(s) here, the block " +
                 std::to_string(b.size()));
  for (size_t i = 0; i < c.size(); ++i)
    match_stmt(c[i], b[i], ctx);
}

void Unifier::match_stmt(const Stmt &c, const Stmt &b, const analysis::Context &ctx) {
  if (c->kind != b->kind)
    mismatch(c, b, a_kind(b->kind) + " where the body has " + a_kind(c->kind));
  if (const auto *cf = c.as<For>()) {
    const auto *bf = b.as<For>();
    eqs_.push_back({cf->lo, bf->lo, ctx, c, b});
    eqs_.push_back({cf->hi, bf->hi, ctx, c, b});
    iters_[cf->iter.id] = iter_var(bf->iter);
    block_iters_.insert(bf->iter.id);
    analysis::Scope s;
    s.iter = bf->iter;
    s.lo = bf->lo;
    s.hi = bf->hi;
    match_block(cf->body, bf->body, with_scope(ctx, s));
  } else if (const auto *ci = c.as<If>()) {
    const auto *bi = b.as<If>();
    match_expr(ci->cond, bi->cond, ctx, c, b);
    analysis::Scope s;
    s.is_loop = false;
    s.cond = bi->cond;
    match_block(ci->then_body, bi->then_body, with_scope(ctx, s));
    s.negated = true;
    match_block(ci->else_body, bi->else_body, with_scope(ctx, s));
  } else if (const auto *ca = c.as<Assign>()) {
    const auto *ba = b.as<Assign>();
    match_access(ca->buf, ca->idx, ba->buf, ba->idx, ctx, c, b);
    written_.insert(ca->buf.id);
    block_written_.insert(ba->buf.id);
    match_expr(ca->rhs, ba->rhs, ctx, c, b);
  } else if (const auto *cr = c.as<Reduce>()) {
    const auto *br = b.as<Reduce>();
    match_access(cr->buf, cr->idx, br->buf, br->idx, ctx, c, b);
    written_.insert(cr->buf.id);
    block_written_.insert(br->buf.id);
    match_expr(cr->rhs, br->rhs, ctx, c, b);
  } else if (!c.as<Pass>()) {
    mismatch(c, b, "replace does not match " + a_kind(c->kind) + " in a body");
  }
}

void Unifier::require_same_computation(const Arg &param, const Expr &b, const Stmt &at_b) {
  // The call computes the argument in the parameter's type; the block
  // computed `b` in its statement's type (computation_type.h).
  ProcSymbols names(*p_);
  ValueType held = machine_type(param.type.scalar);
  if (first_other_computation(names, b, held, {at_b}))
    mismatch(Stmt(), at_b,
             "data argument '" + param.name.name + "' (" + value_type_name(held) + ") would be '" +
                 print_expr(b) + "', which the block computes in " +
                 value_type_name(computed_in(names, at_b)));
}

void Unifier::match_expr(const Expr &c, const Expr &b, const analysis::Context &ctx,
                         const Stmt &at_c, const Stmt &at_b) {
  auto differ = [&]() {
    mismatch(at_c, at_b, "'" + print_expr(b) + "' does not match '" + print_expr(c) + "'");
  };
  // Control values (indices, bounds, conditions) become equations, but
  // logic and comparisons are matched by shape so each side is an equation.
  if (c->type == ValueType::Bool) {
    const auto *cb = c.as<BinOp>();
    const auto *bb = b.as<BinOp>();
    bool control = cb && bb && !is_data(cb->a->type) && !is_data(cb->b->type);
    if (control && is_comparison(cb->op) && is_comparison(bb->op)) {
      // `a < b` is `a - b < 0` (`a > b` is `b - a < 0`): one equation of the
      // differences, so `m < m_end` matches `128 * t + r < M`.
      auto diff = [](const BinOp *x, BinOpKind &op) {
        bool flip = x->op == BinOpKind::Gt || x->op == BinOpKind::Ge;
        op = x->op == BinOpKind::Gt ? BinOpKind::Lt : x->op == BinOpKind::Ge ? BinOpKind::Le : x->op;
        return flip ? BinOp::make(BinOpKind::Sub, x->b, x->a) : BinOp::make(BinOpKind::Sub, x->a, x->b);
      };
      BinOpKind oc, ob;
      Expr dc = diff(cb, oc), db = diff(bb, ob);
      if (oc != ob)
        mismatch(at_c, at_b, "'" + print_expr(b) + "' does not compare as '" + print_expr(c) + "'");
      eqs_.push_back({dc, db, ctx, at_c, at_b});
      return;
    }
    if (cb && bb && cb->op == bb->op) {
      match_expr(cb->a, bb->a, ctx, at_c, at_b);
      match_expr(cb->b, bb->b, ctx, at_c, at_b);
      return;
    }
    const auto *cu = c.as<UnOp>();
    const auto *bu = b.as<UnOp>();
    if (cu && bu && cu->op == bu->op) {
      match_expr(cu->a, bu->a, ctx, at_c, at_b);
      return;
    }
    eqs_.push_back({c, b, ctx, at_c, at_b});
    return;
  }
  if (is_control(c->type) && !is_data(b->type) && c->type != ValueType::Int) {
    eqs_.push_back({c, b, ctx, at_c, at_b});
    return;
  }
  if (const auto *v = c.as<Var>()) {
    const Arg *a = param(v->name.id);
    if (!a || a->type.kind != Type::Kind::Data)
      differ();
    require_same_computation(*a, b, at_b);
    auto it = values_.find(v->name.id);
    if (it == values_.end())
      values_[v->name.id] = b;
    else if (print_expr(it->second) != print_expr(b))
      mismatch(at_c, at_b, "argument '" + v->name.name + "' would be both '" +
                               print_expr(it->second) + "' and '" + print_expr(b) + "'");
    return;
  }
  if (const auto *r = c.as<Read>()) {
    const auto *br = b.as<Read>();
    if (!br)
      differ();
    match_access(r->buf, r->idx, br->buf, br->idx, ctx, at_c, at_b);
    return;
  }
  auto number = [](const Expr &e, double &out) {
    if (const auto *i = e.as<IntImm>())
      out = static_cast<double>(i->value);
    else if (const auto *f = e.as<FloatImm>())
      out = f->value;
    else
      return false;
    return true;
  };
  double x, y;
  if (number(c, x)) {
    if (!number(b, y) || x != y)
      differ();
    return;
  }
  if (const auto *cb = c.as<BinOp>()) {
    const auto *bb = b.as<BinOp>();
    if (!bb || bb->op != cb->op)
      differ();
    match_expr(cb->a, bb->a, ctx, at_c, at_b);
    match_expr(cb->b, bb->b, ctx, at_c, at_b);
    return;
  }
  if (const auto *cu = c.as<UnOp>()) {
    const auto *bu = b.as<UnOp>();
    if (!bu || bu->op != cu->op)
      differ();
    match_expr(cu->a, bu->a, ctx, at_c, at_b);
    return;
  }
  if (const auto *cc = c.as<Call>()) {
    const auto *bc = b.as<Call>();
    if (!bc || bc->func != cc->func || bc->args.size() != cc->args.size() || !cc->kwargs.empty())
      differ();
    for (size_t i = 0; i < cc->args.size(); ++i)
      match_expr(cc->args[i], bc->args[i], ctx, at_c, at_b);
    return;
  }
  differ();
}

void Unifier::match_access(const Sym &cbuf, const std::vector<Expr> &cidx, const Sym &bbuf,
                           const std::vector<Expr> &bidx, const analysis::Context &ctx,
                           const Stmt &at_c, const Stmt &at_b) {
  const Arg *a = param(cbuf.id);
  if (!a || a->type.kind != Type::Kind::Data || a->type.shape.empty())
    mismatch(at_c, at_b, "'" + cbuf.name + "' is not a tensor parameter of '" + callee_.name +
                             "'; replace matches accesses of parameters only");
  if (bidx.size() < cidx.size())
    mismatch(at_c, at_b, "'" + bbuf.name + "' has fewer dimensions than '" + cbuf.name + "'");
  accesses_.push_back({cbuf.id, bbuf, cidx, bidx, ctx, at_c, at_b});
}

} // namespace exgc::schedule
