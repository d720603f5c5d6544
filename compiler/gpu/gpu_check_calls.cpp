// gpu_check_calls.cpp - instruction calls in a kernel ----------------------//
// Owns: KernelChecker's checks of an instruction call: it runs at exactly
// its `collective:`, its trailing barriers, and its `distributed:`
// arguments, each thread of the call owning its element; with the
// parameters' values at the call. The class is declared in
// kernel_checker.h.
#include "compiler/gpu/kernel_checker.h"

#include "compiler/analysis/effects.h"
#include "compiler/gpu/units.h"
#include "compiler/ir/instr_args.h"
#include "compiler/ir/printer.h"

namespace exgc::gpu::check_detail {

void KernelChecker::call(const CallStmt *c) {
  Proc callee = callee_ ? callee_(c->callee) : nullptr;
  if (!callee)
    return exprs(c->args); // typecheck resolved every call; codegen names what it cannot emit
  if (!callee->is_instr) {
    // Callers inline device calls first (device_calls.h); a proc given
    // here with its calls kept is not analysed.
    diag_.report(c->loc, DiagKind::GpuCheckNotSupported,
                 "a call of the proc '" + callee->name + "' in device code");
    return void(fail());
  }
  // A trailing barrier is the sync checker's; one multicast over units is
  // checked for clusters of several CTAs, whose barriers are sharded.
  const InstrAttr *bar = callee->attr("barrier");
  if (bar && (bar->values.size() != 1 ||
              (!bar->values[0].as<Var>() && facts_.config.env.cluster_dim <= 1))) {
    diag_.report(c->loc, DiagKind::GpuCheckNotSupported,
                 "a call of '" + callee->name + "', an instruction with 'barrier:' over units");
    return void(fail());
  }
  for (const Expr &b : c->barriers)
    barrier_slices(b, callee->name.c_str());
  if (!cluster_barriers_.call(c, *callee, tiling_, iters_))
    return void(fail()); // the collective checks below would only repeat it
  std::vector<Expr> bound = args_by_param(*callee, *c);
  for (size_t i = 0; i < bound.size(); ++i) {
    const Read *dist = distributed_entry(*callee, callee->args[i].name.name);
    if (dist && bound[i])
      distributed_use(*callee, *c, callee->args[i], bound[i], dist->idx);
    else
      exprs(bound[i]);
  }
  std::string err;
  const InstrAttr *coll = callee->attr("collective");
  std::optional<CollUnit> unit;
  if (coll && coll->values.size() == 1)
    unit = eval_unit(bind_params(*callee, *c, coll->values[0]), facts_.config.env, err);
  else if (!coll)
    unit = named_unit(UnitKind::StandaloneThread, facts_.config.env);
  else
    err = "'collective:' names one unit";
  std::optional<CollType> want =
      unit ? unpack_aligned(*unit, facts_.config.env, err) : std::nullopt;
  if (!want) {
    diag_.report(c->loc, DiagKind::InstrCollectiveUnit, callee->name, err);
    return void(fail());
  }
  if (!at_scope(tiling_, *want, err)) {
    std::string unit_text = coll ? print_expr(coll->values[0]) : "one thread";
    diag_.report(c->loc, DiagKind::InstrCollective, callee->name, unit_text,
                 scope_words(tiling_), err);
    fail();
  }
}

std::vector<Expr> KernelChecker::args_by_param(const ProcNode &instr, const CallStmt &c) {
  std::vector<Expr> out(instr.args.size());
  std::map<uint32_t, Expr> values = param_values(instr, c);
  for (size_t i = 0; i < instr.args.size(); ++i)
    if (auto it = values.find(instr.args[i].name.id); it != values.end())
      out[i] = it->second;
  return out;
}

const Read *KernelChecker::distributed_entry(const ProcNode &instr, const std::string &name) {
  if (const InstrAttr *d = instr.attr("distributed"))
    for (const Expr &e : d->values)
      if (const auto *r = e.as<Read>(); r && r->buf.name == name)
        return r;
  return nullptr;
}

void KernelChecker::distributed_use(const ProcNode &instr, const CallStmt &c, const Arg &param,
                                    const Expr &arg, const std::vector<Expr> &units) {
  const auto *w = arg.as<WindowExpr>();
  if (!w) {
    diag_.report(arg->loc, DiagKind::DistributedArgument, param.name.name, instr.name,
                 "the argument must be a window whose leading slices are split");
    return void(fail());
  }
  Tiling t = tiling_;
  ThreadIters iters = iters_;
  std::vector<Expr> fake;
  fake.reserve(units.size());
  std::vector<const Expr *> idx;
  size_t u = 0;
  for (const WindowIdx &wi : w->idx) {
    if (!wi.is_slice) {
      exprs(wi.lo);
      idx.push_back(&wi.lo);
      continue;
    }
    if (u >= units.size()) {
      idx.push_back(nullptr);
      continue;
    }
    std::string err;
    int64_t n = 0;
    Expr extent = u < param.type.shape.size() ? bind_params(instr, c, param.type.shape[u]) : Expr();
    std::optional<CollUnit> unit = eval_unit(units[u], facts_.config.env, err);
    std::optional<CollType> raw = unit ? unpack_raw(*unit, facts_.config.env, err) : std::nullopt;
    Sym it = Sym::fresh(param.name.name + "." + std::to_string(u));
    std::optional<Derived> d =
        raw && extent && int_literal(extent, n)
            ? derive(t, it.id, it.name, *raw, 0, n, true, err)
            : std::nullopt;
    if (!d) {
      diag_.report(arg->loc, DiagKind::DistributedArgument, param.name.name, instr.name,
                   "its dimension " + std::to_string(u) + " over " + print_expr(units[u]) +
                       " does not fit the call's collective" + (err.empty() ? "" : ": " + err));
      return void(fail());
    }
    t = d->child;
    iters[it.id] = ThreadIter{it.name, d->pitch, d->tile_count};
    fake.push_back(Var::make(it, ValueType::Index));
    idx.push_back(&fake.back());
    ++u;
  }
  if (!shards_.use(w->buf, idx, t, iters, arg->loc))
    fail();
}

Expr KernelChecker::bind_params(const ProcNode &instr, const CallStmt &c, const Expr &e) {
  return analysis::substitute(e, param_values(instr, c));
}

std::map<uint32_t, Expr> KernelChecker::param_values(const ProcNode &instr, const CallStmt &c) {
  std::map<uint32_t, Expr> values;
  std::vector<Expr> bound = bind_instr_args(c, instr);
  for (size_t i = 0; i < instr.args.size(); ++i)
    if (bound[i])
      values[instr.args[i].name.id] = bound[i];
  return values;
}

} // namespace exgc::gpu::check_detail
