// butterfly_sum.cpp - a sum over 2 x 2 x ... elements as a butterfly ---------//
// butterfly_sum(p, block, name): `block` names `acc = e0; for ...: acc += b[...]`
// over a nest of loops `for k in seq(0, 2)` whose body reads b at exactly the
// nest's iterators (reduction_support.h). The sum becomes one step per
// dimension d of b, alternating between b and a new buffer `name` of the
// same shape, with the nest's loop names (the loop over d innermost):
//   name: T[2, ..., 2] @ (b's memory)
//   for <other dims>: for kd in seq(0, 2): dst[.., kd, ..] = src[.., 0, ..] + src[.., 1, ..]
//   acc = last[0, ..., 0]                 (acc = e0 + last[0, ..., 0] unless e0 is 0)
// After step d every element holds the sum over dims 0..d, so each element
// of the last buffer is the whole sum (a shuffle tree's shape: each step is
// one `shfl_xor` once the dims are lanes).
// Checked: find_sum's checks (a rectangular perfect nest reducing into one
// acc, summands not reading it); every loop runs from 0 to 2 and the body is
// `acc += b[k1, ..., kn]`, each iterator once; b is allocated in the block of
// the sum (it is overwritten), before it, and nothing after the sum in that
// block uses b; e0 does not read b; b has acc's type (the steps store
// partial sums in it). The result is the same sum in another order
// (real-number `+`).
// Fails when: the block is not such a sum (ReductionShape,
// ReductionReadsAcc); b is not allocated in the sum's block
// (ButterflyNotLocal) or is used after it (ButterflyLive) or has another
// type than acc (ButterflyTypeDiffers); `name` is in use (NameInUse).
#include "compiler/schedule/computation_type.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/reduction_support.h"

