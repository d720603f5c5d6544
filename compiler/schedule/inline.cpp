// inline.cpp - replace a call by the callee's body --------------------------//
// inline(p, call): `f(n, x[i, 0:8], a)` becomes f's body with its parameters
// replaced by the arguments: size, index and data scalar parameters by the
// argument expressions; a tensor parameter passed whole by the buffer; a
// window parameter `B` passed `x[i, 0:8]` by the window composed into every
// index (`B[k]` becomes `x[i, k]`, `B[a:b]` becomes `x[i, a:b]`,
// `stride(B, 0)` becomes `stride(x, 1)`, `offset(B, 0)` becomes
// `offset(x, 1)`). The copy gets fresh statement ids and fresh bindings;
// what it declares is renamed (`t_1`) when the name is taken in `p`.
// The callee's asserts are dropped, which is sound only where they hold:
// Checked: the call passes every check the typecheck makes at a call, on `p`
// as it is now: each assert of `f` is proven at the call site (Z3, under the
// asserts of `p` and the scopes around the call; stride and offset asserts
// against the actual windows); a data argument (passed by value, read once
// before the body runs) reads no buffer the body writes, or inlining would
// read it after the write. A scalar parameter the body writes is passed by
// pointer (docs/abi.md): its writes, and the reads after them, go to the
// argument.
// Fails when: `call` is not a call (CursorKindMismatch); `f` is an instr
// (InlineInstr); an assert or another call check of `f` may fail
// (InlineCallRejected, with the typecheck's message and counterexample); a
// data argument reads what the body writes (InlineArgWritten), or would be
// computed in another type than its parameter's by a statement reading it
// (InlineArgConversion, note at the statement; a copy of data of the
// parameter's type, or a literal it holds exactly, is not); the body
// writes a scalar parameter and the call passes a value, not a scalar or an
// element the write could go to (InlineParamWritten).
#include "compiler/analysis/effects.h"
#include "compiler/analysis/simplify.h"
#include "compiler/ir/inliner.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/computation_type.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value inline_call(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const CallStmt *cs = call_stmt_arg(in, call, s);
  Proc callee = callee_of(in, p, cs->callee);
  EXGC_CHECK(callee) << "a call names a proc in scope or a result: " << cs->callee;
  if (callee->is_instr)
    in.fail(call.loc, DiagKind::InlineInstr, callee->name);
  // The asserts are dropped: they must hold here, as the typecheck proves them.
  if (auto err = first_error_at(in, *p, cs->loc))
    fail_with_cause(in, call.loc, *err, DiagKind::InlineCallRejected, callee->name);

  std::set<std::string> taken = declared_names(*p);
  Inliner m;
  m.caller = taken;
  std::vector<std::pair<const Arg *, Expr>> by_value; // data scalar arguments
  std::set<uint32_t> written = written_params(in, callee);
  for (size_t i = 0; i < callee->args.size() && i < cs->args.size(); ++i) {
    const Arg &a = callee->args[i];
    const Expr &actual = cs->args[i];
    bool buffer = a.type.kind == Type::Kind::Barrier || !a.type.shape.empty();
    if (!buffer && a.type.kind == Type::Kind::Data && written.count(a.name.id)) {
      // A scalar the callee writes is passed by pointer: the writes go
      // through to the argument, which must then be a scalar or an element.
      m.vars[a.name.id] = actual;
      if (const auto *v = actual.as<Var>(); v && is_data(v->type)) {
        m.bufs[a.name.id] = {v->name, v->type, false, {}};
      } else if (const auto *r = actual.as<Read>()) {
        std::vector<WindowIdx> at;
        for (const Expr &e : r->idx)
          at.push_back(WindowIdx::point(e));
        m.bufs[a.name.id] = {r->buf, r->type, !at.empty(), at};
      } else {
        in.fail(call.loc, DiagKind::InlineParamWritten, callee->name, a.name.name,
                print_expr(actual));
      }
    } else if (!buffer) {
      m.vars[a.name.id] = actual;
      if (a.type.kind == Type::Kind::Data)
        by_value.push_back({&a, actual});
    } else {
      m.bind_buffer(a.name, actual);
    }
  }
  // A by-value argument is computed in its parameter's type; inlined, each
  // reading statement would compute it in its own (computation_type.h).
  ProcSymbols caller_names(*p), callee_names(*callee);
  for (const auto &[a, actual] : by_value)
    if (Stmt s = first_other_computation(caller_names, actual, a->type.scalar,
                                         statements_reading(callee->body, a->name.id))) {
      const char *computed = value_type_name(computed_in(callee_names, s));
      in.diag().report(call.loc, DiagKind::InlineArgConversion, a->name.name, callee->name,
                       print_expr(actual), value_type_name(machine_type(a->type.scalar)), computed)
          .note(s->loc, std::string("'") + callee->name + "' computes in " + computed + " here");
      throw ScriptAbort{};
    }
  Block body = copy_block(m.mutate(callee->body), {}, true, &taken);
  if (body.empty())
    body.push_back(Pass::make(call.loc));
  Proc out = replace_stmt(p, s->id, [&](const Stmt &) -> Block { return body; });

  // A by-value argument was read once, before the body ran.
  analysis::EffectCollector effects(*out, callee_lookup(in, out));
  analysis::Effects writes = effects.of(body);
  for (const auto &[a, actual] : by_value)
    for (const analysis::Access &r : effects.of_expr(actual).accesses)
      for (const analysis::Access &w : writes.accesses)
        if (w.kind != analysis::AccessKind::Read && w.buf == r.buf)
          in.fail(call.loc, DiagKind::InlineArgWritten, a->name.name, callee->name, r.buf.name);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
