// task_replay.cpp - uniform task bodies and matching outside accesses ----//
#include "compiler/sync/task_replay.h"

#include <set>

namespace exgc::sync {
namespace {

using Names = std::set<std::string>;

void collect_bound(const Block &b, Names &locals, Names &bound) {
  for (const StmtP &sp : b) {
    const Stmt &s = *sp;
    if (s.kind == StmtKind::Data || s.kind == StmtKind::Barrier)
      locals.insert(s.name);
    if (s.kind == StmtKind::Let || s.kind == StmtKind::Seq || s.kind == StmtKind::Threads)
      bound.insert(s.name);
    collect_bound(s.body, locals, bound);
    collect_bound(s.else_body, locals, bound);
  }
}

// One pass over a body in program order. `tainted` holds the names whose
// value here may differ between tasks: names the body binds, until it binds
// them to values that do not. A name the body never binds is a parameter:
// the same for every task of one run of the loop, and compared at run time
// for tasks of different runs.
class Analysis {
public:
  Analysis(TaskShape &out, const Names &locals, const Names &bound)
      : out_(out), locals_(locals), bound_(bound) {}

  bool block(const Block &b, Names &tainted, bool &walk) {
    for (const StmtP &sp : b)
      if (!stmt(*sp, tainted, walk))
        return false;
    return true;
  }

  Names params;

private:
  TaskShape &out_;
  const Names &locals_, &bound_;

  bool no(const Stmt &s, const std::string &why) {
    out_.why_not = why + (s.loc.known() ? " (" + s.loc.str() + ")" : "");
    return false;
  }
  bool uniform(const Expr &e, const Names &tainted) {
    if (!e)
      return true;
    if (e->kind == ExprKind::Var) {
      if (tainted.count(e->name))
        return false;
      if (!bound_.count(e->name))
        params.insert(e->name);
      return true;
    }
    bool a = uniform(e->a, tainted);
    return uniform(e->b, tainted) && a;
  }
  bool uniform(const Index &idx, const Names &tainted) {
    for (const IndexItem &it : idx)
      if (!uniform(it.lo, tainted) || !uniform(it.hi, tainted))
        return false;
    return true;
  }
  bool barriers_local(const Stmt &s, const Names &tainted) {
    for (const BarrierRef &r : s.bars)
      if (!locals_.count(r.name) || !uniform(r.idx, tainted))
        return false;
    return true;
  }
  void mark(const Stmt &s, bool &walk) {
    out_.walk.insert(&s);
    walk = true;
  }

  // A loop body runs again with what its previous iteration left: iterate
  // until the names tainted at its start stop growing.
  bool loop(const Stmt &s, Names &tainted, bool &walk) {
    const bool had = tainted.count(s.name) != 0;
    Names start = tainted;
    for (;;) {
      start.erase(s.name); // the iterator is the same in every task
      Names end = start;
      bool inner = false;
      if (!block(s.body, end, inner))
        return false;
      if (inner)
        mark(s, walk);
      end.erase(s.name);
      const size_t before = start.size();
      start.insert(end.begin(), end.end());
      if (start.size() == before)
        break;
    }
    // After the loop: what any iteration (or none) left; the iterator is
    // restored.
    tainted = std::move(start);
    if (had)
      tainted.insert(s.name);
    return true;
  }

