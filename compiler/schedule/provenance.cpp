// provenance.cpp - notes naming the schedule and step behind an error --------//
#include "compiler/schedule/provenance.h"

#include <set>

#include "compiler/ir/visitor.h"

namespace exgc::schedule {
namespace {

/// The nodes of a proc written at one place: statements and expressions.
class NodesAt : public IRVisitor {
public:
  explicit NodesAt(SrcLoc loc) : loc_(loc) {}
  std::set<const void *> in(const ProcNode &p) {
    found_.clear();
    visit_proc(p);
    return found_;
  }

protected:
#define EXGC_EXPR(Name)                                                                            \
  void visit_node(const Name *op) override {                                                       \
    if (op->loc == loc_)                                                                           \
      found_.insert(op);                                                                           \
    IRVisitor::visit_node(op);                                                                     \
  }
#define EXGC_STMT(Name) EXGC_EXPR(Name)
#include "compiler/ir/node_kinds.def"

private:
  SrcLoc loc_;
  std::set<const void *> found_;
};

/// The last step of `schedule` whose result holds a node at `loc` that its
/// input did not: the step that wrote the code as it is now. Null when every
/// such node came unchanged from the schedule's input.
const Interpreter::Step *last_rewrite(const Interpreter &interp, const std::string &schedule,
                                      SrcLoc loc) {
  NodesAt at(loc);
  const Interpreter::Step *last = nullptr;
  for (const Interpreter::Step &s : interp.steps()) {
    if (s.schedule != schedule || s.before.get() == s.after.get())
      continue;
    std::set<const void *> before = at.in(*s.before);
    for (const void *n : at.in(*s.after))
      if (!before.count(n)) {
        last = &s;
        break;
      }
  }
  return last;
}

} // namespace

void note_schedule_provenance(const Interpreter &interp, DiagEngine &diag, size_t first) {
  diag.drop_duplicates(first);
  for (size_t i = first; i < diag.diagnostics().size(); ++i) {
    Diagnostic &d = diag.at(i);
    if (d.severity != Severity::Error)
      continue;
    for (const std::string &name : d.procs) {
      auto result = interp.results().find(name);
      if (result == interp.results().end())
        continue;
      d.notes.push_back(
          {result->second->loc, "in proc '" + name + "', the result of schedule '" + name + "'"});
      if (!d.loc.valid())
        continue;
      if (const Interpreter::Step *s = last_rewrite(interp, name, d.loc))
        d.notes.push_back({s->loc, "made by step '" + s->primitive + "' of schedule '" + name + "'"});
    }
  }
}

} // namespace exgc::schedule
