// interpreter.h - runs schedule scripts ------------------------------------//
// Owns: evaluation of `schedule NAME from PROC:` blocks and the `def`
// functions they call (LANGUAGE.md section 7): variables, `if`, `for`,
// `return`, operators, method calls on procs and cursors, and calls of
// primitives (primitives.h). Deterministic and side-effect free, except that
// `print(x)` reports a remark. Bounded: recursion depth and the number of
// steps are limited, so every script ends.
//
// Runs after typecheck (its input procs are well typed) and before codegen;
// the driver hands the resulting procs to codegen like any other proc.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/frontend/program.h"
#include "compiler/schedule/value.h"
#include "compiler/support/diagnostics.h"

namespace exgc::schedule {

/// What a primitive sees of its call.
struct CallSite {
  SrcLoc loc;           // the call in the script
  std::string name;     // the primitive's name
  std::vector<Value> args; // bound positionally in parameter order (None when absent)
};

/// Thrown (internally only) to abandon a script after its error was reported.
struct ScriptAbort {};

class Interpreter {
public:
  Interpreter(const Program &program, DiagEngine &diag) : program_(program), diag_(diag) {}

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
  };
  const std::vector<Step> &steps() const { return history_; }
  /// The proc each schedule started from.
  const std::map<std::string, Proc> &inputs() const { return inputs_; }

  DiagEngine &diag() { return diag_; }
  /// The newest proc a chain of rewrites made from `p` (cursors navigate there).
  Proc newest(const Proc &p) const;
  /// The proc `p` was made from by the steps and schedules that ran (itself
  /// when no step made it): two procs with one origin compute the same thing,
  /// unless an unsafe step made one of them (`*unsafe` is then set).
  Proc origin(const Proc &p, bool *unsafe = nullptr) const;
  const Program &program() const { return program_; }
  /// Reports an error at `loc` and abandons the script.
  template <typename... Args> [[noreturn]] void fail(SrcLoc loc, DiagKind kind, const Args &...args) {
    diag_.report(loc, kind, args...);
    throw ScriptAbort{};
  }

  static constexpr int kMaxDepth = 200;
  static constexpr int64_t kMaxSteps = 1000000;

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

  void exec_block(const script::Block &b, Frame &f);
  void exec(const script::Stmt &s, Frame &f);
  Value eval(const script::Expr &e, Frame &f);
  Value eval_call(const script::ExprNode &e, Frame &f);
  Value eval_binop(const script::ExprNode &e, Frame &f);
  Value eval_index(const script::ExprNode &e, Frame &f);
  Value lookup(const std::string &name, SrcLoc loc, Frame &f);
  Value call_def(const DefDecl &def, SrcLoc loc, std::vector<Value> args,
                 std::vector<std::pair<std::string, Value>> kwargs, const LoadedModule *module);
  Value call_method(const Value &obj, const std::string &method, SrcLoc loc,
                    std::vector<Value> args, Frame &f);
  void step(SrcLoc loc);

  const Program &program_;
  DiagEngine &diag_;
  std::map<std::string, Proc> results_;
  std::map<std::string, int> state_; // 1 running, 2 done (cycle detection)
  std::map<const ProcNode *, Proc> successor_; // input proc -> what a primitive made of it
  std::vector<Step> history_;
  std::map<std::string, Proc> inputs_;
  std::string current_; // the schedule running now
  int depth_ = 0;
  int64_t steps_ = 0;
};

} // namespace exgc::schedule