namespace exgc::schedule {
namespace {

bool is_int(const Expr &e, int64_t v) {
  const auto *i = e.as<IntImm>();
  return i && i->value == v;
}

bool is_zero_literal(const Expr &e) {
  if (const auto *f = e.as<FloatImm>())
    return f->value == 0.0;
  return is_int(e, 0);
}

} // namespace

Value butterfly_sum(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  SumNest sum = find_sum(in, p, call.arg("block").value, "butterfly_sum", call.loc);
  const std::string &name = call.arg("name").value.str;
  const char *prim = "butterfly_sum";
  for (const Stmt &l : sum.loops) {
    const For *f = l.as<For>();
    if (!is_int(f->lo, 0) || !is_int(f->hi, 2))
      in.fail(call.loc, DiagKind::ReductionShape, prim, "loops 'for k in seq(0, 2)' only");
  }
  // The body: acc += b[k...], every iterator once.
  const auto *r = sum.body.size() == 1 ? sum.body[0].as<Reduce>() : nullptr;
  const auto *b = r ? r->rhs.as<Read>() : nullptr;
  std::vector<size_t> loop_of_dim; // b's dim d is indexed by loop loop_of_dim[d]
  if (b && b->idx.size() == sum.loops.size())
    for (const Expr &e : b->idx) {
      const auto *v = e.as<Var>();
      for (size_t k = 0; v && k < sum.loops.size(); ++k)
        if (sum.loops[k].as<For>()->iter.id == v->name.id)
          loop_of_dim.push_back(k);
    }
  std::vector<bool> seen(sum.loops.size(), false);
  bool each_once = b && loop_of_dim.size() == sum.loops.size();
  for (size_t k : loop_of_dim) {
    each_once = each_once && !seen[k];
    seen[k] = true;
  }
  if (!each_once)
    in.fail(call.loc, DiagKind::ReductionShape, prim,
            "a body 'acc += b[...]' indexing b by the nest's iterators, each once");

  // b is overwritten: it must be the sum block's own and dead after it.
  Located l;
  locate(*p, sum.init->id, l);
  size_t alloc_at = l.block->size();
  for (size_t i = 0; i < l.index; ++i)
    if (const auto *a = (*l.block)[i].as<Alloc>())
      if (a->name == b->buf)
        alloc_at = i;
  if (alloc_at == l.block->size())
    in.fail(call.loc, DiagKind::ButterflyNotLocal, b->buf.name);
  // The steps store partial sums back into b: they keep the sum's value only
  // when b has the type the sum is computed in (acc's; computation_type.h).
  ValueType b_type = machine_type((*l.block)[alloc_at].as<Alloc>()->type.scalar);
  if (b_type != machine_type(sum.type))
    in.fail(call.loc, DiagKind::ButterflyTypeDiffers, b->buf.name, value_type_name(b_type),
            value_type_name(machine_type(sum.type)));
  // The init (acc is not b: the summand would read acc) and what follows.
  // Uses through windows and calls count (`w = part[0:2, 0:2]` read after).
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  Block rest(l.block->begin() + static_cast<long>(l.index + 2), l.block->end());
  SrcLoc at;
  if (coll.touches(Block{sum.init}, b->buf, at) || coll.touches(rest, b->buf, at)) {
    in.diag().report(call.loc, DiagKind::ButterflyLive, b->buf.name)
        .note(at, "'" + b->buf.name + "' is used here");
    throw ScriptAbort{};
  }
  if (declared_names(*p).count(name))
    in.fail(call.loc, DiagKind::NameInUse, name, p->name);

  const SrcLoc loc = call.loc;
  const size_t n = loop_of_dim.size();
  Sym scratch = Sym::fresh(name);
  // The scratch lives where b does: each step reads one and writes the other.
  const Expr b_mem = (*l.block)[alloc_at].as<Alloc>()->type.mem;
  Block out{Alloc::make(scratch,
                        Type::data(sum.type, std::vector<Expr>(n, IntImm::make(2)), b_mem, false,
                                   loc),
                        loc)};
  Sym src = b->buf, dst = scratch;
  for (size_t d = 0; d < n; ++d) {
    // Fresh iterators per step, named after the nest's.
    std::vector<Sym> its;
    std::vector<Expr> idx;
    for (size_t e = 0; e < n; ++e) {
      its.push_back(Sym::fresh(sum.loops[loop_of_dim[e]].as<For>()->iter.name));
      idx.push_back(iter_var(its.back()));
    }
    std::vector<Expr> lo = idx, hi = idx;
    lo[d] = IntImm::make(0);
    hi[d] = IntImm::make(1);
    Stmt step = Assign::make(dst, idx,
                             BinOp::make(BinOpKind::Add, Read::make(src, lo, sum.type, loc),
                                         Read::make(src, hi, sum.type, loc), loc),
                             loc);
    step = For::make(its[d], IntImm::make(0), IntImm::make(2), LoopMode{}, {step}, loc);
    for (size_t e = n; e-- > 0;)
      if (e != d)
        step = For::make(its[e], IntImm::make(0), IntImm::make(2), LoopMode{}, {step}, loc);
    out.push_back(step);
    std::swap(src, dst);
  }
  // One literal per index: a rewrite of one of them (rewrite_expr, the GEMV's
  // `tmp[k4, k2, k1]`) must not change the others through a shared node.
  std::vector<Expr> origin;
  for (size_t d = 0; d < n; ++d)
    origin.push_back(IntImm::make(0, loc));
  Expr total = Read::make(src, origin, sum.type, loc);
  if (!is_zero_literal(sum.acc->rhs))
    total = BinOp::make(BinOpKind::Add, sum.acc->rhs, total, loc);
  out.push_back(Assign::make(sum.acc->buf, sum.acc->idx, total, sum.init->loc));
  record_reassociation(sum, "as a butterfly");
  Proc q = replace_stmt(p, sum.loops.front()->id, [](const Stmt &) -> Block { return {}; });
  return Value::of_proc(replace_stmt(q, sum.init->id, [&](const Stmt &) { return out; }));
}

} // namespace exgc::schedule
