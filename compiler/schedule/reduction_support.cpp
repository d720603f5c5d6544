// reduction_support.cpp - finding and checking a sum for rfactor, butterfly_sum
#include "compiler/schedule/reduction_support.h"

#include <set>

#include "compiler/analysis/rounding_log.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/symbols.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/loop_support.h"

namespace exgc::schedule {
namespace {

/// Whether an expression uses one of the iterators `iters`.
struct Uses : IRVisitor {
  std::set<uint32_t> iters;
  bool iter = false;
  void visit_node(const Var *op) override { iter = iter || iters.count(op->name.id); }
};

std::string idx_text(const std::vector<Expr> &idx) {
  std::string s;
  for (const Expr &e : idx)
    s += print_expr(e) + ",";
  return s;
}

} // namespace

void record_reassociation(const SumNest &sum, const std::string &how) {
  if (is_float(sum.type))
    analysis::RoundingLog::record({"adds the " + std::string(value_type_name(sum.type)) +
                                       " sum into '" + sum.acc->buf.name + "' " + how,
                                   sum.type});
}

Expr minus_expr(const Expr &a, const Expr &b) {
  const auto *z = b.as<IntImm>();
  return z && z->value == 0 ? a : BinOp::make(BinOpKind::Sub, a, b);
}

SumNest find_sum(Interpreter &in, const Proc &p, const Value &block, const char *prim,
                 SrcLoc loc) {
  Cursor c = cursor_arg(in, p, block, loc);
  if (c.kind != Cursor::Kind::Block || c.count != 2)
    in.fail(loc, DiagKind::ReductionShape, prim, "two statements, 'acc = e0' and a loop nest");
  Located l = resolve(in, p, c, loc);
  SumNest s;
  s.init = (*l.block)[l.index];
  s.acc = s.init.as<Assign>();
  const Stmt &nest = (*l.block)[l.index + 1];
  if (!s.acc || !nest.as<For>())
    in.fail(loc, DiagKind::ReductionShape, prim, "'acc = e0' followed by a loop");
  const Type *t = ProcSymbols(*p).type_of(s.acc->buf);
  if (!t || t->kind != Type::Kind::Data)
    in.fail(loc, DiagKind::ReductionShape, prim, "'acc' to be a data buffer");
  s.type = t->scalar;
  // The perfect nest: loops with one statement each, down to the body.
  Stmt cur = nest;
  Uses uses;
  while (const auto *f = cur.as<For>()) {
    s.loops.push_back(cur);
    uses.iters.insert(f->iter.id);
    if (f->body.size() != 1 || !f->body[0].as<For>()) {
      s.body = f->body;
      break;
    }
    cur = f->body[0];
  }
  for (const Stmt &loop : s.loops) {
    const auto *f = loop.as<For>();
    uses.visit(f->lo);
    uses.visit(f->hi);
  }
  if (uses.iter)
    in.fail(loc, DiagKind::ReductionShape, prim, "loop bounds that use no iterator of the nest");
  for (const Expr &e : s.acc->idx)
    uses.visit(e);
  if (uses.iter)
    in.fail(loc, DiagKind::ReductionShape, prim,
            "'" + s.acc->buf.name + "' at one element for the whole nest");
  const std::string where = idx_text(s.acc->idx);
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  for (const Stmt &b : s.body) {
    const auto *r = b.as<Reduce>();
    if (!r || r->buf != s.acc->buf || idx_text(r->idx) != where) {
      in.diag().report(loc, DiagKind::ReductionShape, prim,
                       "a nest whose innermost body only reduces into '" +
                           print_expr(Read::make(s.acc->buf, s.acc->idx, s.type)) + "'")
          .note(b->loc, "this statement is not such a reduction");
      throw ScriptAbort{};
    }
    // Through windows too (`w = y[0:1]` then `y[0] += w[0] * x[k]`).
    SrcLoc at;
    if (coll.touches(r->rhs, s.acc->buf, at)) {
      in.diag().report(loc, DiagKind::ReductionReadsAcc, s.acc->buf.name)
          .note(r->loc, "read here");
      throw ScriptAbort{};
    }
  }
  return s;
}

} // namespace exgc::schedule
