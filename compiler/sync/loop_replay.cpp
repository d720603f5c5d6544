// loop_replay.cpp - periodic loop bodies ----------------------------------//
#include "compiler/sync/loop_replay.h"

#include <set>

namespace exgc::sync {
namespace {

using Names = std::set<std::string>;

void collect(const Block &b, Names &bound, Names &allocated, Names &freed) {
  for (const StmtP &sp : b) {
    const Stmt &s = *sp;
    if (s.kind == StmtKind::Let || s.kind == StmtKind::Seq || s.kind == StmtKind::Threads)
      bound.insert(s.name);
    if (s.kind == StmtKind::Data)
      allocated.insert(s.name);
    if (s.kind == StmtKind::Free)
      freed.insert(s.name);
    collect(s.body, bound, allocated, freed);
    collect(s.else_body, bound, allocated, freed);
  }
}

// One pass in program order. `tainted` holds the names whose value may differ
// between iterations: the iterator, and names the body binds until it binds
// them to values that do not (before that they hold what the previous
// iteration left).
class Analysis {
public:
  Analysis(LoopShape &out, const Names &locals) : out_(out), locals_(locals) {}

  bool block(const Block &b, Names &tainted) {
    for (const StmtP &sp : b)
      if (!stmt(*sp, tainted))
        return false;
    return true;
  }

private:
  LoopShape &out_;
  const Names &locals_;

  bool no(const Stmt &s, const std::string &why) {
    out_.why_not = why + (s.loc.known() ? " (" + s.loc.str() + ")" : "");
    return false;
  }
  static bool uniform(const Expr &e, const Names &tainted) {
    if (!e)
      return true;
    if (e->kind == ExprKind::Var && tainted.count(e->name))
      return false;
    return uniform(e->a, tainted) && uniform(e->b, tainted);
  }
  static bool uniform(const Index &idx, const Names &tainted) {
    for (const IndexItem &it : idx)
      if (!uniform(it.lo, tainted) || !uniform(it.hi, tainted))
        return false;
    return true;
  }

  // An inner loop's body runs again with what its previous iteration left:
  // iterate until the names tainted at its start stop growing. Its iterator
  // takes the same values in every outer iteration.
  bool loop(const Stmt &s, Names &tainted) {
    const bool had = tainted.count(s.name) != 0;
    Names start = tainted;
    for (;;) {
      start.erase(s.name);
      Names end = start;
      if (!block(s.body, end))
        return false;
      end.erase(s.name);
      const size_t before = start.size();
      start.insert(end.begin(), end.end());
      if (start.size() == before)
        break;
    }
    tainted = std::move(start);
    if (had)
      tainted.insert(s.name); // restored after the loop
    return true;
  }

  bool stmt(const Stmt &s, Names &tainted) {
    switch (s.kind) {
    case StmtKind::Let:
      // A let's value outlives the loop: it must be the same in every
      // iteration, or skipping iterations would leave another one.
      if (!uniform(s.value, tainted))
        return no(s, "'" + s.name + "' differs between iterations");
      tainted.erase(s.name);
      return true;
    case StmtKind::Data:
      if (s.ring_dim >= 0 || !s.guard.empty())
        return no(s, "ring buffer '" + s.name + "'");
      if (!locals_.count(s.name))
        return no(s, "'" + s.name + "' is not freed in the loop");
      for (const Expr &d : s.dims)
        if (!uniform(d, tainted))
          return no(s, "extent of '" + s.name + "' differs between iterations");
      return true;
    case StmtKind::Free:
      if (!locals_.count(s.name))
        return no(s, "frees outside tensor '" + s.name + "'");
      return true;
    case StmtKind::Access:
      if (!s.bars.empty())
        return no(s, "trailing barrier");
      for (const Index &t : s.targets)
        if (!uniform(t, tainted))
          return no(s, "index into '" + s.name + "' differs between iterations");
      return true;
    case StmtKind::Fence: case StmtKind::Join:
      return true;
    case StmtKind::Seq: case StmtKind::Threads:
      if (!uniform(s.value, tainted) || !uniform(s.hi, tainted))
        return no(s, "bounds of loop '" + s.name + "' differ between iterations");
      return loop(s, tainted);
    case StmtKind::If: {
      if (!uniform(s.value, tainted))
        return no(s, "condition differs between iterations");
      Names a = tainted, b = tainted;
      if (!block(s.body, a) || !block(s.else_body, b))
        return false;
      tainted = std::move(a);
      tainted.insert(b.begin(), b.end());
      return true;
    }
    case StmtKind::Reshape:
      return block(s.body, tainted);
    case StmtKind::Arrive: case StmtKind::Await: case StmtKind::Barrier:
      return no(s, "barrier operation");
    case StmtKind::Tasks: case StmtKind::Device:
      return no(s, "tasks or device block");
    }
    return no(s, "unknown statement");
  }
};

} // namespace

LoopShape analyze_loop(const Stmt &seq) {
  LoopShape out;
  Names bound, allocated, freed;
  collect(seq.body, bound, allocated, freed);
  // Tensors the body allocates and frees: gone by the end of each iteration.
  Names locals;
  for (const std::string &n : allocated)
    if (freed.count(n))
      locals.insert(n);
  Names tainted = bound;
  tainted.insert(seq.name);
  Analysis a(out, locals);
  out.periodic = a.block(seq.body, tainted);
  return out;
}

} // namespace exgc::sync
