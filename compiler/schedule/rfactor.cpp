// rfactor.cpp - one partial sum per iteration of some loops of a sum --------//
// rfactor(p, block, iters, name, memory=None): `block` names `acc = e0; for ...: acc += e`
// (reduction_support.h). The loops named in `iters` move outermost, in that
// order, and each of their iterations sums into its own element of a new
// buffer `name`; the partial sums are then added to acc:
//   name: T[E1, ..., En] @ memory           (Ek: extent of the k-th loop)
//   for i1: ... for in: name[i1 - lo1, ...] = 0.0; <other loops>: name[...] += e
//   acc = e0
//   for i1': ... for in': acc += name[i1' - lo1, ...]
// Checked (find_sum): the nest is perfect and rectangular, its innermost body
// only reduces into acc at one element, and the summands do not read acc, so
// the result is the same sum taken in another order (real-number `+`, as
// every reduction rewrite here). `name` and the new iterators (`i'` is named
// `<i>_s`) must be unused. Without `memory` the partials live in host
// memory (set_memory moves them); `memory` is checked as set_memory checks it.
// Fails when: the block is not such a sum (ReductionShape,
// ReductionReadsAcc); `iters` names no loop of the nest (RfactorIter) or
// one twice (RfactorIterTwice); a chosen loop may run zero times
// (RfactorLoopMayBeEmpty, counterexample); a name is in use (NameInUse);
// `memory` is not a memory (UnknownMemory, MemoryKindMismatch, MemoryParams).
#include <map>

#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/memory_arg.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/reduction_support.h"

namespace exgc::schedule {

Value rfactor(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  SumNest sum = find_sum(in, p, call.arg("block").value, "rfactor", call.loc);
  const std::string &name = call.arg("name").value.str;
  Expr mem = new_buffer_memory(in, call.arg("memory"), name);
  std::string loop_names;
  for (const Stmt &l : sum.loops)
    loop_names += (loop_names.empty() ? "" : ", ") + l.as<For>()->iter.name;
  // The chosen loops, in the order given.
  std::vector<const For *> chosen;
  for (const Value &v : *call.arg("iters").value.list) {
    const For *hit = nullptr;
    for (const Stmt &l : sum.loops)
      if (v.kind == Value::Kind::Str && l.as<For>()->iter.name == v.str)
        hit = l.as<For>();
    if (!hit)
      in.fail(call.loc, DiagKind::RfactorIter, v.to_display(), loop_names);
    for (const For *c : chosen)
      if (c == hit)
        in.fail(call.loc, DiagKind::RfactorIterTwice, v.to_display());
    chosen.push_back(hit);
  }
  if (chosen.empty())
    in.fail(call.loc, DiagKind::ReductionShape, "rfactor", "at least one loop in 'iters'");
  std::set<std::string> taken = declared_names(*p);
  std::vector<std::string> fresh_names{name};
  for (const For *f : chosen)
    fresh_names.push_back(f->iter.name + "_s");
  for (const std::string &n : fresh_names)
    if (taken.count(n))
      in.fail(call.loc, DiagKind::NameInUse, n, p->name);

  // The partial sums get one element per iteration: a loop that may run
  // zero times would give `name` an extent below 1, which no allocation has.
  {
    analysis::IndexSolver solver;
    analysis::DependenceAnalyzer dep(solver);
    for (const For *f : chosen) {
      Stmt loop;
      for (const Stmt &l : sum.loops)
        if (l.as<For>() == f)
          loop = l;
      require(in, dep, context_at(p, loop), BinOp::make(BinOpKind::Gt, f->hi, f->lo), call.loc,
              "that loop '" + f->iter.name + "' runs at least once",
              DiagKind::RfactorLoopMayBeEmpty, f->iter.name,
              print_expr(minus_expr(f->hi, f->lo)), name);
    }
  }
  const SrcLoc loc = call.loc;
  Sym part = Sym::fresh(name);
  std::vector<Expr> extents, pidx, sum_idx;
  std::vector<Sym> sum_iters;
  for (const For *f : chosen) {
    extents.push_back(minus_expr(f->hi, f->lo));
    pidx.push_back(minus_expr(iter_var(f->iter), f->lo));
    sum_iters.push_back(Sym::fresh(f->iter.name + "_s"));
    sum_idx.push_back(minus_expr(iter_var(sum_iters.back()), f->lo));
  }
  // The summands go to the partial sums; the other loops keep their order.
  Block inner;
  for (const Stmt &b : sum.body)
    inner.push_back(Reduce::make(part, pidx, b.as<Reduce>()->rhs, b->loc));
  for (size_t k = sum.loops.size(); k-- > 0;) {
    const For *f = sum.loops[k].as<For>();
    bool is_chosen = false;
    for (const For *c : chosen)
      is_chosen = is_chosen || c == f;
    if (is_chosen)
      continue;
    inner = {f->edited([&](For &n) { n.body = inner; })}; // keeps its id: cursors follow it
  }
  inner.insert(inner.begin(), Assign::make(part, pidx, FloatImm::make(0.0), loc));
  for (size_t k = chosen.size(); k-- > 0;) {
    inner = {chosen[k]->edited([&](For &n) { n.body = inner; })};
  }
  Stmt total = Reduce::make(sum.acc->buf, sum.acc->idx, Read::make(part, sum_idx, sum.type, loc), loc);
  for (size_t k = chosen.size(); k-- > 0;)
    total = For::make(sum_iters[k], chosen[k]->lo, chosen[k]->hi, LoopMode{}, {total}, loc);
  Block out{Alloc::make(part, Type::data(sum.type, extents, mem, false, loc), loc)};
  out.insert(out.end(), inner.begin(), inner.end());
  out.push_back(sum.init);
  out.push_back(total);
  record_reassociation(sum, "through the partial sums '" + name + "'");
  Proc q = replace_stmt(p, sum.loops.front()->id, [](const Stmt &) -> Block { return {}; });
  return Value::of_proc(replace_stmt(q, sum.init->id, [&](const Stmt &) { return out; }));
}

} // namespace exgc::schedule
