// reorder_loops.cpp - swap two perfectly nested loops ---------------------------//
// reorder_loops(p, loop): `loop` is "outer inner" (two iterator names) or a
// cursor/name of the outer loop. `for x: for y: body` becomes `for y: for x:
// body`; each loop keeps its mode and its id (cursors follow the loops).
// Checked: the outer loop's body is exactly the inner loop; the inner loop's
// bounds do not use x; and no dependence is carried with direction (<, >):
// there are no two iterations (x, y), (x', y') with x < x' and y' < y (the
// pairs whose order the swap flips) in which the body touches the same
// element, one of them writing (reductions commute with each other), decided
// exactly with Z3 under the asserts and enclosing loops and ifs.
// Fails when: the loops are not perfectly nested (or the inner one is not the
// named one); the inner bounds depend on x; a dependence would be reversed
// (notes at both accesses, with a counterexample); the solver gives up.
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

void check_loop_swap(Interpreter &in, const Proc &p, const Stmt &outer_s, SrcLoc loc) {
  const For *outer = outer_s.as<For>();
  const For *inner = outer->body[0].as<For>();
  if (analysis::mentions(inner->lo, outer->iter) || analysis::mentions(inner->hi, outer->iter))
    in.fail(loc, DiagKind::InnerBoundsDependOnOuter, inner->iter.name, outer->iter.name);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::Effects body = coll.of(inner->body);
  analysis::Conflict c;
  auto rel = [](const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) {
    return a[0] < b[0] && b[1] < a[1];
  };
  analysis::Answer ans = dep.conflict(context_at(p, outer_s),
                                      {{outer->iter, outer->lo, outer->hi}, {inner->iter, inner->lo, inner->hi}},
                                      body, body, rel, &c);
  if (ans == analysis::Answer::Unknown)
    fail_unknown(in, loc, "that loops '" + outer->iter.name + "' and '" + inner->iter.name + "' can be swapped", solver);
  if (ans == analysis::Answer::Conflict)
    fail_conflict(in, loc, c, DiagKind::DependenceBlocksReorder, outer->iter.name, inner->iter.name, c.first.buf.name);
}

Value reorder_loops(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  const Value &arg = call.arg("loop").value;
  std::string inner_name;
  Stmt s;
  // "outer inner": exactly two iterator names (anything else is a pattern).
  std::string outer_name;
  if (arg.kind == Value::Kind::Str && two_names(arg.str, outer_name, inner_name)) {
    s = stmt_arg(in, p, Value::of_str(outer_name), call.loc);
  } else {
    s = stmt_arg(in, p, arg, call.loc);
  }
  const For *outer = s.as<For>();
  if (!outer)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'reorder_loops'", "a loop");
  const For *inner = outer->body.size() == 1 ? outer->body[0].as<For>() : nullptr;
  if (!inner || (!inner_name.empty() && inner->iter.name != inner_name))
    in.fail(call.loc, DiagKind::LoopsNotPerfectlyNested, outer->iter.name,
            inner_name.empty() ? (inner ? inner->iter.name : std::string("a loop")) : inner_name);
  check_loop_swap(in, p, s, call.loc);
  Stmt new_inner = outer->edited([&](For &n) { n.body = inner->body; });
  Stmt new_outer = inner->edited([&](For &n) { n.body = {new_inner}; });
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &) -> Block { return {new_outer}; }));
}

} // namespace exgc::schedule
