// difftest_work.h - what one run of a proc costs, for the size search -----//
// Owns: the work estimate of a difftest case: how many assignments and
// reductions one run of a proc executes (its callees' included), as C++ over
// its control arguments. The size search keeps the runs of a case cheap; the
// product of the sizes alone cannot see loop nests (a triple loop over n
// costs n^3, not n).
#pragma once
#include <functional>
#include <map>
#include <string>

#include "compiler/codegen/difftest_ctrl.h"

namespace exgc::codegen {

/// The proc or instruction a proc calls by a name (null when unknown).
using CalleeOf = std::function<Proc(const ProcNode *, const std::string &)>;

/// Writes one C++ function per distinct proc, `exgdt_work_p<N>`, whose
/// arguments are the proc's control arguments in order (int64_t) and whose
/// value is the statements one run executes; past exgdt::kMaxWork it
/// saturates. Exact where no loop bound depends on an enclosing iterator; a
/// loop whose body's work does counts its trips times the larger work of its
/// first and last iteration. Conditions are not evaluated (an `if` costs its
/// dearer branch), a bound the printer cannot write counts its loop once, and
/// a control argument of a call it cannot write passes 1. A call is a call of
/// the callee's function, so each proc's text is written once.
class WorkFunctions {
public:
  explicit WorkFunctions(CalleeOf callee) : callee_(std::move(callee)) {}

  /// The name of `p`'s function; written (after its callees') on first use.
  std::string of(const ProcNode &p);

  /// Every function written so far, callees before callers.
  const std::string &definitions() const { return defs_; }

private:
  std::string block(const ProcNode &p, const Block &b, const CtrlPrinter &cp);
  std::string stmt(const ProcNode &p, const Stmt &s, const CtrlPrinter &cp);
  std::string loop(const ProcNode &p, const For &f, const CtrlPrinter &cp);
  std::string call(const ProcNode &p, const CallStmt &c, const CtrlPrinter &cp);

  CalleeOf callee_;
  std::map<const ProcNode *, std::string> name_of_proc_;
  std::map<std::string, std::string> name_of_text_; // parameters and body -> name
  std::string defs_;
};

} // namespace exgc::codegen
