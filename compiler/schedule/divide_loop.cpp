// divide_loop.cpp - split a loop into an outer and an inner loop ----------------//
// divide_loop(p, loop, factor, [outer, inner], perfect=False, tail="guard"):
// `for i in seq(lo, hi)` becomes `for outer in seq(0, T): for inner in
// seq(0, factor)` with i = lo + factor * outer + inner. With N = hi - lo:
//  - perfect=True: T = N / factor, no tail;
//  - tail="guard": T = (N + factor - 1) / factor, body under `if factor *
//    outer + inner < N`;
//  - tail="cut": T = N / factor, then a loop `for inner in seq(0, N %
//    factor)` over the rest;
//  - tail="cut_and_guard": T = N / factor, then `if N % factor > 0: for inner
//    in seq(0, factor): if inner < N % factor:` over the rest.
// The loop's mode is copied to the new loops; a cursor to the loop follows
// the outer loop, cursors into the body follow the main copy.
// Checked: with perfect=True, that N % factor == 0 for every size allowed by
// the asserts and the enclosing loops and ifs (exactly, with Z3). Otherwise
// nothing: every tail mode runs the same iterations in the same order.
// Fails when: `loop` is not a loop; factor < 1; the names are not a list of
// two identifiers; tail is not one of the three modes; perfect=True and the
// extent may not be a multiple of factor (with a counterexample).
#include <cctype>

#include "compiler/ir/printer.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

namespace {
Expr add(Expr a, Expr b) { return folded(BinOpKind::Add, a, b); }
Expr mul(int64_t q, Expr b) { return folded(BinOpKind::Mul, IntImm::make(q), b); }
} // namespace

Value divide_loop(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const For *f = loop_arg(in, p, call.arg("loop").value, "divide_loop", call.loc, s);
  int64_t q = call.arg("factor").value.int_value;
  if (q < 1)
    in.fail(call.loc, DiagKind::DivideFactorNotPositive, q);
  bool perfect = call.arg("perfect").value.int_value != 0;
  const std::string &tail = call.arg("tail").value.str;
  if (tail != "guard" && tail != "cut" && tail != "cut_and_guard")
    fail_arg(in, call.arg("tail"),
            "\"guard\", \"cut\" or \"cut_and_guard\"", "'" + tail + "'");

  const std::pair<std::string, std::string> names = two_new_names(in, p, s, call);

  Expr n = folded(BinOpKind::Sub, f->hi, f->lo);
  Expr qe = IntImm::make(q);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  // The loop runs max(hi - lo, 0) times. The guard and perfect forms run no
  // iteration when hi - lo <= 0 (T <= 0), but a cut tail of `(hi - lo) %
  // factor` iterations (floor modulo) would run some: require hi >= lo.
  if (!perfect && tail != "guard")
    require(in, dep, context_at(p, s), folded(BinOpKind::Ge, f->hi, f->lo), call.loc,
            "that loop '" + f->iter.name + "' does not have a negative extent",
            DiagKind::LoopExtentMayBeNegative, f->iter.name, print_expr(n),
            "a tail=\"" + tail + "\" split");
  if (perfect) {
    require(in, dep, context_at(p, s), folded(BinOpKind::Eq, folded(BinOpKind::Mod, n, qe), IntImm::make(0)),
            call.loc, "that the extent of loop '" + f->iter.name + "' is a multiple of " + std::to_string(q),
            DiagKind::ExtentNotMultiple, print_expr(n), f->iter.name, q);
  }
  Sym io = Sym::fresh(names.first), ii = Sym::fresh(names.second);
  Expr inner_off = add(mul(q, iter_var(io)), iter_var(ii));
  Block body = copy_block(f->body, {{f->iter.id, add(f->lo, inner_off)}}, false);
  auto loop = [&](Sym it, Expr lo, Expr hi, Block b) {
    return For::make(it, lo, hi, f->mode, std::move(b), f->loc);
  };
  Expr zero = IntImm::make(0);
  Block out;
  if (tail == "guard" && !perfect) {
    Expr cond = folded(BinOpKind::Lt, inner_off, n);
    Block inner = {loop(ii, zero, qe, {If::make(cond, body, {}, f->loc)})};
    Stmt outer = f->edited([&](For &o) {
      o.iter = io;
      o.lo = zero;
      o.hi = folded(BinOpKind::Div, folded(BinOpKind::Add, n, IntImm::make(q - 1)), qe);
      o.body = inner;
    });
    return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {outer}; }));
  }
  out.push_back(f->edited([&](For &o) {
    o.iter = io;
    o.lo = zero;
    o.hi = folded(BinOpKind::Div, n, qe);
    o.body = {loop(ii, zero, qe, body)};
  }));
  if (!perfect) {
    Expr rest = folded(BinOpKind::Mod, n, qe);
    Sym it = Sym::fresh(names.second);
    Expr base = add(f->lo, mul(q, folded(BinOpKind::Div, n, qe)));
    Block tail_body = copy_block(f->body, {{f->iter.id, add(base, iter_var(it))}}, true);
    if (tail == "cut") {
      out.push_back(loop(it, zero, rest, tail_body));
    } else {
      Block guarded = {If::make(folded(BinOpKind::Lt, iter_var(it), rest), tail_body, {}, f->loc)};
      out.push_back(If::make(folded(BinOpKind::Gt, rest, zero), {loop(it, zero, qe, guarded)}, {}, f->loc));
    }
  }
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) { return out; }));
}

} // namespace exgc::schedule
