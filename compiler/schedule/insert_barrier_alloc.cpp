// insert_barrier_alloc.cpp - add a barrier allocation at a gap ----------------//
// insert_barrier_alloc(p, gap, decl): the allocation `decl` at `gap`, written
// as in a proc: `"raw: barrier[((K + 31) / 32) @ ring(4)] @ CudaMbarrier"`,
// `"war: barrier[n @ ring(4)] @ CudaMbarrier(pre_arrive=4)"`,
// `"cg: barrier[2] @ Sm90_WgmmaCommitGroup"`, `"sync: barrier @ CudaClusterSync"`.
// Extents are index expressions over the sizes, index arguments and the
// iterators of the loops around the gap; `@ ring(R)` takes a literal.
// Checked: nothing sequential changes (barriers hold no data and nothing uses
// a new one). What can be checked here: the gap is inside a `with
// CudaDeviceFunction` block (no barrier mechanism is allocated on the host);
// the name is not used in `p`; the extents name only what is visible at the
// gap; and the typecheck accepts the allocation where it is (a barrier
// mechanism with its parameters, positive extents and rings).
// Fails when: `gap` is not a gap cursor (CursorKindMismatch); it is outside a
// device function (SyncOutsideDevice); `decl` is not `name: barrier[...] @ M`
// (SyncExprSyntax); the name is taken (NameInUse); an extent names something
// not visible (ExprNotAtAlloc); the typecheck refuses the allocation
// (SyncInsertRejected, with its message).
#include "compiler/frontend/fragment.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"
#include "compiler/schedule/sync_support.h"

namespace exgc::schedule {
namespace {

using FK = FragExpr::Kind;

/// A mechanism annotation: a name, or a call with integer arguments.
Expr mechanism(const FragExpr &f, SrcLoc loc, bool &ok) {
  if (f.kind == FK::Name)
    return Var::make(Sym::global(f.text), ValueType::Meta, loc);
  if (f.kind != FK::Call) {
    ok = false;
    return Expr();
  }
  std::vector<Expr> args;
  std::vector<KwArg> kwargs;
  for (const FragExprP &a : f.items) {
    ok &= a->kind == FK::Int;
    args.push_back(IntImm::make(a->int_value, loc));
  }
  for (const auto &[k, v] : f.kwargs) {
    ok &= v->kind == FK::Int;
    kwargs.push_back({k, IntImm::make(v->int_value, loc), loc});
  }
  return Call::make(f.text, std::move(args), std::move(kwargs), loc);
}

} // namespace

Value insert_barrier_alloc(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt at = gap_anchor(in, p, call.arg("gap").value, "insert_barrier_alloc", call.loc);
  const std::string &text = call.arg("decl").value.str;
  const char *form = "expected 'name: barrier[...] @ Mechanism'";
  std::vector<FragStmtP> stmts;
  FragmentError err;
  if (!parse_stmt_fragment(text, stmts, err))
    in.fail(call.loc, DiagKind::SyncExprSyntax, text, err.message);
  if (stmts.size() != 1 || stmts[0]->kind != FragStmt::Kind::Decl ||
      stmts[0]->a->kind != FK::Annot)
    in.fail(call.loc, DiagKind::SyncExprSyntax, text, form);
  const std::string &name = stmts[0]->name;
  const FragExpr &head = *stmts[0]->a->items[0];
  bool ok = true;
  Expr mem = mechanism(*stmts[0]->a->items[1], call.loc, ok);
  const FragExpr *barrier = head.kind == FK::Index ? head.items[0].get() : &head;
  if (!ok || barrier->kind != FK::Name || barrier->text != "barrier")
    in.fail(call.loc, DiagKind::SyncExprSyntax, text, form);
  require_device(in, *p, at->id, "a barrier allocation", call.loc);
  if (declared_names(*p).count(name))
    in.fail(call.loc, DiagKind::NameInUse, name, p->name);

  std::map<std::string, Expr> scope = index_names(*p, context_at(p, at));
  std::vector<Expr> shape, ring;
  for (size_t i = 1; head.kind == FK::Index && i < head.items.size(); ++i) {
    const FragExpr *dim = head.items[i].get();
    Expr r;
    if (dim->kind == FK::Annot) {
      const FragExpr &ann = *dim->items[1];
      if (ann.kind != FK::Call || ann.text != "ring" || ann.items.size() != 1 ||
          ann.items[0]->kind != FK::Int)
        in.fail(call.loc, DiagKind::SyncExprSyntax, text, "a dimension's '@' takes 'ring(R)'");
      r = IntImm::make(ann.items[0]->int_value, call.loc);
      dim = dim->items[0].get();
    }
    std::string bad;
    Expr e = build_index_expr(*dim, scope, bad);
    if (!e && !names_unknown(bad))
      in.fail(call.loc, DiagKind::NotIndexExpr, text, bad);
    if (!e)
      in.fail(call.loc, DiagKind::ExprNotAtAlloc, text, bad, name);
    shape.push_back(at_loc(e, call.loc));
    ring.push_back(r);
  }
  Stmt alloc = Alloc::make(Sym::fresh(name), Type::barrier(shape, ring, mem, call.loc), call.loc);
  Proc out = insert_at_gap(in, p, call.arg("gap").value, alloc, "insert_barrier_alloc", call.loc);
  check_inserted(in, out, "barrier '" + name + "'", {call.loc}, call.loc);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
