// task_nest.cpp - the `cuda_tasks` nest of a device function ---------------//
#include "compiler/gpu/task_nest.h"

#include "compiler/ir/visitor.h"

namespace exgc::gpu {

namespace {

/// The variables an expression reads, in order.
std::vector<Sym> vars_of(const Expr &e) {
  struct Finder : IRVisitor {
    std::vector<Sym> vars;
    void visit_node(const Var *v) override { vars.push_back(v->name); }
  } f;
  f.visit(e);
  return f.vars;
}

} // namespace

bool is_task_loop(const Stmt &s) {
  const auto *f = s.as<For>();
  return f && f->mode.kind() == LoopKind::CudaTasks;
}

bool read_task_nest(const With *w, DiagEngine &diag, TaskNest &nest) {
  if (w->body.empty() || !is_task_loop(w->body[0]))
    return diag.report(w->body.empty() ? w->loc : w->body[0]->loc, DiagKind::TaskNestShape,
                       "this statement is not a 'cuda_tasks' loop");
  if (w->body.size() > 1)
    return diag.report(w->body[1]->loc, DiagKind::TaskNestShape,
                       "a statement after the 'cuda_tasks' loop '" +
                           w->body[0].as<For>()->iter.name + "'");
  // Deeper levels: a task loop alone in its parent's body continues the nest;
  // one among other statements is reported where the task body meets it.
  const Block *body = &w->body;
  while (body->size() == 1 && is_task_loop((*body)[0])) {
    const For *f = (*body)[0].as<For>();
    std::vector<Sym> read = vars_of(f->lo), in_hi = vars_of(f->hi);
    read.insert(read.end(), in_hi.begin(), in_hi.end());
    for (const Sym &s : read)
      for (const For *outer : nest.loops)
        if (s == outer->iter)
          return diag.report(f->loc, DiagKind::TaskBoundsDependOnTask, f->iter.name, s.name);
    nest.loops.push_back(f);
    body = &f->body;
  }
  nest.body = body;
  return true;
}

} // namespace exgc::gpu
