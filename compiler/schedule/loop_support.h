// loop_support.h - helpers shared by the loop primitives -------------------------//
// Owns: what the loop rewrites (divide_loop, reorder_loops, fission, ...) share
// beyond copying code (ir/copy.h): the names in scope at a statement,
// comparing code up to bound names, reading control-value arguments,
// the callee lookup for effect summaries, and reporting a failed check with
// the conflicting accesses and the solver's counterexample as notes.
#pragma once
#include <map>
#include <set>
#include <string>

#include "compiler/analysis/dependence.h"
#include "compiler/ir/copy.h"
#include "compiler/schedule/interpreter.h"
#include "compiler/schedule/value.h"

namespace exgc::schedule {

/// Is `t` an identifier (letters, digits, `_`, not starting with a digit)?
bool is_name(const std::string &t);
/// `s` is exactly two identifiers separated by blanks ("outer inner").
bool two_names(const std::string &s, std::string &a, std::string &b);

/// The names that code put in place of statement `s` must not declare (it
/// would shadow them): `p`'s arguments, the iterators of the loops around
/// `s`, what the blocks around `s` declare, and what `s` declares inside it
/// (not the iterator of `s` itself, which the new code replaces).
std::set<std::string> names_in_scope(const ProcNode &p, const Stmt &s);

/// Are `a` and `b` the same code: node for node, with each name they bind
/// matched to its counterpart in the other, and every other name the same
/// binding (not only the same spelling)?
bool same_code(const Block &a, const Block &b);
/// Are procs `a` and `b` the same up to the names they bind: arguments (in
/// order, with their types), asserts and bodies as same_code compares them?
/// The proc names do not count, nor spellings of one value: `a + (b + c)` of
/// control values is `a + b + c`, and `0.0` is `0`. Script builtin `same_code(p, q)`: the test
/// that a schedule reaches a hand-written kernel.
bool same_proc_code(const ProcNode &a, const ProcNode &b);

/// The name `stmts` declare (an allocation, a window or a loop iterator, at
/// any depth) for the binding of id `id`, "?" when none does.
std::string declared_name(const Block &stmts, uint32_t id);
/// Looks callees up in the program, as seen from `p`.
analysis::CalleeLookup callee_lookup(Interpreter &in, const Proc &p);

/// The `names` argument of a loop split: two distinct identifiers that
/// shadow no name visible in or used by the loop `s` (code after a later
/// step could then mean another binding). Reports and aborts otherwise.
std::pair<std::string, std::string> two_new_names(Interpreter &in, const Proc &p, const Stmt &s,
                                                  const CallSite &call);

/// A control value argument: an int literal, or a string holding an index
/// expression over the size and index arguments of `p` and the iterators of
/// the loops around `at` (`"n/4"`, `"n + m"`, `"(n + 3) / 4 - 1"`; `/` and
/// `%` by positive constants). Reports and aborts otherwise.
Expr control_arg(Interpreter &in, const Proc &p, const Stmt &at, const PrimArg &arg);

/// Reports `kind` with notes at both accesses and the counterexample; aborts.
template <typename... Args>
[[noreturn]] void fail_conflict(Interpreter &in, SrcLoc loc, const analysis::Conflict &c,
                                DiagKind kind, const Args &...args) {
  auto d = in.diag().report(loc, kind, args...);
  d.note(c.first.loc, "'" + c.first.text + "' " + analysis::access_verb(c.first.kind) + " '" +
                          c.first.buf.name + "' here");
  d.note(c.second.loc, "'" + c.second.text + "' " + analysis::access_verb(c.second.kind) + " '" +
                           c.second.buf.name + "' here");
  if (!c.cex.values.empty())
    d.note(loc, "for example " + c.cex.str());
  throw ScriptAbort{};
}

/// Reports "could not prove WHAT" when the solver gave up; aborts.
[[noreturn]] void fail_unknown(Interpreter &in, SrcLoc loc, const std::string &what,
                               analysis::IndexSolver &solver);

/// Proves `goal` under `ctx`, or reports `kind` (with "for example" from the
/// counterexample) and aborts; Unknown is reported as could-not-prove.
template <typename... Args>
void require(Interpreter &in, analysis::DependenceAnalyzer &dep, const analysis::Context &ctx,
             const Expr &goal, SrcLoc loc, const std::string &what, DiagKind kind,
             const Args &...args) {
  analysis::Counterexample cex;
  analysis::Validity v = dep.prove(ctx, goal, &cex);
  if (v == analysis::Validity::Valid)
    return;
  if (v == analysis::Validity::Unknown)
    fail_unknown(in, loc, what, dep.solver());
  auto d = in.diag().report(loc, kind, args...);
  if (!cex.values.empty())
    d.note(loc, "for example " + cex.str());
  throw ScriptAbort{};
}

/// The context of statement `s` in `p` (it is there: callers resolved it).
analysis::Context context_at(const Proc &p, const Stmt &s);

/// An integer iterator variable.
inline Expr iter_var(const Sym &s) { return Var::make(s, ValueType::Index); }

/// `a k b`, folded (new loop bounds and indices read as a person writes them).
Expr folded(BinOpKind k, Expr a, Expr b);

} // namespace exgc::schedule

namespace exgc::schedule {
/// Checks that swapping the perfectly nested loops `outer` (whose body is the
/// single loop `inner`) keeps every dependence: no conflicting accesses at
/// (x, y) and (x', y') with x < x' and y' < y. Reports and aborts otherwise.
void check_loop_swap(Interpreter &in, const Proc &p, const Stmt &outer, SrcLoc loc);
/// Checks that `body` is idempotent at `s`'s place: no reduce into shared
/// buffers and no read of an element it writes. Reports against `loop_name`.
/// With `across`, the loop whose body it is, a read of any iteration must
/// meet no write of any iteration (divide_with_recompute runs iterations
/// again after later ones), reported as RecomputeReadsWritten.
void check_idempotent(Interpreter &in, const Proc &p, const Stmt &s, const Block &body,
                      const std::string &loop_name, SrcLoc loc, const For *across = nullptr);
} // namespace exgc::schedule
