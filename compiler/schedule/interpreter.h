// interpreter.h - runs schedule scripts ------------------------------------//
// Owns: evaluation of `schedule NAME from PROC:` blocks and the `def`
// functions they call (docs/language.md, "Scripts"): variables, `if`, `for`,
// `return`, operators, method calls on procs and cursors, and calls of
// primitives (primitives.h). Deterministic and side-effect free, except that
// `print(x)` reports a remark. Bounded: recursion depth, steps and the size
// of what a script builds (values, procs, history) are limited (budget.h), so
// every script ends, and every limit reached is a located error.
//
// Runs after typecheck (its input procs are well typed) and before codegen;
// the driver hands the resulting procs to codegen like any other proc.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/analysis/rounding_log.h"
#include "compiler/frontend/program.h"
#include "compiler/schedule/budget.h"
#include "compiler/schedule/value.h"
#include "compiler/support/diagnostics.h"

namespace exgc::schedule {

struct PrimitiveSpec; // primitives.h

/// One argument of a primitive call and what its errors name ("argument 3,
/// 'cut' to cut_loop"), all taken from primitives.def by CallSite::arg.
struct PrimArg {
  const Value &value;
  int position;       // from 1, in the order primitives.def declares
  const char *param;  // the parameter's name there
  const char *prim;   // the primitive's name
  SrcLoc loc;         // the call
  /// The same argument with another value: an element of a list argument.
  PrimArg with(const Value &v) const { return {v, position, param, prim, loc}; }
};

/// What a primitive sees of its call.
struct CallSite {
  SrcLoc loc;           // the call in the script
  std::string name;     // the primitive's name
  std::vector<Value> args; // bound in parameter order (None when absent)
  std::vector<const char *> params; // the parameters' names, from primitives.def
  /// The argument for parameter `param`; a name primitives.def does not
  /// declare for this primitive is a bug of ours.
  PrimArg arg(const char *param) const;
  /// The proc every primitive's first parameter `p` names.
  const Proc &proc() const { return args.front().proc; }
};

/// Thrown (internally only) to abandon a script after its error was reported.
struct ScriptAbort {};

class Interpreter {
public:
  Interpreter(const Program &program, DiagEngine &diag, ScriptBudget budget = {})
      : program_(program), diag_(diag), budget_(budget) {}

  /// `-D NAME=TEXT`: replaces the main module's top-level value NAME
  /// (`NAME = ...`) by TEXT read as a value of the same type: an integer,
  /// True/False, or a string (quotes optional). The driver checks the names.
  void set_value_overrides(std::map<std::string, std::string> overrides) {
    overrides_ = std::move(overrides);
  }

  /// Runs every schedule of the main module, in dependency order (a schedule
  /// may start from another's result). Returns false after reporting an error.
  /// Results are available from result().
  bool run_all();
  /// The proc a schedule produced, or null.
  Proc result(const std::string &name) const;
  const std::map<std::string, Proc> &results() const { return results_; }

  /// One rewrite: primitive `primitive`, called at `loc` while schedule
  /// `schedule` ran, made `after` from its proc argument `before`. Recorded
  /// in execution order, for differential testing of every step.
  struct Step {
    std::string schedule, primitive;
    SrcLoc loc;
    Proc before, after;
    /// How `after` may round otherwise than `before` ("reorders the f32 sums
    /// into 's'", analysis::RoundingLog); empty when it computes the same.
    std::vector<analysis::RoundingChange> rounding;
  };
  const std::vector<Step> &steps() const { return history_; }
  /// The proc each schedule started from.
  const std::map<std::string, Proc> &inputs() const { return inputs_; }

  DiagEngine &diag() { return diag_; }
  const ScriptBudget &budget() const { return budget_; }
  /// How `p` came about, newest first: `p` and the step that made it, then
  /// that step's input and the step that made it, and so on, ending at a proc
  /// no step made (a proc of the program). A schedule's result is made from
  /// the proc its script returned, by no step (null). A step that returned
  /// its input unchanged made nothing, so the lineage has no cycle.
  std::vector<std::pair<Proc, const Step *>> lineage(const Proc &p) const;
  /// The proc `p` was made from by the steps and schedules that ran (itself
  /// when no step made it): two procs with one origin compute the same thing,
  /// unless an unsafe step made one of them (`*unsafe` is then set).
  Proc origin(const Proc &p, bool *unsafe = nullptr) const;
  /// The steps of `p`'s lineage that round otherwise than their input.
  std::vector<const Step *> rounding_steps(const Proc &p) const;
  const Program &program() const { return program_; }
  /// Reports an error at `loc` and abandons the script.
  template <typename... Args> [[noreturn]] void fail(SrcLoc loc, DiagKind kind, const Args &...args) {
    diag_.report(loc, kind, args...);
    throw ScriptAbort{};
  }

