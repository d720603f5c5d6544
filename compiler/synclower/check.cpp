// check.cpp - one `check` of a proc's synchronization ----------------------//
#include "compiler/synclower/check.h"

#include "compiler/analysis/effects.h"
#include "compiler/ir/fold.h"
#include "compiler/ir/printer.h"
#include "compiler/support/check.h"
#include "compiler/sync/text_format.h"
#include "compiler/synclower/lower.h"
#include "compiler/synclower/report.h"

namespace exgc::synclower {

namespace {

/// An integer literal, possibly negated (the parser accepts nothing else).
bool literal(const Expr &e, int64_t &v) {
  if (const auto *i = e.as<IntImm>())
    return v = i->value, true;
  if (const auto *u = e.as<UnOp>(); u && u->op == UnOpKind::Neg)
    if (const auto *i = u->a.as<IntImm>(); i && i->value != INT64_MIN)
      return v = -i->value, true;
  return false;
}

SrcLoc at(const KwArg &k, const CheckRequest &req) { return k.loc.valid() ? k.loc : req.loc; }

/// The sizes by name, every control argument bound and every precondition
/// true at them; false after reporting.
bool bind_sizes(const ProcNode &proc, const CheckRequest &req, DiagEngine &diag,
                std::map<std::string, int64_t> &sizes) {
  bool ok = true;
  std::map<uint32_t, Expr> values;
  for (const KwArg &k : req.sizes) {
    const Arg *a = proc.find_arg(k.key);
    int64_t v = 0;
    if (!a || a->type.kind != Type::Kind::Control) {
      ok = diag.report(at(k, req), DiagKind::CheckUnknownSize, req.proc, k.key);
    } else {
      EXGC_CHECK(literal(k.value, v)) << "a check size that is not an integer literal";
      sizes[k.key] = v;
      values[a->name.id] = IntImm::make(v);
    }
  }
  for (const Arg &a : proc.args)
    if (a.type.kind == Type::Kind::Control && !sizes.count(a.name.name) && ok)
      ok = diag.report(req.loc, DiagKind::CheckMissingSize, req.proc, a.name.name);
  if (!ok)
    return false;
  for (const Expr &p : proc.preds) {
    Expr v = fold_constants(analysis::substitute(p, values));
    if (const auto *b = v.as<BoolImm>(); b && !b->value)
      ok = diag.report(req.loc, DiagKind::CheckPreconditionFails, req.proc, print_expr(p));
  }
  return ok;
}

} // namespace

std::string check_text(const CheckRequest &req) {
  std::string s = req.proc + "(";
  for (size_t i = 0; i < req.sizes.size(); ++i)
    s += (i ? ", " : "") + req.sizes[i].key + "=" + print_expr(req.sizes[i].value);
  return s + ")";
}

bool run_check(const ProcNode &proc, const CheckRequest &req, const gpu::GpuFacts &facts,
               const gpu::CalleeLookup &callee, const sync::CheckOptions &opts,
               const SourceManager &sources, DiagEngine &diag, std::string *sync_text,
               sync::RunStats *stats) {
  std::map<std::string, int64_t> sizes;
  if (!bind_sizes(proc, req, diag, sizes))
    return false;
  Lowered lowered;
  if (!lower_proc(proc, sizes, facts, callee, sources, diag, lowered))
    return false;
  if (sync_text)
    *sync_text += "# check " + check_text(req) + "\n" + sync::print_program(lowered.program);
  sync::CheckResult r = sync::check_program(lowered.program, opts);
  if (stats)
    *stats = r.stats;
  if (r.ok) {
    for (const Reassociated &a : lowered.reassociated)
      diag.report(a.loc, DiagKind::SyncReassociated, a.instr, a.buffer, check_text(req));
    return true;
  }
  report_hazard(r.hazard, lowered, check_text(req), req.derived, req.loc, diag);
  return false;
}

} // namespace exgc::synclower
