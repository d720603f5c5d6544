// inliner.cpp - substituting parameters and composing windows ------------//
#include "compiler/ir/inliner.h"

#include "compiler/ir/fold.h"
#include "compiler/ir/window.h"

namespace exgc {

Expr plus_folded(const Expr &a, const Expr &b) {
  if (!a)
    return b;
  if (!b)
    return a;
  if (const auto *z = a.as<IntImm>(); z && z->value == 0)
    return b;
  return fold_constants(BinOp::make(BinOpKind::Add, a, b, b->loc));
}

bool Inliner::bind_buffer(const Sym &param, const Expr &actual) {
  if (const auto *we = actual.as<WindowExpr>())
    bufs[param.id] = {we->buf, we->type, true, we->idx};
  else if (const auto *r = actual.as<Read>())
    bufs[param.id] = {r->buf, r->type, false, {}};
  else if (const auto *v = actual.as<Var>())
    bufs[param.id] = {v->name, v->type, false, {}};
  else
    return false;
  return true;
}

std::vector<Expr> Inliner::compose(const BufArg &b, const std::vector<Expr> &idx) {
  std::vector<Expr> coords;
  for (const Expr &e : idx)
    coords.push_back(mutate(e));
  return b.window ? window_to_buffer(b.w, coords, plus_folded) : coords;
}

size_t Inliner::source_dim(const BufArg &b, size_t d) {
  if (!b.window)
    return d;
  for (size_t s = 0, j = 0; s < b.w.size(); ++s)
    if (b.w[s].is_slice && j++ == d)
      return s;
  return d;
}

Expr Inliner::mutate_node(const Var *op, const Expr &self) {
  auto it = vars.find(op->name.id);
  return it == vars.end() ? self : it->second;
}

Expr Inliner::mutate_node(const Read *op, const Expr &self) {
  auto it = bufs.find(op->buf.id);
  if (it == bufs.end())
    return IRMutator::mutate_node(op, self);
  const BufArg &b = it->second;
  if (op->idx.empty() && b.window) // the whole parameter, passed on
    return WindowExpr::make(b.buf, b.w, b.type, op->loc);
  return Read::make(b.buf, compose(b, op->idx), op->type, op->loc);
}

Expr Inliner::mutate_node(const WindowExpr *op, const Expr &self) {
  auto it = bufs.find(op->buf.id);
  if (it == bufs.end())
    return IRMutator::mutate_node(op, self);
  const BufArg &b = it->second;
  std::vector<WindowIdx> out;
  for (size_t d = 0, j = 0; d < (b.window ? b.w.size() : op->idx.size()); ++d) {
    if (b.window && !b.w[d].is_slice) {
      out.push_back(b.w[d]);
      continue;
    }
    const WindowIdx &i = op->idx[b.window ? j++ : d];
    Expr lo = b.window ? b.w[d].lo : Expr();
    if (!i.is_slice)
      out.push_back(WindowIdx::point(plus_folded(lo, mutate(i.lo))));
    else
      out.push_back(WindowIdx::slice(plus_folded(lo, i.lo ? mutate(i.lo) : Expr()),
                                     i.hi ? plus_folded(lo, mutate(i.hi))
                                          : (b.window ? b.w[d].hi : Expr())));
  }
  return WindowExpr::make(b.buf, std::move(out), op->type, op->loc);
}

Expr Inliner::mutate_node(const Call *op, const Expr &self) {
  const auto *r = op->args.size() == 2 ? op->args[0].as<Read>() : nullptr;
  const auto *d = op->args.size() == 2 ? op->args[1].as<IntImm>() : nullptr;
  if ((op->func != "stride" && op->func != "offset") || !r || !d || !bufs.count(r->buf.id))
    return IRMutator::mutate_node(op, self);
  const BufArg &b = bufs.at(r->buf.id);
  size_t s = source_dim(b, static_cast<size_t>(d->value));
  Expr whole = Read::make(b.buf, {}, r->type, r->loc);
  Expr call = Call::make(op->func, {whole, IntImm::make(s, d->loc)}, {}, op->loc);
  return op->func == "offset" && b.window ? plus_folded(call, b.w[s].lo) : call;
}

Block Inliner::mutate_node(const Assign *op, const Stmt &self) {
  auto it = bufs.find(op->buf.id);
  if (it == bufs.end())
    return IRMutator::mutate_node(op, self);
  return {Assign::make(it->second.buf, compose(it->second, op->idx), mutate(op->rhs), op->loc)};
}

Block Inliner::mutate_node(const Reduce *op, const Stmt &self) {
  auto it = bufs.find(op->buf.id);
  if (it == bufs.end())
    return IRMutator::mutate_node(op, self);
  return {Reduce::make(it->second.buf, compose(it->second, op->idx), mutate(op->rhs), op->loc)};
}

Block Inliner::mutate_node(const For *op, const Stmt &self) {
  // The typecheck forbids shadowing: an iterator whose name is taken in
  // the caller gets a new one.
  Sym it = op->iter;
  if (caller.count(it.name)) {
    std::string name = it.name;
    for (int k = 1; caller.count(name); ++k)
      name = it.name + "_" + std::to_string(k);
    it = Sym::fresh(name);
    vars[op->iter.id] = Var::make(it, ValueType::Index);
  }
  Block r = IRMutator::mutate_node(op, self);
  return {r[0].as<For>()->edited([&](For &n) { n.iter = it; })};
}

} // namespace exgc
