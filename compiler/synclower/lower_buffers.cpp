// lower_buffers.cpp - buffers, views and accesses --------------------------//
// Owns: Lowerer's root buffers (which need histories, their declaration),
// windows as views of a root buffer, coordinates turned into the root's and
// into sync index items, and the access statements made through them (the
// reads of an expression included). The class is declared in lowerer.h.
#include "compiler/synclower/lowerer.h"

#include "compiler/ir/visitor.h"
#include "compiler/synclower/quals.h"

namespace exgc::synclower::lower_detail {

namespace {

Expr plus(const Expr &a, const Expr &b) {
  if (const auto *i = a.as<IntImm>(); i && i->value == 0)
    return b;
  return BinOp::make(BinOpKind::Add, a, b);
}

} // namespace

void Lowerer::find_written(const Block &b) {
  for (const Stmt &s : b) {
    if (const auto *a = s.as<Assign>())
      written_.insert(root_of(a->buf).id);
    else if (const auto *r = s.as<Reduce>())
      written_.insert(root_of(r->buf).id);
    else if (const auto *w = s.as<WindowStmt>())
      window(w);
    else if (const auto *f = s.as<For>())
      find_written(f->body);
    else if (const auto *i = s.as<If>())
      find_written(i->then_body), find_written(i->else_body);
    else if (const auto *w = s.as<With>())
      find_written(w->body);
    else if (const auto *c = s.as<CallStmt>())
      for (const auto &[param, arg] : instr_data_args(*c))
        if (param.written || param.reduced)
          written_.insert(root_of(arg_buffer(arg)).id);
  }
}

Sym Lowerer::root_of(const Sym &buf) const {
  auto v = views_.find(buf.id);
  return v == views_.end() ? buf : v->second.root;
}

Sym Lowerer::arg_buffer(const Expr &arg) {
  if (const auto *w = arg.as<WindowExpr>())
    return w->buf;
  if (const auto *r = arg.as<Read>())
    return r->buf;
  if (const auto *v = arg.as<Var>())
    return v->name;
  return Sym{};
}

void Lowerer::declare_data(const Sym &name, const Type &type, SrcLoc loc) {
  Buffer b;
  b.mem = analysis::resolve_memory(type.mem).info;
  b.shape = type.shape;
  b.tracked = b.mem && tracked_memory(*b.mem) && written_.count(name.id);
  if (b.tracked) {
    b.name = names_.bind(name);
    auto d = make(sync::StmtKind::Data, loc);
    d->name = b.name;
    for (const Expr &e : type.shape)
      d->dims.push_back(control(e));
    emit(std::move(d));
  }
  bufs_[name.id] = b;
}

bool Lowerer::to_root(Sym &buf, std::vector<Coord> &coords) const {
  auto v = views_.find(buf.id);
  if (v == views_.end())
    return true;
  std::vector<Coord> rc;
  size_t next = 0;
  for (size_t d = 0; d < v->second.is_slice.size(); ++d) {
    const Expr &st = v->second.start[d];
    if (!v->second.is_slice[d]) {
      rc.push_back(Coord{false, st, Expr()});
      continue;
    }
    Coord c = next < coords.size() ? coords[next] : Coord{true, Expr(), Expr()};
    ++next;
    const auto *zero = st.as<IntImm>();
    if (!c.slice)
      rc.push_back(Coord{false, plus(st, c.lo), Expr()});
    else if (zero && zero->value == 0)
      rc.push_back(c); // an identity slice keeps open ends
    else if (!c.hi)
      return false;
    else
      rc.push_back(Coord{true, plus(st, c.lo ? c.lo : IntImm::make(0)), plus(st, c.hi)});
  }
  coords = std::move(rc);
  buf = v->second.root;
  return true;
}

const Buffer *Lowerer::resolve(const Sym &buf, std::vector<Coord> &coords) {
  Sym root = buf;
  if (!to_root(root, coords))
    return nullptr;
  auto it = bufs_.find(root.id);
  return it == bufs_.end() ? nullptr : &it->second;
}

std::vector<sync::IndexItem> Lowerer::index(const std::vector<Coord> &coords,
                                            const std::vector<Expr> &shape) {
  std::vector<sync::IndexItem> idx;
  for (size_t d = 0; d < coords.size(); ++d) {
    const Coord &c = coords[d];
    if (!c.slice)
      idx.push_back(sync::IndexItem::point(control(c.lo)));
    else if ((!c.lo && !c.hi) || (!c.hi && d >= shape.size()))
      idx.push_back(sync::IndexItem::all());
    else
      idx.push_back(sync::IndexItem::window(control(c.lo ? c.lo : IntImm::make(0)),
                                            control(c.hi ? c.hi : shape[d])));
  }
  return idx;
}

std::vector<Coord> Lowerer::points(const std::vector<Expr> &idx) {
  std::vector<Coord> c;
  for (const Expr &e : idx)
    c.push_back(Coord{false, e, Expr()});
  return c;
}

std::vector<Coord> Lowerer::window_coords(const WindowExpr &w) {
  std::vector<Coord> c;
  for (const WindowIdx &i : w.idx)
    c.push_back(Coord{i.is_slice, i.lo, i.hi});
  return c;
}

void Lowerer::access(const Sym &buf, std::vector<Coord> coords, SrcLoc loc, const AccessFlags &f) {
  const Buffer *b = resolve(buf, coords);
  if (!b) {
    unsupported(loc, "an access of '" + buf.name + "' through this window");
    return;
  }
  if (!b->tracked)
    return;
  if (coords.empty()) // a whole buffer passed by name
    coords.assign(b->shape.size(), Coord{true, Expr(), Expr()});
  if (!kernel_) {
    unsupported(loc, "a host access of '" + buf.name + "' @ " + b->mem->name);
    return;
  }
  std::optional<AccessQuals> q = access_quals(*b->mem, f.timeline);
  if (!q) {
    unsupported(loc, std::string("an access of '") + buf.name + "' @ " + b->mem->name +
                         " on the timeline '" + analysis::instr_timeline_name(f.timeline) + "'");
    return;
  }
  auto s = make(sync::StmtKind::Access, loc);
  s->name = b->name;
  s->access = f.kind;
  s->targets.push_back(index(coords, b->shape));
  s->initial = q->initial;
  s->ext = q->ext;
  s->ooo = f.ooo;
  s->clip = f.clip;
  s->atomic = f.atomic ? q->ext : 0;
  s->conv = f.convergent.value_or(q->convergent);
  s->bars = f.bars;
  emit(std::move(s));
}

void Lowerer::reads(const Expr &e, SrcLoc loc) {
  struct Reads : IRVisitor {
    Lowerer &l;
    SrcLoc at;
    Reads(Lowerer &l, SrcLoc at) : l(l), at(at) {}
    void visit_node(const Read *r) override {
      AccessFlags f;
      f.convergent = true;
      l.access(r->buf, points(r->idx), r->loc.valid() ? r->loc : at, f);
      IRVisitor::visit_node(r);
    }
  } v(*this, loc);
  if (e)
    v.visit(e);
}

void Lowerer::window(const WindowStmt *w) {
  const auto *rhs = w->rhs.as<WindowExpr>();
  if (!rhs)
    return;
  std::vector<Coord> coords = window_coords(*rhs);
  Sym root = rhs->buf;
  if (!to_root(root, coords)) // a window of a window: one view of the root
    return;
  View v;
  v.root = root;
  for (const Coord &c : coords) {
    v.is_slice.push_back(c.slice);
    v.start.push_back(c.slice ? (c.lo ? c.lo : IntImm::make(0)) : c.lo);
  }
  views_[w->name.id] = v;
}

} // namespace exgc::synclower::lower_detail
