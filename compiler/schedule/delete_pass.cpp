// delete_pass.cpp - remove `pass` and what holds nothing else ---------------//
// delete_pass(p): every `pass` is deleted, then every loop, `with` block and
// `if` left with nothing to run (an `if` whose two branches are empty); an
// `if` with an empty then-branch keeps one `pass` there, and so does an
// otherwise empty proc body (a block is never empty).
// Checked: nothing: `pass` does nothing, so a statement made only of it does
// nothing either (a loop over pass runs no statement whatever its bounds).
// Fails when: never. Keeps: ids of every statement it rebuilds.
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

Block strip(const Block &b, bool &changed);

/// A loop or `with` block `s` (node `op`) with its body stripped: nothing when
/// the body is left empty, `s` itself when it did not change.
template <typename T> Block strip_body(const T *op, const Stmt &s, bool &changed) {
  bool c = false;
  Block body = strip(op->body, c);
  if (body.empty()) {
    changed = true;
    return {};
  }
  if (!c)
    return {s};
  changed = true;
  return {op->edited([&](T &n) { n.body = std::move(body); })};
}

/// What `s` becomes: nothing, itself, or a copy with stripped bodies.
Block strip_stmt(const Stmt &s, bool &changed) {
  if (s.as<Pass>()) {
    changed = true;
    return {};
  }
  if (const auto *f = s.as<For>())
    return strip_body(f, s, changed);
  if (const auto *w = s.as<With>())
    return strip_body(w, s, changed);
  if (const auto *i = s.as<If>()) {
    bool c = false;
    Block then_b = strip(i->then_body, c), else_b = strip(i->else_body, c);
    if (then_b.empty() && else_b.empty()) {
      changed = true;
      return {};
    }
    if (then_b.empty())
      then_b.push_back(i->then_body.front()->kind == StmtKind::Pass ? i->then_body.front()
                                                                     : Pass::make(i->loc));
    if (!c)
      return {s};
    changed = true;
    return {i->edited([&](If &n) {
      n.then_body = std::move(then_b);
      n.else_body = std::move(else_b);
    })};
  }
  return {s};
}

Block strip(const Block &b, bool &changed) {
  Block out;
  for (const Stmt &s : b)
    for (Stmt &t : strip_stmt(s, changed))
      out.push_back(std::move(t));
  return out;
}

} // namespace

Value delete_pass(Interpreter &, const CallSite &call) {
  const Proc &p = call.proc();
  bool changed = false;
  Block body = strip(p->body, changed);
  if (!changed)
    return Value::of_proc(p);
  if (body.empty())
    body.push_back(Pass::make(p->loc));
  auto out = std::make_shared<ProcNode>(*p);
  out->body = std::move(body);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
