// dependence.h - exact dependence questions about statement blocks -----------//
// Owns: the queries the scheduling rewrites ask, each decided exactly by the
// IndexSolver (cached per query text) over the access summaries of
// effects.h:
//  - conflict(): is there an access of one block and an access of another,
//    to the same element of the same buffer, at least one of them a write
//    (a reduce against a read or write), with the instances related as the
//    caller says (i < i', x < x' and y' < y, ...)? Reductions `+=` into the
//    same element commute with each other (a real sum is associative and
//    commutative), as in Exo. Buffers the blocks allocate are private to each
//    instance and never conflict.
//  - flows(): may a read see a value an earlier iteration of a loop wrote,
//    where the same iteration did not overwrite it first (a forall-exists
//    question: sink_alloc asks it)?
//  - context_of(): what holds at a statement: sizes are positive, the proc's
//    asserts, and the ranges and conditions of the loops and ifs around it.
// An answer the solver cannot give is Unknown, which callers report as "could
// not prove", never as success. Conditions and indices outside the index
// language (data-dependent) are dropped from the assumptions, which can only
// add conflicts: the answers stay sound.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/effects.h"
#include "compiler/analysis/solver.h"

namespace exgc::analysis {

/// What holds at a statement: positive sizes, asserts, enclosing scopes.
struct Context {
  std::vector<Expr> facts;
  std::vector<Scope> scopes; // outermost first
};

/// The context of statement `node` in `p` (its own loop/if not included).
/// False when the statement is not in `p`.
bool context_of(const ProcNode &p, NodeId node, Context &out);

/// One instance of a loop in a dependence question: the loop iterator gets a
/// separate copy on each side of the question.
struct LoopInstance {
  Sym iter;
  Expr lo, hi;
};

/// How the two sides' copies of the instance loops relate; gets the copies
/// for side one and side two, in the order of the LoopInstance list.
using Relation = std::function<z3::expr(const std::vector<z3::expr> &, const std::vector<z3::expr> &)>;

struct Conflict {
  Access first, second; // first from block one, second from block two
  Counterexample cex;
};

enum class Answer { NoConflict, Conflict, Unknown };

class DependenceAnalyzer {
public:
  explicit DependenceAnalyzer(IndexSolver &solver);

  /// Is there a conflicting pair (a in one, b in two)? Each side runs under
  /// `ctx`, its own copies of the `loops` (in range), and `rel` between the
  /// copies (null: no relation, the same instance of nothing).
  Answer conflict(const Context &ctx, const std::vector<LoopInstance> &loops, const Effects &one,
                  const Effects &two, const Relation &rel, Conflict *out);

  /// Can `read` see a value written in an earlier iteration of `loop`? That
  /// is: is there an instance of `read` (its scopes under `ctx`, which holds
  /// `loop` among its scopes) whose element no instance of `covering` wrote
  /// before it (each write under its own scopes, existentially; the scopes of
  /// `ctx` are shared), while an instance of one of `earlier` (accesses of
  /// the loop body, scopes relative to it) writes it at an earlier iteration?
  /// A forall-exists question. Conflict fills `out` (first: the earlier
  /// write, second: the read) with a counterexample.
  Answer flows(const Context &ctx, const Access &read, const std::vector<Access> &covering,
               const LoopInstance &loop, const std::vector<Access> &earlier, Conflict *out);

  /// Does `e` hold everywhere under `ctx`? Fills `cex` when not.
  Validity prove(const Context &ctx, const Expr &e, Counterexample *cex);

  /// Can `a` and `b` (kinds) be reordered against each other?
  static bool kinds_conflict(AccessKind a, AccessKind b);

  IndexSolver &solver() { return solver_; }

private:
  std::vector<z3::expr> context_terms(const Context &ctx);
  /// Binds the access's inner loops to copies tagged `side` and adds its
  /// ranges and conditions to `facts`; returns the syms bound (to unbind).
  /// A condition or bound the solver cannot read is left out of `facts`
  /// (sound for "may" questions) and clears `*exact` (must questions).
  std::vector<Sym> bind_scopes(const Access &a, int side, std::vector<z3::expr> &facts,
                               bool *exact = nullptr);
  Sym copy(const Sym &s, int side);

  IndexSolver &solver_;
  std::map<std::pair<uint32_t, int>, Sym> copies_;
};

} // namespace exgc::analysis
