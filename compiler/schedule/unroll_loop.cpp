// unroll_loop.cpp - replace a loop by copies of its body ---------------------------//
// unroll_loop(p, loop): `for i in seq(lo, hi): body` with constant bounds
// becomes hi - lo copies of body with i replaced by lo, lo + 1, ... The first
// copy keeps the statements' ids; the others get fresh ids, and what they
// declare gets new names (`t_1`, `t_2`: the copies share one block, where a
// name may be declared once). A loop that runs zero times becomes `pass`.
// Checked: the bounds are integer constants (after constant folding), and
// there are at most 4096 copies. Nothing else: the copies run in the order
// the iterations did.
// Fails when: `loop` is not a loop; a bound is not a constant (run-time
// bounds); the loop has more than 4096 iterations.
#include "compiler/ir/fold.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value unroll_loop(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const For *f = loop_arg(in, p, call.arg("loop").value, "unroll_loop", call.loc, s);
  Expr lo = fold_constants(f->lo), hi = fold_constants(f->hi);
  const auto *l = lo.as<IntImm>(), *h = hi.as<IntImm>();
  if (!l || !h)
    in.fail(call.loc, DiagKind::LoopBoundsNotConstant, f->iter.name, print_expr(f->lo), print_expr(f->hi));
  int64_t n;
  if (__builtin_sub_overflow(h->value, l->value, &n) || n > 4096)
    in.fail(call.loc, DiagKind::UnrollTooLarge, f->iter.name,
            __builtin_sub_overflow(h->value, l->value, &n) ? "more than 2^63" : std::to_string(n));
  // Nested unrolls multiply: refuse before building a proc over the budget.
  int64_t body = count_stmts(f->body);
  in.require_proc_size(call.loc, p->name, count_stmts(p->body) - 1 - body + std::max<int64_t>(n, 0) * body);
  Block out;
  std::set<std::string> taken = declared_names(*p);
  for (int64_t k = 0; k < n; ++k) {
    Block copy = copy_block(f->body, {{f->iter.id, IntImm::make(l->value + k, f->loc)}}, k > 0,
                            k > 0 ? &taken : nullptr);
    out.insert(out.end(), copy.begin(), copy.end());
  }
  if (out.empty())
    out.push_back(Pass::make(f->loc));
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) { return out; }));
}

} // namespace exgc::schedule
