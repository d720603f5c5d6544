// typecheck_call.cpp - calls, memories, GPU annotations, instr attributes --//
// Owns: checking a call against its callee's signature (positional args by
// kind, rank, element type and memory; template args by keyword; trailing
// barriers against `barrier:`), memory annotations against the table in
// analysis/memories.h, loop modes, units, `with` contexts, barrier references
// of sync statements, and the attribute lines of instrs. Shapes and callee
// asserts need the solver: typecheck_bounds.cpp checks them.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "compiler/analysis/effects.h"
#include "compiler/analysis/gpu_names.h"
#include "compiler/frontend/typecheck_internal.h"
#include "compiler/ir/fold.h"
#include "compiler/ir/instr_args.h"
#include "compiler/ir/printer.h"

namespace exgc::tc {

namespace {

std::vector<std::string> template_params(const ProcNode &p) {
  std::vector<std::string> names;
  if (const InstrAttr *t = p.attr("template"))
    for (const Expr &e : t->values)
      if (const auto *v = e.as<Var>())
        names.push_back(v->name.name);
  return names;
}

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// The memory of parameter `param` with the call's arguments put in
/// (`Sm90_tensorMap(128, rows, cols)` at rows=64, cols=32 is
/// `Sm90_tensorMap(128, 64, 32)`), when it differs from the argument's in a
/// parameter that is a constant in both: the swizzle and box the
/// instruction's code assumes are then not the ones the data has.
std::optional<std::string> memory_param_mismatch(const CallStmt &c, const ProcNode &callee,
                                                 const Arg &param, const Expr &arg_mem) {
  analysis::MemoryRef want = analysis::resolve_memory(param.type.mem);
  analysis::MemoryRef got = analysis::resolve_memory(arg_mem);
  if (!want || !got || want.params.empty())
    return std::nullopt;
  std::vector<Expr> bound = bind_instr_args(c, callee);
  std::map<uint32_t, Expr> values;
  for (size_t i = 0; i < callee.args.size() && i < bound.size(); ++i)
    if (bound[i] && bound[i].as<IntImm>())
      values[callee.args[i].name.id] = bound[i];
  bool differs = want.params.size() != got.params.size();
  std::string text;
  for (size_t i = 0; i < want.params.size(); ++i) {
    Expr w = fold_constants(analysis::substitute(want.params[i], values));
    const auto *wi = w.as<IntImm>();
    const auto *gi = i < got.params.size() ? fold_constants(got.params[i]).as<IntImm>()
                                           : nullptr;
    differs |= wi && gi && wi->value != gi->value;
    text += (i ? ", " : "") + print_expr(w);
  }
  if (!differs)
    return std::nullopt;
  return want.info->name + ("(" + text + ")");
}

std::string kind_of_param(const Arg &a) {
  switch (a.type.kind) {
  case Type::Kind::Control: return std::string("a '") + value_type_name(a.type.scalar) + "' value";
  case Type::Kind::Barrier: return "a barrier";
  case Type::Kind::Data:
    if (a.type.window)
      return "a window";
    return a.type.shape.empty() ? "a data value" : "a tensor";
  }
  EXGC_UNREACHABLE("type kind");
}

const char *mem_kind_name(analysis::MemKind k) {
  switch (k) {
  case analysis::MemKind::Memory: return "memory";
  case analysis::MemKind::BarrierMechanism: return "barrier mechanism";
  case analysis::MemKind::SpecialWindow: return "special window";
  }
  EXGC_UNREACHABLE("mem kind");
}

} // namespace

void Checker::check_memory(const Expr &mem, analysis::MemKind want, const std::string &what,
                           SrcLoc at) {
  analysis::MemoryRef m = analysis::resolve_memory(mem);
  SrcLoc loc = mem ? mem->loc : at;
  if (!m) {
    std::string name = analysis::memory_name(mem);
    diag_.report(loc, DiagKind::UnknownMemory, name.empty() ? show(mem) : name);
    return;
  }
  if (m.info->kind != want) {
    diag_.report(loc, DiagKind::MemoryKindMismatch, m.info->name, mem_kind_name(m.info->kind),
                 what, mem_kind_name(want));
    return;
  }
  if (std::string why = analysis::memory_param_count_error(*m.info, m.params.size());
      !why.empty()) {
    diag_.report(loc, DiagKind::MemoryParams, m.info->name, why);
    return;
  }
  for (const KwArg &k : m.kwargs) {
    bool ok = false;
    for (const char *const *p = m.info->kwargs; *p; ++p)
      ok |= k.key == *p;
    if (!ok) {
      diag_.report(k.loc.valid() ? k.loc : loc, DiagKind::UnknownKeyword, m.info->name, k.key);
      continue;
    }
    const auto *v = k.value.as<IntImm>();
    if (!v || v->value < 0)
      diag_.report(k.value->loc, DiagKind::MemoryParams, m.info->name,
                   "needs a non-negative integer literal for '" + k.key + "'");
  }
  for (const Expr &p : m.params)
    if (check_expr(p, Use::Extent) == ValueType::Bool)
      diag_.report(p->loc, DiagKind::MemoryParams, m.info->name, "takes integer parameters");
  std::string name = m.info->name;
  int64_t p0 = m.int_param(0, -1);
  // An instruction's signature may name its swizzle by a template parameter
  // (tma_load_3d(sw, ...)); each call then passes a tile whose literal
  // swizzle must equal it (memory_param_mismatch).
  const bool instr_template = proc_ && proc_->is_instr && !m.params.empty() &&
                              m.params[0].as<Var>() &&
                              contains(template_params(*proc_), m.params[0].as<Var>()->name.name);
  if (name == "Sm90_SmemSwizzled" && p0 != 32 && p0 != 64 && p0 != 128 && !instr_template)
    diag_.report(m.params[0]->loc, DiagKind::MemoryParams, name,
                 "takes a swizzle of 32, 64 or 128 bytes");
  if (name == "Sm90_tensorMap" && m.params[0].as<IntImm>() && p0 != 0 && p0 != 32 && p0 != 64 &&
      p0 != 128)
    diag_.report(m.params[0]->loc, DiagKind::MemoryParams, name,
                 "takes a swizzle of 0, 32, 64 or 128 bytes");
  if (name == "CudaRmemUniform" && m.params[0].as<IntImm>() && p0 <= 0)
    diag_.report(m.params[0]->loc, DiagKind::MemoryParams, name,
                 "takes a positive thread count");
}

void Checker::check_tensor_map_rank(const Expr &mem, size_t rank, SrcLoc at) {
  analysis::MemoryRef m = analysis::resolve_memory(mem);
  if (!m || m.info->num_params != analysis::kTensorMapParams || m.params.size() < 2 ||
      m.params.size() == rank + 1)
    return;
  diag_.report(at, DiagKind::MemoryParams, m.info->name,
               "takes a swizzle and one box extent per dimension (" + std::to_string(rank) +
                   "), got " + std::to_string(m.params.size() - 1) + " extent(s)");
}

void Checker::check_barrier_ref(const Expr &e, const char *where, bool allow_slices) {
  Sym s;
  size_t nidx = 0;
  if (const auto *v = e.as<Var>()) {
    s = v->name;
  } else if (const auto *r = e.as<Read>()) {
    s = r->buf;
    nidx = r->idx.size();
  } else if (const auto *w = e.as<WindowExpr>()) {
    s = w->buf;
    nidx = w->idx.size();
  } else {
    diag_.report(e->loc, DiagKind::NotABarrier, show(e));
    return;
  }
  const Declared *b = lookup(s, e->loc);
  if (!b)
    return;
  if (b->kind != Declared::Kind::Barrier) {
    diag_.report(e->loc, DiagKind::NotABarrier, s.name)
        .note(b->decl, "'" + s.name + "' declared here");
    return;
  }
  if (nidx != b->rank()) {
    diag_.report(e->loc, DiagKind::WrongIndexCount, s.name, b->rank(), nidx);
    return;
  }
  if (const auto *r = e.as<Read>())
    check_indices(r->idx);
  if (const auto *w = e.as<WindowExpr>())
    for (const WindowIdx &wi : w->idx) {
      if (wi.is_slice && !allow_slices) {
        diag_.report(e->loc, DiagKind::BarrierSlice, show(e), where, s.name);
        return;
      }
      for (const Expr *x : {&wi.lo, &wi.hi})
        if (*x)
          check_indices({*x});
    }
}

void Checker::check_call(const CallStmt &c) {
  Proc callee = callee_of(c);
  if (!callee)
    return;
  const ProcNode &p = *callee;
  std::vector<std::string> tparams = template_params(p);
  std::vector<const Arg *> positional;
  for (const Arg &a : p.args)
    if (!contains(tparams, a.name.name))
      positional.push_back(&a);
  if (c.args.size() != positional.size()) {
    diag_.report(c.loc, DiagKind::CallArgCount, p.name, positional.size(), c.args.size())
        .note(p.loc, "'" + p.name + "' declared here");
  }
  for (size_t i = 0; i < std::min(c.args.size(), positional.size()); ++i)
    check_call_arg(c, p, *positional[i], c.args[i]);
  check_template_args(c, p, tparams);
  check_trailing_barriers(c, p);
}

Proc Checker::callee_of(const CallStmt &c) {
  if (Proc callee = program_.lookup_from(proc_, c.callee))
    return callee;
  const LoadedModule *owner = program_.owner(proc_);
  auto amb = owner ? owner->ambiguous.find(c.callee) : decltype(owner->ambiguous.end()){};
  if (owner && amb != owner->ambiguous.end()) {
    std::string mods;
    for (const std::string &m : amb->second)
      mods += (mods.empty() ? "" : ", ") + m;
    diag_.report(c.loc, DiagKind::AmbiguousCallee, c.callee, mods);
  } else {
    diag_.report(c.loc, DiagKind::UnknownCallee, c.callee);
  }
  return nullptr;
}

void Checker::check_call_arg(const CallStmt &c, const ProcNode &p, const Arg &param,
                             const Expr &actual) {
  const std::string &pn = param.name.name;
  if (param.type.kind == Type::Kind::Control) {
    if (const Declared *whole = whole_buffer(actual)) {
      diag_.report(actual->loc, DiagKind::CallArgKind, pn, p.name, kind_of_param(param),
                   "a " + whole->describe());
      return;
    }
    ValueType t = check_expr(actual, Use::ControlArg);
    bool want_bool = param.type.scalar == ValueType::Bool;
    if (t != ValueType::Meta && (t == ValueType::Bool) != want_bool)
      diag_.report(actual->loc, DiagKind::CallArgKind, pn, p.name, kind_of_param(param),
                   std::string("a '") + value_type_name(t) + "' value");
    return;
  }
  if (param.type.kind == Type::Kind::Barrier) {
    check_barrier_ref(actual, "a call", true);
    return;
  }
  if (param.type.shape.empty()) { // a data scalar, passed by value
    ValueType t = check_expr(actual, Use::Data);
    if (t == ValueType::Bool)
      diag_.report(actual->loc, DiagKind::ControlInData, show(actual), "bool");
    return;
  }
  size_t rank = 0;
  if (const Declared *b = tensor_arg(p, param, actual, rank))
    check_tensor_arg(c, p, param, actual, *b, rank);
}

/// A tensor or window parameter's argument: a whole buffer, or (for windows)
/// a window expression. The buffer it names and the argument's `rank`; null
/// after reporting (or when its name was already reported unknown).
const Declared *Checker::tensor_arg(const ProcNode &p, const Arg &param, const Expr &actual,
                                    size_t &rank) {
  const std::string &pn = param.name.name;
  if (const auto *we = actual.as<WindowExpr>()) {
    const Declared *b = lookup(we->buf, actual->loc);
    if (b && b->kind != Declared::Kind::Data) {
      diag_.report(actual->loc, DiagKind::CallArgKind, pn, p.name, kind_of_param(param),
                   "a " + b->describe());
      return nullptr;
    }
    if (b && we->idx.size() != b->rank()) {
      diag_.report(actual->loc, DiagKind::WrongIndexCount, we->buf.name, b->rank(),
                   we->idx.size());
      return nullptr;
    }
    for (const WindowIdx &wi : we->idx) {
      rank += wi.is_slice;
      for (const Expr *x : {&wi.lo, &wi.hi})
        if (*x)
          check_indices({*x});
    }
    if (b && !param.type.window) {
      diag_.report(actual->loc, DiagKind::CallArgKind, pn, p.name, kind_of_param(param),
                   "a window");
      return nullptr;
    }
    return b;
  }
  const Declared *b = whole_buffer(actual);
  if (!b) {
    ValueType t = ValueType::Meta;
    const Declared *any = nullptr;
    if (const auto *v = actual.as<Var>())
      any = lookup(v->name, actual->loc);
    else
      t = check_expr(actual, Use::Data);
    std::string got =
        any ? "a " + any->describe() : std::string("a '") + value_type_name(t) + "' value";
    if (any || t != ValueType::Meta)
      diag_.report(actual->loc, DiagKind::CallArgKind, pn, p.name, kind_of_param(param), got);
    return nullptr;
  }
  rank = b->rank();
  if (b->is_window && !param.type.window) {
    diag_.report(actual->loc, DiagKind::CallArgKind, pn, p.name, kind_of_param(param),
                 "a window");
    return nullptr;
  }
  return b;
}

/// The argument's rank, element type and memory against the parameter's.
void Checker::check_tensor_arg(const CallStmt &c, const ProcNode &p, const Arg &param,
                               const Expr &actual, const Declared &b, size_t rank) {
  const std::string &pn = param.name.name;
  if (rank != param.type.shape.size()) {
    diag_.report(actual->loc, DiagKind::CallArgRank, pn, p.name, param.type.shape.size(), rank);
    return;
  }
  if (param.type.scalar != ValueType::R && b.type != ValueType::R && b.type != param.type.scalar)
    diag_.report(actual->loc, DiagKind::CallArgType, pn, p.name, value_type_name(b.type),
                 value_type_name(param.type.scalar));
  std::string want = analysis::memory_name(param.type.mem);
  std::string got = analysis::memory_name(b.mem);
  if (want.empty())
    want = "DRAM";
  if (got.empty())
    got = "DRAM";
  if (want != got && analysis::find_memory(want) && analysis::find_memory(got)) {
    diag_.report(actual->loc, DiagKind::CallArgMemory, pn, p.name, got, want)
        .note(param.loc.valid() ? param.loc : param.type.loc, "'" + pn + "' declared here");
  } else if (auto expected = memory_param_mismatch(c, p, param, b.mem)) {
    diag_.report(actual->loc, DiagKind::CallArgMemory, pn, p.name, print_expr(b.mem), *expected)
        .note(b.decl, "'" + b.sym.name + "' declared here");
  }
}

/// Template arguments, by keyword: each parameter once, as a constant.
void Checker::check_template_args(const CallStmt &c, const ProcNode &p,
                                  const std::vector<std::string> &tparams) {
  std::set<std::string> given;
  for (const KwArg &k : c.kwargs) {
    SrcLoc kl = k.loc.valid() ? k.loc : c.loc;
    if (!contains(tparams, k.key)) {
      auto d = diag_.report(kl, DiagKind::UnknownKeywordArg, k.key, p.name);
      if (const InstrAttr *t = p.attr("template"))
        d.note(t->loc, "template parameters of '" + p.name + "' are declared here");
      continue;
    }
    if (!given.insert(k.key).second) {
      diag_.report(kl, DiagKind::DuplicateKeywordArg, k.key);
      continue;
    }
    if (!k.value.as<IntImm>()) {
      diag_.report(k.value->loc, DiagKind::TemplateArgNotConstant, k.key);
      continue;
    }
  }
  for (const std::string &t : tparams)
    if (!given.count(t))
      diag_.report(c.loc, DiagKind::MissingKeywordArg, t, p.name);
}

/// Trailing barriers: where the callee declares one, of its mechanism.
void Checker::check_trailing_barriers(const CallStmt &c, const ProcNode &p) {
  const InstrAttr *bar = p.attr("barrier");
  std::string mech;
  if (bar && !bar->values.empty()) {
    const Expr &v = bar->values[0];
    if (const auto *r = v.as<Read>())
      mech = r->buf.name;
    else
      mech = analysis::memory_name(v);
  }
  if (!bar && !c.barriers.empty())
    diag_.report(c.barriers[0]->loc, DiagKind::TrailingBarrierNotAllowed, p.name);
  if (bar && c.barriers.empty())
    diag_.report(c.loc, DiagKind::MissingTrailingBarrier, p.name, mech)
        .note(bar->loc, "declared here");
  for (const Expr &e : c.barriers) {
    unsigned before = diag_.num_errors();
    check_barrier_ref(e, "a trailing barrier", true);
    if (diag_.num_errors() != before || !bar)
      continue;
    Sym s = e.as<Read>() ? e.as<Read>()->buf
          : e.as<WindowExpr>() ? e.as<WindowExpr>()->buf : e.as<Var>()->name;
    auto it = bindings_.find(s.id);
    std::string got = it == bindings_.end() ? "" : analysis::memory_name(it->second.mem);
    if (!mech.empty() && got != mech)
      diag_.report(e->loc, DiagKind::TrailingBarrierMechanism, s.name, got, p.name, mech);
  }
}

void Checker::check_loop_mode(const For &f) {
  const LoopMode &m = f.mode;
  if (!analysis::is_loop_mode(m.name)) {
    diag_.report(f.loc, DiagKind::UnknownLoopMode, m.name);
    return;
  }
  for (const KwArg &k : m.kwargs) {
    SrcLoc kl = k.loc.valid() ? k.loc : f.loc;
    if (!analysis::loop_mode_accepts(m.name, k.key)) {
      diag_.report(kl, DiagKind::UnknownKeyword, m.name, k.key);
      continue;
    }
    if (k.key == "unroll") {
      const auto *v = k.value.as<IntImm>();
      if (!v || v->value <= 0)
        diag_.report(k.value->loc, DiagKind::BadUnroll, show(k.value));
    } else if (k.key == "unit") {
      check_unit(k.value);
    }
  }
}

void Checker::check_unit(const Expr &u) {
  if (const auto *v = u.as<Var>()) {
    if (!analysis::is_unit_name(v->name.name))
      diag_.report(u->loc, DiagKind::UnknownUnit, v->name.name);
    return;
  }
  if (const auto *b = u.as<BinOp>(); b && b->op == BinOpKind::Mul) {
    // `k * U`: k an integer literal or a control value (a template parameter).
    check_expr(b->a, Use::ControlArg);
    check_unit(b->b);
    return;
  }
  if (const auto *c = u.as<Call>()) {
    int n = analysis::unit_function_arity(c->func);
    if (n < 0) {
      diag_.report(u->loc, DiagKind::UnknownUnit, c->func);
      return;
    }
    if (c->args.size() != static_cast<size_t>(n) || !c->kwargs.empty()) {
      diag_.report(u->loc, DiagKind::BuiltinArgs, c->func,
                   "takes " + std::to_string(n) + " positional arguments, got " +
                       std::to_string(c->args.size()));
      return;
    }
    for (const Expr &a : c->args)
      check_expr(a, Use::ControlArg);
    return;
  }
  diag_.report(u->loc, DiagKind::UnknownUnit, show(u));
}

void Checker::check_context(const With &w) {
  const std::string &name = w.context_name();
  const Call *c = w.ctx.as<Call>();
  if (!analysis::is_context(name)) {
    diag_.report(w.ctx->loc, DiagKind::UnknownContext, name.empty() ? show(w.ctx) : name);
    return;
  }
  if (!c) // every later stage reads a context's arguments from the call
    return void(diag_.report(w.ctx->loc, DiagKind::BuiltinArgs, name,
                             "is written as a call: '" + name + "(...)'"));
  for (const KwArg &k : c->kwargs) {
    if (!analysis::context_accepts(name, k.key)) {
      diag_.report(k.loc.valid() ? k.loc : w.ctx->loc, DiagKind::UnknownKeyword, name, k.key);
      continue;
    }
    if (analysis::context_wants_literal(k.key)) {
      const auto *v = k.value.as<IntImm>();
      if (!v || v->value <= 0)
        diag_.report(k.value->loc, DiagKind::BuiltinArgs, name,
                     "needs a positive integer literal for '" + k.key + "'");
    }
  }
  if (name == "CudaWarps")
    for (const Expr &a : c->args)
      check_expr(a, Use::Bound);
  else if (!c->args.empty())
    diag_.report(c->args[0]->loc, DiagKind::BuiltinArgs, name, "takes keyword arguments only");
}

// An `atomic:` parameter is one the hardware updates with atomic adds, which
// commute: the sync checker relies on the behaviour only adding into it.
void Checker::check_atomic_param(const ProcNode &instr, const Arg &param, SrcLoc at) {
  analysis::EffectCollector effects(instr, [&](const std::string &n) -> const ProcNode * {
    Proc c = program_.lookup_from(proc_, n);
    return c.get();
  });
  for (const analysis::Access &acc : effects.of(instr.body).accesses)
    if (acc.buf.id == param.name.id && acc.kind != analysis::AccessKind::Reduce) {
      diag_.report(at, DiagKind::AtomicNotReduction, param.name.name, instr.name,
                   acc.kind == analysis::AccessKind::Read ? "reads" : "assigns")
          .note(acc.loc, "'" + acc.text + "' here");
      return;
    }
}

void Checker::check_attrs(const ProcNode &p) {
  std::set<std::string> seen;
  std::vector<std::string> params;
  for (const Arg &a : p.args)
    params.push_back(a.name.name);
  auto param_name = [&](const Expr &e, const InstrAttr &attr) -> const Arg * {
    std::string n;
    if (const auto *v = e.as<Var>())
      n = v->name.name;
    else if (const auto *r = e.as<Read>())
      n = r->buf.name;
    if (n.empty() || !p.find_arg(n)) {
      diag_.report(e->loc, DiagKind::AttrNotParam, n.empty() ? show(e) : n, attr.key, p.name);
      return nullptr;
    }
    return p.find_arg(n);
  };
  for (const InstrAttr &a : p.attrs) {
    if (!analysis::is_instr_attr(a.key)) {
      diag_.report(a.loc, DiagKind::UnknownInstrAttr, a.key);
      continue;
    }
    if (!seen.insert(a.key).second) {
      diag_.report(a.loc, DiagKind::DuplicateInstrAttr, a.key);
      continue;
    }
    auto expect = [&](const char *what) { diag_.report(a.loc, DiagKind::AttrValue, a.key, what); };
    if (a.key == "template" || a.key == "out_of_order" || a.key == "out_of_bounds" ||
        a.key == "atomic") {
      for (const Expr &e : a.values) {
        const Arg *arg = param_name(e, a);
        if (!arg)
          continue;
        bool control = arg->type.kind == Type::Kind::Control;
        if (a.key == "template" && (!control || arg->type.scalar == ValueType::Bool))
          diag_.report(e->loc, DiagKind::TemplateParamType, arg->name.name,
                       control ? "bool" : "data");
        if (a.key != "template" && arg->type.kind != Type::Kind::Data)
          diag_.report(e->loc, DiagKind::AttrValue, a.key, "tensor or window parameters");
        else if (a.key == "atomic")
          check_atomic_param(p, *arg, e->loc);
      }
    } else if (a.key == "collective") {
      if (a.values.size() != 1)
        expect("one collective unit");
      else
        check_unit(a.values[0]);
    } else if (a.key == "timeline") {
      const auto *v = a.values.size() == 1 ? a.values[0].as<Var>() : nullptr;
      if (!v)
        expect("one instruction timeline name");
      else if (!analysis::is_instr_timeline(v->name.name))
        diag_.report(a.values[0]->loc, DiagKind::UnknownTimeline, "instruction", v->name.name);
    } else if (a.key == "distributed") {
      for (const Expr &e : a.values) {
        const auto *r = e.as<Read>();
        if (!r) {
          diag_.report(e->loc, DiagKind::AttrValue, a.key, "'x[unit, ...]' entries");
          continue;
        }
        if (param_name(e, a))
          for (const Expr &u : r->idx)
            check_unit(u);
      }
    } else if (a.key == "barrier") {
      if (a.values.size() != 1) {
        expect("one barrier mechanism");
        continue;
      }
      const Expr &v = a.values[0];
      std::string mech = v.as<Read>() ? v.as<Read>()->buf.name : analysis::memory_name(v);
      const analysis::MemoryInfo *m = analysis::find_memory(mech);
      if (!m)
        diag_.report(v->loc, DiagKind::UnknownMemory, mech.empty() ? show(v) : mech);
      else if (m->kind != analysis::MemKind::BarrierMechanism)
        diag_.report(v->loc, DiagKind::MemoryKindMismatch, mech, mem_kind_name(m->kind),
                     "'barrier:'", "barrier mechanism");
      if (const auto *r = v.as<Read>())
        for (const Expr &u : r->idx)
          check_unit(u);
    } else if (a.key == "emit") {
      const auto *s = a.values.size() == 1 ? a.values[0].as<StrImm>() : nullptr;
      if (!s) {
        expect("one string");
        continue;
      }
      // Every `{hole}` names a parameter, or the trailing barrier's `bar` / `cta_mask`.
      const std::string &t = s->value;
      for (size_t i = t.find('{'); i != std::string::npos; i = t.find('{', i + 1)) {
        size_t j = t.find('}', i);
        if (j == std::string::npos)
          break;
        std::string hole = t.substr(i + 1, j - i - 1);
        bool barrier_hole = (hole == "bar" || hole == "cta_mask") && p.attr("barrier");
        if (!contains(params, hole) && !barrier_hole)
          diag_.report(a.values[0]->loc, DiagKind::EmitHole, "{" + hole + "}", p.name);
      }
    }
  }
}

} // namespace exgc::tc
