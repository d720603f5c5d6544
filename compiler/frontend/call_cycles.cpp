// call_cycles.cpp - procs that call themselves, through any chain of calls -//
#include "compiler/frontend/call_cycles.h"

#include <algorithm>

#include "compiler/ir/visitor.h"

namespace exgc::tc {

namespace {

/// The calls of a body, in source order (device code included).
struct Calls : IRVisitor {
  std::vector<const CallStmt *> found;
  void visit_node(const CallStmt *c) override {
    found.push_back(c);
    IRVisitor::visit_node(c);
  }
};

class CycleFinder {
public:
  CycleFinder(const Program &program, DiagEngine &diag, std::set<const ProcNode *> &on_cycle)
      : program_(program), diag_(diag), on_cycle_(on_cycle) {}

  void visit(const ProcNode *p) {
    if (done_.count(p))
      return;
    done_.insert(p);
    stack_.push_back(p);
    Calls calls;
    calls.visit(p->body);
    for (const CallStmt *c : calls.found) {
      Proc q = program_.lookup_from(p, c->callee); // an unknown name is the checker's
      if (!q)
        continue;
      auto open = std::find(stack_.begin(), stack_.end(), q.get());
      if (open == stack_.end()) {
        visit(q.get());
        continue;
      }
      DiagEngine::InProc in_proc(diag_, p->name);
      diag_.report(c->loc, DiagKind::RecursiveCall, q->name, p->name)
          .note(q->loc, "'" + q->name + "' declared here");
      on_cycle_.insert(open, stack_.end());
    }
    stack_.pop_back();
  }

private:
  const Program &program_;
  DiagEngine &diag_;
  std::set<const ProcNode *> &on_cycle_;
  std::set<const ProcNode *> done_;
  std::vector<const ProcNode *> stack_; // the chain of calls being followed
};

} // namespace

void check_call_cycles(const Program &program, const std::vector<const ProcNode *> &procs,
                       DiagEngine &diag, std::set<const ProcNode *> &on_cycle) {
  CycleFinder finder(program, diag, on_cycle);
  for (const ProcNode *p : procs)
    finder.visit(p);
}

} // namespace exgc::tc
