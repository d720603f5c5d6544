// replace.cpp - replace a block by a call whose body it is ---------------------//
// replace(p, block, f, args=[], **bindings): the statements of `block` (a
// statement, a block cursor or a pattern) become one call of the instr or
// proc `f`, when they are exactly `f`'s body for some arguments. `args`, or
// keywords named for the parameters (`lane_mask=4`, design G3), fix
// parameters the body does not determine (`["cta_stride=1"]`, as the
// reference's `.partial`); a keyword's value is an int or an index expression
// string. The other arguments are solved by
// unification: `f`'s body and the block are walked together; statement kinds,
// loop nests, ifs and data expressions must match node for node (no algebra:
// `a * b` does not match `b * a`); each pair of index expressions becomes an
// equation. Loop iterators of `f` are bound to the block's; a size or index
// parameter is solved from an equation `param (+ k) == e`; a tensor parameter
// becomes a window `X[lo0:lo0 + n0, p1, ...]` of the block's buffer, its slice
// dimensions being those whose indices use the block's loops, `lo` solved
// from the first access and the points read off it. Template parameters must
// come out as integer constants. Loop modes are not compared (sequentially
// they mean nothing).
// Checked: every equation holds for every value of the block's iterators in
// range, under the asserts, the scopes around the block and the conditions
// inside it (IndexSolver; a counterexample otherwise); data arguments do not
// depend on the block's loops nor read what the block writes; two arguments
// of which one is written are not the same buffer; then the candidate proc is
// typechecked whole and the new call must pass every check the typecheck
// makes at a call: memories, shapes, windows in bounds and each precondition
// (`assert`) of `f`, stride/offset asserts included (the reference ignores
// them, #758). A missing trailing barrier is left to set_trailing_barrier_expr.
// Fails when: the block and the body differ in shape or in a data expression
// (ReplaceNoMatch, naming both statements); an argument is not determined
// (ReplaceUnsolved); an equation may fail (ReplaceNotEquivalent, with a
// counterexample); the call fails a check (ReplaceCallRejected, with the
// typecheck's message and notes); `f` has no name in the main module's scope
// (CalleeNotVisible: a schedule's intermediate proc).
#include "compiler/analysis/simplify.h"
#include "compiler/frontend/fragment.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/unify.h"

namespace exgc::schedule {

namespace {

/// Binds parameter `name` of the instr to `value` (an int, or a string with
/// an index expression at the block); false when it is neither or the
/// unifier has no such parameter to bind.
bool bind_one(Unifier &u, const std::map<std::string, Expr> &scope, std::string name,
              const Value &value) {
  name.erase(0, name.find_first_not_of(' '));
  name.erase(name.find_last_not_of(' ') + 1);
  Expr e;
  if (value.kind == Value::Kind::Int) {
    e = IntImm::make(value.int_value);
  } else if (value.kind == Value::Kind::Str) {
    FragExprP f;
    FragmentError err;
    std::string bad;
    if (parse_expr_fragment(value.str, f, err))
      e = build_index_expr(*f, scope, bad);
  }
  return e && u.bind(name, e);
}

/// `args=["cta_stride=1", "n_end=n - 4"]`: parameters the body does not
/// determine, as integers or index expressions at the block (`args` is a list).
void bind_args(Interpreter &in, const ProcNode &p, Unifier &u, const PrimArg &args,
               const analysis::Context &ctx) {
  std::map<std::string, Expr> scope = index_names(p, ctx);
  for (const Value &v : *args.value.list) {
    size_t eq = v.kind == Value::Kind::Str ? v.str.find('=') : std::string::npos;
    if (eq == std::string::npos ||
        !bind_one(u, scope, v.str.substr(0, eq), Value::of_str(v.str.substr(eq + 1))))
      fail_arg(in, args,
               "'name=value' strings naming size or index parameters and values visible "
               "at the block",
               v.kind == Value::Kind::Str ? "'" + v.str + "'" : v.a_type());
  }
}

/// `lane_mask=4` (design G3): keyword arguments naming the instr's
/// parameters, each an int or an index expression string.
void bind_keywords(Interpreter &in, const ProcNode &p, Unifier &u, const PrimArg &kws,
                   const analysis::Context &ctx) {
  std::map<std::string, Expr> scope = index_names(p, ctx);
  for (const Value &pair : *kws.value.list) {
    const std::vector<Value> &kv = *pair.list;
    if (!bind_one(u, scope, kv[0].str, kv[1]))
      fail_arg(in, kws.with(kv[1]),
               "for '" + kv[0].str + "', a parameter of the instr, an int or an index "
               "expression visible at the block",
               kv[1].kind == Value::Kind::Str ? "'" + kv[1].str + "'" : kv[1].a_type());
  }
}

} // namespace

Value replace_block(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  const Value &block = call.arg("block").value;
  Cursor c = cursor_arg(in, p, block, call.loc);
  if (c.kind == Cursor::Kind::GapBefore || c.kind == Cursor::Kind::GapAfter)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'replace'", "statements");
  Located l = resolve(in, p, c, call.loc);
  Block stmts(l.block->begin() + l.index, l.block->begin() + l.index + c.count);
  const Proc &callee = call.arg("instr").value.proc;
  std::string name = callee_name(in, callee);
  if (name.empty())
    in.fail(call.loc, DiagKind::CalleeNotVisible, callee->name);

  Unifier u(in, p, *callee, call.loc);
  analysis::Context ctx = context_at(p, stmts[0]);
  if (call.arg("args").value.kind == Value::Kind::List)
    bind_args(in, *p, u, call.arg("args"), ctx);
  if (call.arg("**bindings").value.kind == Value::Kind::List)
    bind_keywords(in, *p, u, call.arg("**bindings"), ctx);
  u.match_block(callee->body, stmts, ctx);
  u.solve();
  u.verify();
  // The call keeps the id of the block's first statement: a cursor to the
  // replaced loop now names the call (set_trailing_barrier_expr aims there).
  Stmt made = u.make_call(name).as<CallStmt>()->edited([&](CallStmt &c) { c.id = stmts[0]->id; });

  Proc out = replace_stmt(p, stmts[0]->id, [&](const Stmt &) -> Block { return {made}; });
  for (size_t i = 1; i < stmts.size(); ++i)
    out = replace_stmt(out, stmts[i]->id, [](const Stmt &) -> Block { return {}; });
  if (auto err = first_error_at(in, *out, call.loc, {DiagKind::MissingTrailingBarrier}))
    fail_with_cause(in, call.loc, *err, DiagKind::ReplaceCallRejected, callee->name);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
