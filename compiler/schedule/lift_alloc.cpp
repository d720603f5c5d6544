// lift_alloc.cpp - move an allocation out of enclosing loops and ifs ---------//
// lift_alloc(p, alloc, n_lifts=1): the allocation moves out of its `n_lifts`
// innermost enclosing statements, to just before the outermost of them:
//   for i in seq(0, n):            t: f32[4]
//       t: f32[4]          -->     for i in seq(0, n):
//       ...                            ...
// Checked: the buffer's shape and memory do not use the iterator of a loop
// it leaves (its size must be the same for every iteration). Sequentially the
// buffer then lives longer, which is safe because its contents are undefined
// until written either way (nodes.h); names are unique in a proc, so no use
// can be captured.
// Fails when: `alloc` is not an allocation, `n_lifts` is not positive, the
// allocation is nested in fewer statements, or a statement to leave is a
// `with` block (host and device memory differ across it) or a loop whose
// iterator the shape uses (LiftAllocBlocked).
#include "compiler/ir/visitor.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// The statements enclosing `node`, outermost first.
bool ancestors(const Block &b, NodeId node, std::vector<Stmt> &out) {
  for (const Stmt &s : b) {
    if (s->id == node)
      return true;
    std::vector<const Block *> kids;
    if (const auto *f = s.as<For>())
      kids = {&f->body};
    else if (const auto *i = s.as<If>())
      kids = {&i->then_body, &i->else_body};
    else if (const auto *w = s.as<With>())
      kids = {&w->body};
    out.push_back(s);
    for (const Block *k : kids)
      if (ancestors(*k, node, out))
        return true;
    out.pop_back();
  }
  return false;
}

struct UsesSym : IRVisitor {
  uint32_t id;
  bool found = false;
  void visit_node(const Var *op) override { found |= op->name.id == id; }
};

} // namespace

Value lift_alloc(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s = stmt_arg(in, p, call.arg("alloc").value, call.loc);
  const auto *a = s.as<Alloc>();
  if (!a)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'lift_alloc'", "an allocation");
  int64_t n = call.arg("n_lifts").value.int_value;
  std::vector<Stmt> up;
  ancestors(p->body, s->id, up);
  const std::string &name = a->name.name;
  if (static_cast<size_t>(n) > up.size())
    in.fail(call.loc, DiagKind::LiftAllocBlocked, name,
            std::to_string(n) + " statements; it is inside " + std::to_string(up.size()));
  for (size_t k = up.size() - static_cast<size_t>(n); k < up.size(); ++k) {
    if (up[k].as<With>())
      in.fail(call.loc, DiagKind::LiftAllocBlocked, name,
              "a 'with' block; host and device memory differ across it");
    const auto *f = up[k].as<For>();
    if (!f)
      continue;
    UsesSym u;
    u.id = f->iter.id;
    u.visit_type(a->type);
    if (u.found)
      in.fail(call.loc, DiagKind::LiftAllocBlocked, name,
              "loop '" + f->iter.name + "': its shape uses the iterator '" + f->iter.name + "'");
  }
  Located l;
  locate(*p, s->id, l);
  bool only = l.block->size() == 1;
  Proc removed = replace_stmt(p, s->id, [&](const Stmt &) -> Block {
    if (only)
      return {Pass::make(call.loc)}; // a block is never empty
    return {};
  });
  NodeId outer = up[up.size() - static_cast<size_t>(n)]->id;
  return Value::of_proc(
      replace_stmt(removed, outer, [&](const Stmt &old) -> Block { return {s, old}; }));
}

} // namespace exgc::schedule
