// stage_source.cpp - the buffer a stage_mem window reads -----------------------//
#include "compiler/schedule/stage_source.h"

#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"

namespace exgc::schedule {
namespace {

/// The first allocation or window statement named `n`, in program order.
Stmt find_decl(const Block &b, const std::string &n) {
  for (const Stmt &s : b) {
    if (const auto *a = s.as<Alloc>(); a && a->name.name == n)
      return s;
    if (const auto *w = s.as<WindowStmt>(); w && w->name.name == n)
      return s;
    for (const Block *c : child_blocks(s))
      if (Stmt d = find_decl(*c, n))
        return d;
  }
  return Stmt();
}

} // namespace

bool find_stage_source(const ProcNode &p, const std::string &n, StageSource &out) {
  for (const Arg &a : p.args)
    if (a.name.name == n) {
      out = {a.name, a.type, Stmt()};
      return a.type.kind == Type::Kind::Data;
    }
  Stmt decl = find_decl(p.body, n);
  if (const auto *a = decl.as<Alloc>()) {
    out = {a->name, a->type, Stmt()};
    return a->type.kind == Type::Kind::Data;
  }
  const auto *w = decl.as<WindowStmt>();
  if (!w)
    return false;
  const auto *we = w->rhs.as<WindowExpr>();
  StageSource base;
  if (!we || !find_stage_source(p, we->buf.name, base) || base.sym != we->buf ||
      we->idx.size() != base.type.shape.size())
    return false;
  // The window's dimensions are its slices, `lo:hi` of extent hi - lo.
  std::vector<Expr> shape;
  for (size_t d = 0; d < we->idx.size(); ++d) {
    const WindowIdx &i = we->idx[d];
    if (!i.is_slice)
      continue;
    Expr hi = i.hi ? i.hi : base.type.shape[d];
    shape.push_back(i.lo ? BinOp::make(BinOpKind::Sub, hi, i.lo, w->loc) : hi);
  }
  out.sym = w->name;
  out.type = Type::data(base.type.scalar, shape, w->mem ? w->mem : base.type.mem, false, w->loc);
  out.window = decl;
  return true;
}

Proc effects_view(const Proc &p, const StageSource &src) {
  if (!src.window)
    return p;
  return replace_stmt(p, src.window->id, [](const Stmt &) { return Block{}; });
}

} // namespace exgc::schedule
