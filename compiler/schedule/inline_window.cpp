// inline_window.cpp - replace a window name by the window it stands for ------//
// inline_window(p, stmt): `w = A[i, 0:8]` is deleted and every later use of
// `w` in its block reads A through the window: `w[k]` becomes `A[i, k]`,
// `w[a:b]` becomes `A[i, a:b]`, `stride(w, 0)` becomes `stride(A, 1)`,
// `offset(w, 0)` becomes `offset(A, 1)`, and `w` passed whole becomes
// `A[i, 0:8]` (inliner.h, as `inline` does for window arguments).
// Checked: a window is a view, so reading or writing through it is reading
// or writing A at the composed index; the window's bounds are control
// values and iterators fixed in its block, so they mean the same at every
// use. The whole result is typechecked again (bounds included). A special
// window (a tensor map) is not a view the backend can drop: it is refused.
// Fails when: `stmt` is not a window statement (CursorKindMismatch); the
// window has a special memory (InlineWindowSpecial).
#include "compiler/analysis/memories.h"
#include "compiler/ir/inliner.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value inline_window(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("stmt").value, call.loc);
  const auto *w = s.as<WindowStmt>();
  const auto *we = w ? w->rhs.as<WindowExpr>() : nullptr;
  if (!we)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'inline_window'", "a window statement");
  if (w->mem) {
    analysis::MemoryRef m = analysis::resolve_memory(w->mem);
    if (m && m.info->kind == analysis::MemKind::SpecialWindow)
      in.fail(call.loc, DiagKind::InlineWindowSpecial, w->name.name, m.info->name);
  }
  Inliner m;
  m.bufs[w->name.id] = {we->buf, we->type, true, we->idx};
  Located l;
  locate(*p, s->id, l);
  std::vector<Stmt> later(l.block->begin() + static_cast<long>(l.index + 1), l.block->end());
  const bool only = l.block->size() == 1;
  Proc q = replace_stmt(p, s->id, [&](const Stmt &) -> Block {
    if (only)
      return {Pass::make(call.loc)}; // a block is never empty
    return {};
  });
  for (const Stmt &t : later)
    q = replace_stmt(q, t->id, [&](const Stmt &old) { return m.mutate(old); });
  return Value::of_proc(q);
}

} // namespace exgc::schedule
