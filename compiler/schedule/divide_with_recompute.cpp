// divide_with_recompute.cpp - split a loop into overlapping tiles -------------//
// divide_with_recompute(p, loop, outer_hi, stride, [outer, inner]):
// `for i in seq(lo, hi): body` becomes
//     for outer in seq(0, outer_hi):
//         for inner in seq(0, stride + (hi - lo) - stride * outer_hi):
//             body[i := lo + stride * outer + inner]
// Tile k runs iterations lo + stride * k up to stride + r of them, where r =
// (hi - lo) - stride * outer_hi >= 0: consecutive tiles overlap by r, and
// those iterations run again (a stencil's halo, recomputed instead of
// stored). `outer_hi` is an int or an index expression
// (`"(n + 3) / 4"`: loop_support.h's control_arg). A cursor to the loop follows the outer loop.
// Checked (exactly, with Z3, under the asserts and enclosing scopes):
//  - the loop is `seq`;
//  - the tiles cover the loop: outer_hi >= 1 and stride * outer_hi <= hi - lo
//    (then the first tile starts at lo and the last ends at hi);
//  - no element any iteration reads is one any iteration writes, and the
//    body reduces into no buffer it does not allocate.
// That suffices: every iteration writes values computed from elements no
// iteration changes, so a repeated iteration writes what it wrote before;
// and the last write of each element still comes from the highest iteration
// writing it (a tile that runs a lower iteration again also runs every
// iteration up to its end, which lies beyond the end of each earlier tile).
// The reference checks the body's idempotence alone, which accepts
// `y[i] = x[i + 1]; x[i] = 0`: with tiles overlapping by two, iteration i + 1
// zeroes x[i + 1] before the recomputed iteration i reads it.
// Fails when: `loop` is not a loop (or not seq); stride < 1; outer_hi is not a
// control value; the names are not two new identifiers; the tiles may not
// cover the loop, or a read may see a write (each with a counterexample); the
// solver gives up.
#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value divide_with_recompute(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const For *f = loop_arg(in, p, call.arg("loop").value, "divide_with_recompute", call.loc, s);
  if (f->mode.kind() != LoopKind::Seq)
    in.fail(call.loc, DiagKind::RecomputeNotSeq, f->iter.name, f->mode.name);
  const int64_t stride = call.arg("stride").value.int_value;
  if (stride < 1)
    in.fail(call.arg("stride").loc, DiagKind::DivideFactorNotPositive, stride);
  Expr outer_hi = control_arg(in, p, s, call.arg("outer_hi"));
  const std::pair<std::string, std::string> names = two_new_names(in, p, s, call);

  const Expr n = folded(BinOpKind::Sub, f->hi, f->lo);
  const Expr covered = folded(BinOpKind::Mul, IntImm::make(stride), outer_hi);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  Expr covers = BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Ge, outer_hi, IntImm::make(1)),
                            BinOp::make(BinOpKind::Le, covered, n));
  require(in, dep, context_at(p, s), covers, call.loc,
          "that the tiles cover loop '" + f->iter.name + "'", DiagKind::RecomputeTilesUncovered,
          print_expr(outer_hi), stride, print_expr(f->lo), f->iter.name, print_expr(n),
          print_expr(BinOp::make(BinOpKind::Mul, IntImm::make(stride), outer_hi)));
  check_idempotent(in, p, s, f->body, f->iter.name, call.loc, f);

  Sym io = Sym::fresh(names.first), ii = Sym::fresh(names.second);
  Expr i = folded(BinOpKind::Add,
               folded(BinOpKind::Add, f->lo, folded(BinOpKind::Mul, IntImm::make(stride), iter_var(io))),
               iter_var(ii));
  // In canonical form: `n - 4 * (n / 4) + 4` reads `n % 4 + 4`, which a
  // later rewrite_expr of "n % 4" finds (the reference's next step).
  Expr inner_hi = simplify_index(
      folded(BinOpKind::Add, folded(BinOpKind::Sub, n, covered), IntImm::make(stride)));
  Block body = copy_block(f->body, {{f->iter.id, i}}, false);
  Stmt inner = For::make(ii, IntImm::make(0), inner_hi, f->mode, std::move(body), f->loc);
  Stmt outer = f->edited([&](For &o) {
    o.iter = io;
    o.lo = IntImm::make(0);
    o.hi = outer_hi;
    o.body = {inner};
  });
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {outer}; }));
}

} // namespace exgc::schedule
