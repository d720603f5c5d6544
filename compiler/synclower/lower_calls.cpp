// lower_calls.cpp - instruction calls as accesses --------------------------//
// Owns: what an instruction's behaviour does with each data parameter
// (worked out once per instruction), the data arguments of a call with
// those uses, and an instruction call lowered to one access per argument in
// tracked memory on its timeline, with its trailing barriers. The class is
// declared in lowerer.h.
#include "compiler/synclower/lowerer.h"

#include "compiler/analysis/effects.h"
#include "compiler/ir/instr_args.h"
#include "compiler/ir/printer.h"
#include "compiler/support/check.h"

namespace exgc::synclower::lower_detail {

const std::map<uint32_t, Lowerer::ParamUse> &Lowerer::param_uses(const ProcNode &instr) {
  auto [it, fresh] = param_uses_.try_emplace(&instr);
  if (!fresh)
    return it->second;
  analysis::EffectCollector ec(instr, [this](const std::string &n) -> const ProcNode * {
    Proc p = callee_ ? callee_(n) : nullptr;
    return p.get();
  });
  for (const analysis::Access &a : ec.of(instr.body).accesses) {
    ParamUse &u = it->second[a.buf.id];
    u.read |= a.kind == analysis::AccessKind::Read;
    u.written |= a.kind == analysis::AccessKind::Write;
    u.reduced |= a.kind == analysis::AccessKind::Reduce;
  }
  return it->second;
}

std::vector<std::pair<Lowerer::ParamUse, Expr>> Lowerer::instr_data_args(const CallStmt &c) {
  std::vector<std::pair<ParamUse, Expr>> out;
  Proc callee = callee_ ? callee_(c.callee) : nullptr;
  if (!callee || !callee->is_instr)
    return out;
  const std::map<uint32_t, ParamUse> &uses = param_uses(*callee);
  std::vector<Expr> bound = bind_instr_args(c, *callee);
  for (size_t i = 0; i < callee->args.size(); ++i) {
    const Arg &p = callee->args[i];
    if (p.type.kind != Type::Kind::Data || !bound[i])
      continue;
    auto found = uses.find(p.name.id);
    ParamUse u = found == uses.end() ? ParamUse{} : found->second;
    u.param = &p;
    if (u.read || u.written || u.reduced)
      out.push_back({u, bound[i]});
  }
  return out;
}

void Lowerer::call(const CallStmt *c) {
  Proc callee = callee_ ? callee_(c->callee) : nullptr;
  if (!callee || !callee->is_instr)
    return void(unsupported(c->loc, "a call of the proc '" + c->callee + "' (inline it)"));
  if (!kernel_)
    return void(unsupported(c->loc, "an instruction call on the host"));
  const InstrAttr *tl = callee->attr("timeline");
  AccessFlags base;
  if (tl && !tl->values.empty()) {
    std::optional<analysis::InstrTimeline> named =
        analysis::instr_timeline(print_expr(tl->values[0]));
    EXGC_CHECK(named) << "instr '" << callee->name << "': a timeline the typecheck refuses";
    base.timeline = *named;
  }
  for (const Expr &b : c->barriers)
    if (auto ref = barrier_ref(b))
      base.bars.push_back(*ref);
  for (const auto &[use, arg] : instr_data_args(*c)) {
    AccessFlags f = base;
    f.kind = use.reduced || (use.read && use.written) ? sync::AccessKind::Update
             : use.written                             ? sync::AccessKind::Write
                                                       : sync::AccessKind::Read;
    f.ooo = instr_attr_names(*callee, "out_of_order", use.param->name.name);
    // `atomic: dst`: the hardware adds element by element atomically (TMA
    // reduce-add stores), so such updates commute with each other. The
    // typecheck made sure the behaviour only adds into it
    // (AtomicNotReduction).
    f.atomic = instr_attr_names(*callee, "atomic", use.param->name.name);
    EXGC_CHECK(!f.atomic || (use.reduced && !use.read && !use.written))
        << "atomic parameter " << use.param->name.name << " of " << callee->name
        << " is not only reduced into";
    // Atomic float adds commute only up to rounding: the check accepts them
    // in any order, so the caller says the result is defined that far.
    const ValueType t = use.param->type.scalar;
    if (f.atomic && t != ValueType::I8 && t != ValueType::U8 && t != ValueType::U16 &&
        t != ValueType::I32)
      if (const Sym *buf = named_buffer(arg))
        out_.reassociated.push_back({c->loc, callee->name, buf->name});
    // A window is clipped to its buffer: what the behaviour
    // touches of it the bounds check proved in bounds (guarded stores,
    // `out_of_bounds:` TMA boxes); the rest is never accessed.
    f.clip = true;
    if (const auto *win = arg.as<WindowExpr>())
      access(win->buf, window_coords(*win), c->loc, f);
    else if (const auto *rd = arg.as<Read>())
      access(rd->buf, points(rd->idx), c->loc, f);
    else if (const auto *v = arg.as<Var>())
      access(v->name, {}, c->loc, f);
  }
}

} // namespace exgc::synclower::lower_detail
