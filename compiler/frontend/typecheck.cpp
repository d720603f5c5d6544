// typecheck.cpp - the typecheck's entry, procs, scopes and statements -----//
// Owns: walking every proc of every module once, the proc-level checks (args,
// asserts) and statements. Expressions are in typecheck_expr.cpp, calls and
// annotations in typecheck_call.cpp, the Z3 checks in typecheck_bounds.cpp.
#include "compiler/frontend/typecheck.h"

#include <set>

#include "compiler/analysis/gpu_names.h"
#include "compiler/frontend/call_cycles.h"
#include "compiler/frontend/typecheck_internal.h"
#include "compiler/ir/printer.h"

namespace exgc {
namespace tc {

std::string show(const Expr &e) {
  std::string s = e ? print_expr(e) : std::string("?");
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

const char *use_name(Use u) {
  switch (u) {
  case Use::Index: return "an index";
  case Use::Bound: return "a loop bound";
  case Use::Cond: return "a condition";
  case Use::Assert: return "an assert";
  case Use::Extent: return "an extent";
  case Use::Data: return "data";
  case Use::ControlArg: return "a control argument";
  }
  EXGC_UNREACHABLE("use");
}

std::string Declared::describe() const {
  switch (kind) {
  case Kind::Control:
    if (is_iter)
      return "loop iterator";
    return std::string(value_type_name(type)) + (is_arg ? " argument" : " value");
  case Kind::Barrier:
    return "barrier";
  case Kind::Data:
    if (is_window)
      return "window";
    return shape.empty() ? "scalar" : "tensor";
  }
  EXGC_UNREACHABLE("binding kind");
}

void Checker::declare(const Declared &b) {
  // Names are never redeclared while visible: the IR resolves them to distinct
  // Syms anyway, but a reader of the source could not tell which one is meant.
  // Two arguments of one name are the builder's DuplicateArgument.
  for (const auto &scope : scopes_) {
    if (b.is_arg)
      break;
    auto it = scope.find(b.sym.name);
    if (it == scope.end())
      continue;
    auto prev = bindings_.find(it->second);
    auto d = diag_.report(b.decl, DiagKind::DuplicateName, b.sym.name);
    if (prev != bindings_.end() && prev->second.decl.valid())
      d.note(prev->second.decl, "previous declaration of '" + b.sym.name + "' is here");
    break;
  }
  bindings_[b.sym.id] = b;
  scopes_.back()[b.sym.name] = b.sym.id;
}

const Declared *Checker::lookup(const Sym &s, SrcLoc use) {
  auto it = bindings_.find(s.id);
  if (!s.is_global() && it != bindings_.end()) {
    // Visible only while its scope is open.
    for (const auto &scope : scopes_) {
      auto v = scope.find(s.name);
      if (v != scope.end() && v->second == s.id)
        return &it->second;
    }
  }
  diag_.report(use, DiagKind::UndeclaredName, s.name);
  return nullptr;
}

void Checker::check_type(const Type &t, const std::string &name, bool is_arg) {
  for (const Expr &e : t.shape)
    check_expr(e, Use::Extent);
  check_size_fits(t, name);
  switch (t.kind) {
  case Type::Kind::Control:
    return;
  case Type::Kind::Data:
    check_memory(t.mem, analysis::MemKind::Memory, "'" + name + "'", t.loc);
    return;
  case Type::Kind::Barrier:
    for (const Expr &r : t.ring) {
      if (!r)
        continue;
      const auto *imm = r.as<IntImm>();
      if (!imm || imm->value <= 0)
        diag_.report(r->loc, DiagKind::BadRing, show(r));
    }
    check_memory(t.mem, analysis::MemKind::BarrierMechanism, "barrier '" + name + "'", t.loc);
    return;
  }
}

void Checker::check_size_fits(const Type &t, const std::string &name) {
  // Symbolic extents count as 1, their least value: a product of the literal
  // ones past int64_t means no run could allocate or index the tensor.
  int64_t bytes = t.kind == Type::Kind::Barrier ? 8 : element_bytes(t.scalar);
  for (const Expr &e : t.shape) {
    const auto *imm = e.as<IntImm>();
    if (imm && imm->value > 0 && __builtin_mul_overflow(bytes, imm->value, &bytes)) {
      diag_.report(t.loc, DiagKind::TensorTooLarge, name);
      return;
    }
  }
}

namespace {

Declared binding_of(const Sym &name, const Type &t, SrcLoc decl) {
  Declared b;
  b.sym = name;
  b.decl = decl;
  b.type = t.scalar;
  b.shape = t.shape;
  b.mem = t.mem;
  b.is_window = t.window;
  switch (t.kind) {
  case Type::Kind::Control: b.kind = Declared::Kind::Control; break;
  case Type::Kind::Data: b.kind = Declared::Kind::Data; break;
  case Type::Kind::Barrier: b.kind = Declared::Kind::Barrier; break;
  }
  return b;
}

/// Reports each `aligned(...)` in assert `e` that is not the assert itself or
/// a side of its top-level `and`s: the bounds check proves a sufficient
/// condition for alignment, which under `not`, `or` or `==` proves nothing.
void report_nested_aligned(const Expr &e, bool top, DiagEngine &diag) {
  if (!e)
    return;
  if (const auto *c = e.as<Call>()) {
    if (c->func == "aligned" && !top)
      diag.report(e->loc, DiagKind::BuiltinArgs, "aligned",
                  "must be an assert's whole condition or a side of its 'and'");
    for (const Expr &a : c->args)
      report_nested_aligned(a, false, diag);
  } else if (const auto *b = e.as<BinOp>()) {
    bool conj = top && b->op == BinOpKind::And;
    report_nested_aligned(b->a, conj, diag);
    report_nested_aligned(b->b, conj, diag);
  } else if (const auto *u = e.as<UnOp>()) {
    report_nested_aligned(u->a, false, diag);
  }
}

} // namespace

bool Checker::check_proc(const ProcNode &p) {
  proc_ = &p;
  bindings_.clear();
  scopes_.clear();
  errors_at_start_ = diag_.num_errors();
  ScopeGuard top(*this);
  for (const Arg &a : p.args) {
    Declared b = binding_of(a.name, a.type, a.loc.valid() ? a.loc : a.type.loc);
    b.is_arg = true;
    // An instruction's own tensor-map parameter is what its behaviour (a TMA
    // load or store) accesses; elsewhere only instructions may access a map.
    if (b.kind == Declared::Kind::Data && analysis::memory_name(a.type.mem) == "Sm90_tensorMap" &&
        !p.is_instr)
      b.read_only = "it is a tensor map; only TMA instructions read it";
    declare(b);
  }
  // Types after all args are declared: extents may name any size argument.
  for (const Arg &a : p.args) {
    if (a.type.kind == Type::Kind::Data && a.type.window) {
      // A window parameter may live in a special window (tensor maps).
      for (const Expr &e : a.type.shape)
        check_expr(e, Use::Extent);
      auto want = analysis::memory_name(a.type.mem) == "Sm90_tensorMap"
                      ? analysis::MemKind::SpecialWindow
                      : analysis::MemKind::Memory;
      check_memory(a.type.mem, want, "'" + a.name.name + "'", a.type.loc);
      check_tensor_map_rank(a.type.mem, a.type.shape.size(), a.type.loc);
      continue;
    }
    check_type(a.type, a.name.name, true);
  }
  if (p.is_instr) {
    check_attrs(p);
  } else if (!p.attrs.empty()) {
    diag_.report(p.attrs.front().loc, DiagKind::AttrOnProc, p.attrs.front().key, p.name);
  }
  for (const Expr &pred : p.preds) {
    report_nested_aligned(pred, true, diag_);
    ValueType t = check_expr(pred, Use::Assert);
    if (t != ValueType::Bool && t != ValueType::Meta)
      diag_.report(pred->loc, DiagKind::ConditionNotBool, "assert condition", value_type_name(t));
  }
  check_block(p.body);
  return diag_.num_errors() == errors_at_start_;
}

void Checker::check_block(const Block &b) {
  for (const Stmt &s : b)
    check_stmt(s);
}

void Checker::check_write(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc) {
  const Declared *b = lookup(buf, loc);
  if (!b)
    return;
  if (b->kind != Declared::Kind::Data) {
    diag_.report(loc, DiagKind::WriteToNonData, buf.name, b->describe());
    return;
  }
  if (!b->read_only.empty())
    diag_.report(loc, DiagKind::WriteToReadOnly, buf.name, b->read_only)
        .note(b->decl, "'" + buf.name + "' declared here");
  if (idx.size() != b->rank()) {
    diag_.report(loc, DiagKind::WrongIndexCount, buf.name, b->rank(), idx.size());
    return;
  }
  check_indices(idx);
}

void Checker::check_stmt(const Stmt &s) {
  switch (s->kind) {
  case StmtKind::Assign:
  case StmtKind::Reduce: {
    const auto *a = s.as<Assign>();
    const auto *r = s.as<Reduce>();
    const Sym &buf = a ? a->buf : r->buf;
    check_write(buf, a ? a->idx : r->idx, s->loc);
    const Expr &rhs = a ? a->rhs : r->rhs;
    ValueType t = check_expr(rhs, Use::Data);
    if (t == ValueType::Bool)
      diag_.report(rhs->loc, DiagKind::ControlInData, show(rhs), "bool");
    return;
  }
  case StmtKind::Alloc: {
    const auto *a = s.as<Alloc>();
    check_type(a->type, a->name.name, false);
    declare(binding_of(a->name, a->type, s->loc));
    return;
  }
  case StmtKind::WindowStmt: {
    const auto *w = s.as<WindowStmt>();
    const auto *we = w->rhs.as<WindowExpr>();
    const Declared *base = lookup(we->buf, we->loc);
    Declared b;
    b.sym = w->name;
    b.decl = s->loc;
    b.is_window = true;
    if (base && base->kind != Declared::Kind::Data) {
      diag_.report(we->loc, DiagKind::NotAValue, we->buf.name, base->describe());
      base = nullptr;
    }
    if (base) {
      b.type = base->type;
      b.read_only = base->read_only;
      if (we->idx.size() != base->rank()) {
        diag_.report(we->loc, DiagKind::WrongIndexCount, we->buf.name, base->rank(),
                     we->idx.size());
      } else {
        for (size_t d = 0; d < we->idx.size(); ++d) {
          const WindowIdx &wi = we->idx[d];
          if (wi.lo)
            check_expr(wi.lo, Use::Index);
          if (wi.hi)
            check_expr(wi.hi, Use::Index);
          if (!wi.is_slice)
            continue;
          Expr lo = wi.lo ? wi.lo : IntImm::make(0, we->loc);
          Expr hi = wi.hi ? wi.hi : base->shape[d];
          b.shape.push_back(wi.lo ? BinOp::make(BinOpKind::Sub, hi, lo, we->loc) : hi);
        }
      }
      b.mem = w->mem ? w->mem : base->mem;
    }
    if (w->mem) {
      check_memory(w->mem, analysis::MemKind::SpecialWindow, "window statement", s->loc);
      check_tensor_map_rank(w->mem, b.rank(), s->loc);
      std::string base_mem = base ? analysis::memory_name(base->mem) : "CudaGmemLinear";
      if (analysis::memory_name(w->mem) == "Sm90_tensorMap" && base_mem != "CudaGmemLinear")
        diag_.report(we->loc, DiagKind::TensorMapSource, we->buf.name,
                     base_mem.empty() ? "DRAM" : base_mem)
            .note(base->decl, "'" + we->buf.name + "' declared here");
      b.read_only = "it is a tensor map; only TMA instructions read it";
    }
    declare(b);
    return;
  }
  case StmtKind::For: {
    const auto *f = s.as<For>();
    for (const Expr *e : {&f->lo, &f->hi}) {
      ValueType t = check_expr(*e, Use::Bound);
      if (t == ValueType::Bool)
        diag_.report((*e)->loc, DiagKind::NotAnIndex, "loop bound", show(*e), "bool");
    }
    check_loop_mode(*f);
    ScopeGuard g(*this);
    Declared it;
    it.kind = Declared::Kind::Control;
    it.sym = f->iter;
    it.type = ValueType::Index;
    it.is_iter = true;
    it.decl = s->loc;
    declare(it);
    check_block(f->body);
    return;
  }
  case StmtKind::If: {
    const auto *i = s.as<If>();
    ValueType t = check_expr(i->cond, Use::Cond);
    if (t != ValueType::Bool && t != ValueType::Meta)
      diag_.report(i->cond->loc, DiagKind::ConditionNotBool, "'if' condition", value_type_name(t));
    {
      ScopeGuard g(*this);
      check_block(i->then_body);
    }
    ScopeGuard g(*this);
    check_block(i->else_body);
    return;
  }
  case StmtKind::Pass:
    return;
  case StmtKind::CallStmt:
    check_call(*s.as<CallStmt>());
    return;
  case StmtKind::With: {
    const auto *w = s.as<With>();
    check_context(*w);
    ScopeGuard g(*this);
    check_block(w->body);
    return;
  }
  case StmtKind::Fence: {
    const auto *f = s.as<Fence>();
    for (const std::string *tl : {&f->first, &f->second})
      if (!analysis::is_sync_timeline(*tl))
        diag_.report(s->loc, DiagKind::UnknownTimeline, "synchronization", *tl);
    return;
  }
  case StmtKind::Arrive: {
    const auto *a = s.as<Arrive>();
    if (!analysis::is_sync_timeline(a->timeline))
      diag_.report(s->loc, DiagKind::UnknownTimeline, "synchronization", a->timeline);
    for (const Expr &b : a->barriers)
      check_barrier_ref(b, "'Arrive'", true);
    // One Arrive is one arrival on one barrier; several expressions list its
    // elements in several CTAs of a cluster (`>> bar[cta, k] >> bar[:, k]`).
    for (const Expr &b : a->barriers) {
      const Sym *first = named_buffer(a->barriers[0]), *here = named_buffer(b);
      if (first && here && first->id != here->id) {
        diag_.report(b->loc, DiagKind::ArriveBarriersDiffer, here->name, first->name)
            .note(a->barriers[0]->loc, "'" + first->name + "' is named here");
        break;
      }
    }
    return;
  }
  case StmtKind::Await: {
    const auto *a = s.as<Await>();
    check_barrier_ref(a->bar, "'Await'", false);
    if (!analysis::is_sync_timeline(a->timeline))
      diag_.report(s->loc, DiagKind::UnknownTimeline, "synchronization", a->timeline);
    const auto *n = a->n.as<IntImm>();
    if (!n || n->value < 0)
      diag_.report(a->n->loc, DiagKind::AwaitCount, show(a->n));
    return;
  }
  }
  EXGC_UNREACHABLE("stmt kind");
}

} // namespace tc

bool typecheck(const Program &program, DiagEngine &diag) {
  unsigned before = diag.num_errors();
  std::set<const ProcNode *> seen, failed;
  std::vector<const ProcNode *> order;
  for (const auto &lm : program.modules) {
    for (const Decl &d : lm->module.decls) {
      const Proc *p = std::get_if<Proc>(&d);
      if (!p || !*p || !seen.insert(p->get()).second)
        continue;
      order.push_back(p->get());
      tc::Checker checker(program, diag);
      if (!checker.check_proc(**p))
        failed.insert(p->get());
    }
  }
  // A proc on a cycle of calls has no meaning that ends (call_cycles.h).
  tc::check_call_cycles(program, order, diag, failed);
  // The exact checks assume well-typed IR: they run on procs that passed, and
  // look into a callee (its asserts, its behavior) only when it passed too.
  for (const ProcNode *p : order)
    if (!failed.count(p))
      tc::check_bounds(program, *p, failed, diag);
  return diag.num_errors() == before;
}

bool typecheck_proc(const Program &program, const ProcNode &p, DiagEngine &diag) {
  unsigned before = diag.num_errors();
  tc::Checker checker(program, diag);
  if (!checker.check_proc(p))
    return false;
  // Callees were checked with the whole program; an ill-typed one stopped the
  // compilation before any schedule ran.
  tc::check_bounds(program, p, {}, diag);
  return diag.num_errors() == before;
}

} // namespace exgc
