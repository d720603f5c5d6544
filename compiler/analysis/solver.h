// solver.h - exact answers to index questions, with counterexamples -------//
// Owns: IndexSolver, the one place exgc talks to Z3. It translates control
// expressions of the IR (sizes, indices, iterators: quasi-affine integer
// arithmetic, comparisons, and/or/not) to Z3 terms, keyed by Sym id, and
// decides "do these assumptions imply that goal" exactly, in quantifier-free
// linear integer arithmetic. Used by the bounds and precondition checks of the
// typecheck and by the safety checks of the scheduling rewrites (issue #3).
//
// Semantics kept exact: `/` and `%` by a positive constant are floor division
// and its remainder (-7 / 2 == -4, -7 % 2 == 1). Z3's integer div/mod are
// Euclidean, which equals floor for a positive divisor, so they are used as is
// (a divisor that is not a positive literal is never translated).
// An answer Z3 cannot give (resource limit reached, unknown) is
// Validity::Unknown: callers report it as "could not prove", never as success.
//
// Deterministic: each query is bounded by Z3's resource count (`rlimit`),
// not by wall-clock time, so the same input gets the same answers on every
// machine and under any load (docs/cli.md). All IndexSolvers of a thread
// share one Z3 context and one query cache: a compilation asks each question
// once, whichever step asks it.
#pragma once
#include <z3++.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc::analysis {

enum class Validity { Valid, Invalid, Unknown };

/// Values of the free variables of a failed query, in order of first use.
struct Counterexample {
  std::vector<std::pair<std::string, std::string>> values; // name, value
  /// The value of `name`, or "" when the counterexample does not mention it.
  std::string value_of(const std::string &name) const;
  /// "M = 3, i = 3" (empty when the goal fails for every value).
  std::string str() const;
};

/// While one is alive on a thread, every query an IndexSolver of that thread
/// is asked calls its `on_query(cached)` first (cached: the answer comes from
/// the cache, not from Z3); the callback may throw to stop the work. The
/// schedule interpreter charges its step budget there, so that a primitive's
/// queries stop it in the middle of its work, not after (issue 27). Meters
/// nest: the innermost one is called.
class QueryMeter {
public:
  explicit QueryMeter(std::function<void(bool cached)> on_query);
  ~QueryMeter();
  QueryMeter(const QueryMeter &) = delete;
  QueryMeter &operator=(const QueryMeter &) = delete;
  /// Calls the innermost meter of this thread, if any.
  static void tick(bool cached);

private:
  std::function<void(bool)> on_query_;
  QueryMeter *outer_;
};

class IndexSolver {
public:
  /// The resource limit of each query unless set_default_rlimit changed it.
  /// Calibrated (docs/cli.md, "Determinism"): the largest query of the tests
  /// and examples (examples/gemm_sm80.exg) uses 1,736 units, under 1/50 of it;
  /// a query that reaches it runs for well under a second.
  static constexpr unsigned kDefaultRlimit = 100000;
  IndexSolver();
  IndexSolver(const IndexSolver &) = delete;
  IndexSolver &operator=(const IndexSolver &) = delete;

  z3::context &ctx() { return ctx_; }
  /// Bounds each query of this solver by `rlimit` resource units (0: no
  /// bound). Tests use a tiny one to see how an Unknown answer is reported.
  void set_rlimit(unsigned rlimit) { rlimit_ = rlimit; }
  /// The limit new IndexSolvers get (the driver's --solver-rlimit).
  static void set_default_rlimit(unsigned rlimit);
  static unsigned default_rlimit();

  /// The integer variable of binding `s` (shown as `s.name` in counterexamples).
  z3::expr var(const Sym &s);
  /// An integer that stands for a value the index language cannot compute
  /// (`stride(x, 0)` of a window argument); the same key gives the same term.
  z3::expr opaque(const std::string &key, const std::string &display);

  /// Makes uses of `s` translate to `e` (callee parameters bound to a call's
  /// arguments) until `unbind(s)`. Bindings nest: unbind restores the previous.
  void bind(const Sym &s, const z3::expr &e);
  void unbind(const Sym &s);

  /// Called for built-in calls (`stride`, `offset`, ...) before the default
  /// translation; return true after setting `out` to claim the call.
  using CallHook = std::function<bool(const Call &, z3::expr &out)>;
  void set_call_hook(CallHook hook) { call_hook_ = std::move(hook); }

  /// Translates a control expression to an Int or Bool term. Returns false when
  /// `e` is outside the index language (data, non-affine products, division by
  /// a non-constant); `why` then names the offending sub-expression.
  bool translate(const Expr &e, z3::expr &out, std::string *why = nullptr);

  /// Do `assumptions` imply `goal`? Invalid fills `cex` (when non-null) with a
  /// model of assumptions && !goal. Answers are cached per query text.
  Validity is_valid(const std::vector<z3::expr> &assumptions, const z3::expr &goal,
                    Counterexample *cex = nullptr);
  /// The same for IR expressions; an assumption that does not translate is
  /// dropped (weaker, still sound); a goal that does not translate is Unknown.
  Validity is_valid(const std::vector<Expr> &assumptions, const Expr &goal,
                    Counterexample *cex = nullptr);
  /// Can `facts` all hold at once? Unknown when Z3 gives up.
  Validity is_satisfiable(const std::vector<z3::expr> &facts, Counterexample *model = nullptr);

  /// How the last Unknown came about ("max. resource limit exceeded", ...).
  const std::string &last_unknown_reason() const { return last_reason_; }
  size_t num_queries() const { return num_queries_; }
  size_t num_cache_hits() const { return num_hits_; }

  /// Queries of every IndexSolver of this process so far (exgc --stats):
  /// `queries` asked, `cache_hits` answered from a solver's cache, the rest
  /// given to Z3.
  struct Totals {
    size_t queries = 0, cache_hits = 0;
    /// The most resource units one query given to Z3 used.
    uint64_t max_rlimit_used = 0;
  };
  static Totals totals();

private:
  struct CacheEntry {
    Validity result;
    Counterexample cex;
    std::string reason;
    std::vector<z3::expr> pinned; ///< the facts, alive so that their ids stay theirs
  };
  Validity run(const std::vector<z3::expr> &facts, const std::string &key, Counterexample *cex);
  void check_once(const std::vector<z3::expr> &facts, CacheEntry &entry);
  void collect_vars(const z3::expr &e, std::vector<z3::expr> &out, std::vector<unsigned> &seen);

  /// The Z3 context of a thread, its incremental solvers (one per resource
  /// limit) and the answers they gave: making a context and a solver costs
  /// more than most queries, and every primitive step makes an IndexSolver.
  /// Queries stay independent (push, add, check, pop); an answer is cached
  /// under the query's terms (their ids) and the limit it ran under.
  struct Shared {
    z3::context ctx;
    std::map<unsigned, std::unique_ptr<z3::solver>> solvers;
    std::unordered_map<std::string, CacheEntry> cache;
  };
  static std::shared_ptr<Shared> shared_for_thread();
  /// The solver queries go to (made on first use).
  std::unique_ptr<z3::solver> &solver();

  std::shared_ptr<Shared> shared_;
  z3::context &ctx_;
  unsigned rlimit_;
  std::map<std::pair<uint32_t, std::string>, std::vector<z3::expr>> bound_;
  std::unordered_map<std::string, std::string> display_; // Z3 constant name -> shown name
  CallHook call_hook_;
  std::string last_reason_;
  size_t num_queries_ = 0, num_hits_ = 0;
};

} // namespace exgc::analysis
