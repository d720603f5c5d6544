// bind_window.cpp - send every access of a buffer through a new window ---------//
// bind_window(p, buf, name, memory): puts `name = buf[:, ..., :] @ memory` at
// the top of the body, after the windows there (after buf's allocation when
// buf is allocated), and makes
// every later access of buf name the window instead: `A[m, k]` becomes
// `A_map[m, k]`, `A[a:b, k]` becomes `A_map[a:b, k]`, `stride(A, 0)` becomes
// `stride(A_map, 0)`, a call passing A passes A_map (docs/scheduling.md; the GEMM
// reads A and B through TMA tensor maps whose boxes are one CTA's tiles).
// Checked: the window covers every dimension from 0, so each access through
// it is the access of buf at the same index (an identity view) and the
// meaning cannot change. What the view allows is checked: `memory` is a
// special window (Sm90_tensorMap) with its parameters, its box has one extent
// per dimension of buf, the special window is read-only so nothing after it
// writes buf (directly, through a window or in a call), and the typecheck
// accepts the result (a tensor map views CudaGmemLinear only; a call that now
// receives the map must take one), every error the step adds reported here.
// Fails when: `buf` is not a tensor argument or allocation (CursorKindMismatch);
// `name` is not a name (ScriptArgType) or is in use (NameInUse); `memory` is
// not a special window (UnknownMemory, MemoryKindMismatch, MemoryParams) or its
// box does not match buf's rank (BindWindowRank); buf is written after it
// (BindWindowWritten, note at the write); the typecheck refuses the result
// (BindWindowRejected, with the typecheck's message and notes).
// Keeps: every statement's id (the window is new); cursors forward.
#include "compiler/analysis/effects.h"
#include "compiler/frontend/typecheck.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/memory_arg.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// The buffer a bind_window argument names: a tensor argument of `p` (by
/// name), else a tensor allocation (a cursor or anything `p.find` takes).
struct BoundBuffer {
  Sym sym;
  Type type;
  Stmt alloc; // null for an argument
};

BoundBuffer buffer_arg(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  const Value &v = call.arg("buf").value;
  BoundBuffer b;
  if (const Arg *a = v.kind == Value::Kind::Str ? p->find_arg(v.str) : nullptr) {
    b.sym = a->name;
    b.type = a->type;
  } else {
    b.alloc = stmt_arg(in, p, v, call.loc);
    if (const auto *al = b.alloc.as<Alloc>()) {
      b.sym = al->name;
      b.type = al->type;
    }
  }
  if (!b.type.is_tensor())
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'bind_window'", "a tensor argument or allocation");
  return b;
}

/// The first error the typecheck reports on `q` and not on `p` (same kind at
/// the same place): the errors the step brought in.
std::unique_ptr<Diagnostic> first_new_error(Interpreter &in, const ProcNode &p,
                                            const ProcNode &q) {
  DiagEngine before(in.diag().sources()), after(in.diag().sources());
  typecheck_proc(in.program(), p, before);
  typecheck_proc(in.program(), q, after);
  for (const Diagnostic &d : after.diagnostics()) {
    if (d.severity != Severity::Error)
      continue;
    bool old = false;
    for (const Diagnostic &e : before.diagnostics())
      old = old || (e.kind == d.kind && e.loc == d.loc);
    if (!old)
      return std::make_unique<Diagnostic>(d);
  }
  return nullptr;
}

} // namespace

Value bind_window(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  BoundBuffer buf = buffer_arg(in, call);
  const PrimArg name_arg = call.arg("name");
  const std::string name = name_arg.value.kind == Value::Kind::Str ? name_arg.value.str : "";
  if (!is_name(name))
    fail_arg(in, name_arg, "a name", name_arg.value.type_name());
  if (declared_names(*p).count(name))
    in.fail(call.loc, DiagKind::NameInUse, name, p->name);
  const Expr &mem = call.arg("memory").value.meta;
  analysis::MemoryRef m = memory_arg(in, mem, analysis::MemKind::SpecialWindow,
                                     "window '" + name + "'", call.loc);
  // A tensor map's parameters are the swizzle, then one box extent per
  // dimension, outermost first: a box of another rank addresses nothing.
  const size_t rank = buf.type.shape.size();
  if (m.params.size() != rank + 1)
    in.fail(call.loc, DiagKind::BindWindowRank, m.info->name, m.params.size() - 1, buf.sym.name,
            rank);

  // The code that sees the window: the whole body, or what follows the
  // allocation in its block.
  Block later = p->body;
  if (buf.alloc) {
    Located l;
    locate(*p, buf.alloc->id, l);
    later = Block(l.block->begin() + static_cast<long>(l.index + 1), l.block->end());
  }
  // Special windows are read-only views (the typecheck marks every one so).
  analysis::EffectCollector effects(*p, callee_lookup(in, p));
  for (const analysis::Access &a : effects.of(later).accesses) {
    if (a.kind == analysis::AccessKind::Read || a.buf != buf.sym)
      continue;
    in.diag()
        .report(call.loc, DiagKind::BindWindowWritten, buf.sym.name, name, m.info->name)
        .note(a.loc, "'" + a.text + "' " + analysis::access_verb(a.kind) + " '" + buf.sym.name +
                         "' here");
    throw ScriptAbort{};
  }

  Sym win = Sym::fresh(name);
  std::vector<WindowIdx> whole(rank, WindowIdx::slice(Expr(), Expr()));
  Stmt bind = WindowStmt::make(win, WindowExpr::make(buf.sym, whole, buf.type.scalar, call.loc),
                               mem, call.loc);
  Proc q;
  if (!buf.alloc) {
    auto np = std::make_shared<ProcNode>(*p);
    np->body = rename_buffer(p->body, buf.sym, win);
    // After the windows of other buffers bound at the top, so that binding
    // A, then B, lists them in that order.
    auto at = np->body.begin();
    for (; at != np->body.end(); ++at) {
      const auto *w = at->as<WindowStmt>();
      if (!w || analysis::mentions(w->rhs, buf.sym))
        break;
    }
    np->body.insert(at, bind);
    q = np;
  } else {
    q = replace_stmt(p, buf.alloc->id, [&](const Stmt &old) { return Block{old, bind}; });
    for (const Stmt &t : later)
      q = replace_stmt(q, t->id, [&](const Stmt &old) {
        return rename_buffer(Block{old}, buf.sym, win);
      });
  }
  if (auto err = first_new_error(in, *p, *q))
    fail_with_cause(in, call.loc, *err, DiagKind::BindWindowRejected, name, buf.sym.name);
  return Value::of_proc(q);
}

} // namespace exgc::schedule
