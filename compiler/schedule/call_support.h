// call_support.h - helpers shared by the primitives that make or undo calls ----//
// Owns: what inline, replace and call_eqv share: the name under which a proc
// is called from the main module, the whole-proc re-check of a call site (the
// typecheck's exact shape, bounds and precondition checks, run on a candidate
// proc), and affine forms of index expressions (to solve window offsets).
#pragma once
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/nodes.h"
#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// The name a call in a proc of the main module uses for `callee` (a plain or
/// `alias.name` key of the main module's scope); empty when it is not there
/// (a schedule's intermediate procs and results are not callable).
std::string callee_name(Interpreter &in, const Proc &callee);

/// The call statement argument 1 of `call` names (CursorKindMismatch
/// otherwise): `s` is the statement, the result its CallStmt.
const CallStmt *call_stmt_arg(Interpreter &in, const CallSite &call, Stmt &s);

/// The proc a call in `p` names: one in scope, or a schedule's result (which
/// call_eqv may have put there; results join the scope when schedules end).
Proc callee_of(Interpreter &in, const Proc &p, const std::string &name);

/// The Sym ids of the parameters of `f` that its body may write or reduce
/// into (directly, through windows, or in calls it makes).
std::set<uint32_t> written_params(Interpreter &in, const Proc &f);

/// Typechecks `p` whole in a scratch engine (types, memories, shapes, bounds,
/// callee asserts) and returns the first error located at `at` whose kind is
/// not in `ignore`, or null. The primitives give what they build the step's
/// location, so the errors at `at` are exactly those about their own code.
std::unique_ptr<Diagnostic> first_error_at(Interpreter &in, const ProcNode &p,
                                           const std::vector<SrcLoc> &at,
                                           const std::set<DiagKind> &ignore = {});
inline std::unique_ptr<Diagnostic> first_error_at(Interpreter &in, const ProcNode &p, SrcLoc at,
                                                  const std::set<DiagKind> &ignore = {}) {
  return first_error_at(in, p, std::vector<SrcLoc>{at}, ignore);
}

/// Reports `d` (an error from first_error_at) as the note-carrying cause of
/// `kind` at `loc`, then aborts.
template <typename... Args>
[[noreturn]] void fail_with_cause(Interpreter &in, SrcLoc loc, const Diagnostic &d, DiagKind kind,
                                  const Args &...args) {
  auto b = in.diag().report(loc, kind, args..., d.message);
  for (const DiagNote &n : d.notes)
    b.note(n.loc, n.message);
  throw ScriptAbort{};
}

/// An index expression as `c + sum(k * atom)`: atoms are variables (by Sym
/// id) and, for anything not affine (`i / 4`, `i % 2`, `stride(x, 0)`), the
/// subterm itself, keyed by its text.
struct Affine {
  int64_t constant = 0;
  std::map<std::string, std::pair<Expr, int64_t>> terms; // key -> (atom, coefficient)
  bool ok = true; // false: not a control integer expression
  Affine operator-(const Affine &o) const;
  /// Does any atom mention a Sym whose id is in `ids`?
  bool mentions_any(const std::set<uint32_t> &ids) const;
};
Affine to_affine(const Expr &e);
/// Is `a` the constant 0 (an affine form with no terms)?
inline bool is_zero(const Affine &a) { return a.ok && a.terms.empty() && a.constant == 0; }
/// The Sym ids `e` names: variables and buffers.
std::set<uint32_t> ids_of(const Expr &e);
/// The expression of `a`, every node located at `loc`.
Expr from_affine(const Affine &a, SrcLoc loc);

} // namespace exgc::schedule

namespace exgc::schedule {
/// `e` rebuilt with its variables, literals and operators located at `loc`:
/// index expressions a primitive moves into code it makes, so that the
/// re-check reports them at the step.
Expr at_loc(const Expr &e, SrcLoc loc);
} // namespace exgc::schedule
