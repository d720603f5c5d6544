// provenance.cpp - notes naming the schedule and step behind an error --------//
#include "compiler/schedule/provenance.h"

#include <map>
#include <tuple>
#include <vector>

#include "compiler/ir/visitor.h"

namespace exgc::schedule {
namespace {

/// The nodes of a proc written at one place (statements and expressions),
/// each with the places of the statements around it.
class NodesAt : public IRVisitor {
public:
  using Around = std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>;
  explicit NodesAt(SrcLoc loc) : loc_(loc) {}
  std::map<const void *, Around> in(const ProcNode &p) {
    found_.clear();
    around_.clear();
    visit_proc(p);
    return found_;
  }

protected:
#define EXGC_EXPR(Name)                                                                            \
  void visit_node(const Name *op) override {                                                       \
    if (op->loc == loc_)                                                                           \
      found_.emplace(op, around_);                                                                 \
    IRVisitor::visit_node(op);                                                                     \
  }
#define EXGC_STMT(Name)                                                                            \
  void visit_node(const Name *op) override {                                                       \
    if (op->loc == loc_)                                                                           \
      found_.emplace(op, around_);                                                                 \
    around_.emplace_back(op->loc.file, op->loc.line, op->loc.col);                                 \
    IRVisitor::visit_node(op);                                                                     \
    around_.pop_back();                                                                            \
  }
#include "compiler/ir/node_kinds.def"

private:
  SrcLoc loc_;
  Around around_;
  std::map<const void *, Around> found_;
};

/// The last step of `schedule` whose result holds a node at `loc` that its
/// input did not: the step wrote the code as it is now. Failing that, the
/// last step that moved such a node among other statements (`fuse` brings a
/// declaration into the other loop's scope; `*moved` is set). Null when
/// every such node came unchanged, and unmoved, from the schedule's input.
const Interpreter::Step *last_rewrite(const Interpreter &interp, const std::string &schedule,
                                      SrcLoc loc, bool *moved) {
  NodesAt at(loc);
  const Interpreter::Step *made = nullptr, *mover = nullptr;
  for (const Interpreter::Step &s : interp.steps()) {
    if (s.schedule != schedule || s.before.get() == s.after.get())
      continue;
    std::map<const void *, NodesAt::Around> before = at.in(*s.before);
    for (const auto &[node, around] : at.in(*s.after)) {
      auto was = before.find(node);
      if (was == before.end())
        made = &s;
      else if (was->second != around)
        mover = &s;
    }
  }
  *moved = !made && mover;
  return made ? made : mover;
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
      bool moved = false;
      if (const Interpreter::Step *s = last_rewrite(interp, name, d.loc, &moved))
        d.notes.push_back({s->loc, std::string(moved ? "moved here" : "made") + " by step '" +
                                       s->primitive + "' of schedule '" + name + "'"});
    }
  }
}

} // namespace exgc::schedule