  bool stmt(const Stmt &s, Names &tainted, bool &walk) {
    switch (s.kind) {
    case StmtKind::Let:
      if (uniform(s.value, tainted))
        tainted.erase(s.name);
      else
        tainted.insert(s.name);
      mark(s, walk); // an outside access may use it
      return true;
    case StmtKind::Data: case StmtKind::Barrier:
      for (const Expr &d : s.dims)
        if (!uniform(d, tainted))
          return no(s, "extent of '" + s.name + "' differs between tasks");
      if (!s.guard.empty() && !locals_.count(s.guard))
        return no(s, "'" + s.name + "' is guarded by an outside barrier");
      return true;
    case StmtKind::Free:
      if (!locals_.count(s.name))
        return no(s, "frees outside tensor '" + s.name + "'");
      return true;
    case StmtKind::Access:
      if (!barriers_local(s, tainted))
        return no(s, "trailing barrier is outside or differs between tasks");
      if (locals_.count(s.name)) {
        for (const Index &t : s.targets)
          if (!uniform(t, tainted))
            return no(s, "index into '" + s.name + "' differs between tasks");
        return true;
      }
      mark(s, walk);
      return true;
    case StmtKind::Arrive: case StmtKind::Await:
      if (!barriers_local(s, tainted))
        return no(s, "barrier is outside or differs between tasks");
      return true;
    case StmtKind::Fence: case StmtKind::Join:
      return true;
    case StmtKind::Seq: case StmtKind::Threads:
      if (!uniform(s.value, tainted) || !uniform(s.hi, tainted))
        return no(s, "bounds of loop '" + s.name + "' differ between tasks");
      return loop(s, tainted, walk);
    case StmtKind::If: {
      if (!uniform(s.value, tainted))
        return no(s, "condition differs between tasks");
      Names a = tainted, b = tainted;
      bool inner = false;
      if (!block(s.body, a, inner) || !block(s.else_body, b, inner))
        return false;
      if (inner)
        mark(s, walk);
      tainted = std::move(a);
      tainted.insert(b.begin(), b.end());
      return true;
    }
    case StmtKind::Reshape: {
      bool inner = false;
      if (!block(s.body, tainted, inner))
        return false;
      if (inner)
        mark(s, walk);
      return true;
    }
    case StmtKind::Tasks: case StmtKind::Device:
      return no(s, "nested tasks or device block");
    }
    return no(s, "unknown statement");
  }
};

// Fills shape.walk_in for `b` and the blocks below it.
void index_walk(const Block &b, TaskShape &shape) {
  for (const StmtP &sp : b) {
    if (!shape.walk.count(sp.get()))
      continue;
    shape.walk_in[&b].push_back(sp.get());
    index_walk(sp->body, shape);
    index_walk(sp->else_body, shape);
  }
}

} // namespace

TaskShape analyze_task(const Stmt &tasks, const std::vector<std::string> &task_vars) {
  TaskShape out;
  Names locals, bound;
  collect_bound(tasks.body, locals, bound);
  bound.insert(task_vars.begin(), task_vars.end());
  out.locals.assign(locals.begin(), locals.end());
  // Not bound yet: whatever an earlier task left; task indices differ.
  Names tainted = bound;
  bool walk = false;
  Analysis a(out, locals, bound);
  out.uniform = a.block(tasks.body, tainted, walk);
  out.params.assign(a.params.begin(), a.params.end());
  if (!out.uniform) {
    out.walk.clear();
    out.params.clear();
  }
  index_walk(tasks.body, out);
  return out;
}

bool match_outside(const std::vector<OutsideAccess> &tmpl, const std::vector<OutsideAccess> &now,
                   std::vector<TensorShift> &shifts) {
  shifts.clear();
  if (tmpl.size() != now.size())
    return false;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const OutsideAccess &a = tmpl[i], &b = now[i];
    if (a.stmt != b.stmt || a.tensor != b.tensor || a.boxes.size() != b.boxes.size())
      return false;
    TensorShift *sh = nullptr;
    for (TensorShift &s : shifts)
      if (s.tensor == a.tensor)
        sh = &s;
    for (size_t k = 0; k < a.boxes.size(); ++k) {
      const Box &x = a.boxes[k], &y = b.boxes[k];
      if (!sh) {
        shifts.push_back({a.tensor, {}});
        sh = &shifts.back();
        sh->offset.resize(x.lo.size());
        for (size_t d = 0; d < x.lo.size(); ++d)
          sh->offset[d] = y.lo[d] - x.lo[d];
      }
      for (size_t d = 0; d < x.lo.size(); ++d)
        if (y.lo[d] - x.lo[d] != sh->offset[d] || y.hi[d] - x.hi[d] != sh->offset[d])
          return false;
    }
  }
  return true;
}

} // namespace exgc::sync