  /// Counts `n` steps of work at `loc` (copying n elements is n steps);
  /// reports ScriptStepLimit past the step budget.
  void charge(SrcLoc loc, int64_t n);
  /// Reports ScriptValueBudget at `loc` when a `what` (a list, a string) of
  /// `size` elements or characters would exceed the value budget.
  void require_value_size(SrcLoc loc, const char *what, int64_t size);
  /// Reports ScriptProcBudget at `loc` when proc `name` would have `stmts`
  /// statements, more than the statement budget. Primitives that multiply
  /// code (unroll_loop) call it before they build.
  void require_proc_size(SrcLoc loc, const std::string &name, int64_t stmts);

  static constexpr int kMaxDepth = 200;
  /// Steps a primitive is charged per solver query it makes, as it makes it
  /// (analysis::QueryMeter); an answer from the cache costs little.
  static constexpr int64_t kStepsPerSolverQuery = 200;
  static constexpr int64_t kStepsPerCachedQuery = 1;

private:
  struct Frame {
    std::map<std::string, Value> vars;
    const LoadedModule *module;
  };
  struct Return {
    Value value;
  };

  Proc run_one(const ScheduleDecl &decl, const LoadedModule &module);
  Proc start_proc(const ScheduleDecl &decl, const LoadedModule &module);

  /// The names a script can use in `f`, for an unknown one's suggestion.
  std::vector<std::string> known_names(const Frame &f) const;
  void exec_block(const script::Block &b, Frame &f);
  void exec(const script::Stmt &s, Frame &f);
  Value eval(const script::Expr &e, Frame &f);
  Value eval_call(const script::ExprNode &e, Frame &f);
  Value eval_binop(const script::ExprNode &e, Frame &f);
  Value eval_index(const script::ExprNode &e, Frame &f);
  Value lookup(const std::string &name, SrcLoc loc, Frame &f);
  /// The top-level values of `module` (`T = 128`), each evaluated once, in
  /// order, on first use: a value sees the values above it.
  const std::map<std::string, Value> &module_values(const LoadedModule &module);
  /// `-D d.name=text` as a value of `default_value`'s type, or an error at `d`.
  Value overridden_value(const ValueDecl &d, const Value &default_value, const std::string &text);
  Value call_def(const DefDecl &def, SrcLoc loc, std::vector<Value> args,
                 std::vector<std::pair<std::string, Value>> kwargs, const LoadedModule *module);
  Value call_method(const Value &obj, const std::string &method, SrcLoc loc,
                    std::vector<Value> args, Frame &f);
  /// Runs primitive `spec` on its bound arguments (their constants checked
  /// first; `arg_locs` says where each was written), its solver queries
  /// charged to the step budget, and records the step when it made a proc.
  Value run_primitive(const PrimitiveSpec &spec, SrcLoc loc, CallSite &site,
                      const std::vector<SrcLoc> &arg_locs);
  void step(SrcLoc loc);
  /// The result of schedule `name` of `module` (running it first if it has
  /// not run), or null when `module` has no such schedule. `loc` is where
  /// the script asked for it: in `from` when `starts_from`, else by name.
  Proc schedule_result(const std::string &name, SrcLoc loc, const LoadedModule &module,
                       bool starts_from);
  /// Records that a primitive made `after` from `before` at `loc`, rounding
  /// otherwise as `rounding` says, checking the statement and history budgets.
  void record_step(const std::string &primitive, SrcLoc loc, const Proc &before,
                   const Proc &after, std::vector<analysis::RoundingChange> rounding = {});
  /// Records that `made` came from `from` (by step `step` of history_, or
  /// kNoStep for a schedule's result), unless `made` already has a lineage
  /// or starts `from`'s (a step that handed back an older proc).
  void record_derivation(const Proc &made, const Proc &from, size_t step);
  static constexpr size_t kNoStep = SIZE_MAX;

  const Program &program_;
  DiagEngine &diag_;
  std::map<std::string, Proc> results_;
  enum class RunState { Running, Done, Failed };
  std::map<std::string, RunState> state_; // cycle detection, failed dependencies
  struct Derivation {
    Proc from;
    size_t step;             // index into history_, or kNoStep
    const ProcNode *root;    // the end of from's lineage
  };
  std::map<const ProcNode *, Derivation> derived_; // proc -> how it was first made
  std::map<const ProcNode *, int64_t> stmt_counts_; // procs steps returned -> statements
  std::vector<Step> history_;
  std::map<std::string, Proc> inputs_;
  std::map<std::string, std::string> overrides_; // -D, for the main module
  std::map<const LoadedModule *, std::map<std::string, Value>> values_; // module_values
  std::string current_; // the schedule running now
  int depth_ = 0;
  ScriptBudget budget_;
  int64_t steps_ = 0;
  int64_t history_stmts_ = 0;
};

/// Reports that argument `a` is not what its primitive takes ("argument 3,
/// 'cut' to cut_loop: expected X, got Y", ScriptArgType) and aborts.
[[noreturn]] inline void fail_arg(Interpreter &in, const PrimArg &a, const std::string &expected,
                                  const std::string &got) {
  in.fail(a.loc, DiagKind::ScriptArgType, a.position, a.param, a.prim, expected, got);
}

/// Statements of `b`, nested bodies counted (what code generation emits).
int64_t count_stmts(const Block &b);

} // namespace exgc::schedule
