// effects.cpp - written arguments and the call graph ----------------------//
#include "compiler/codegen/effects.h"

#include <algorithm>

#include "compiler/ir/visitor.h"

namespace exgc::codegen {

namespace {
std::string key(const Sym &s) { return s.name + "#" + std::to_string(s.id); }

bool is_template_param(const ProcNode &p, const std::string &name) {
  if (const InstrAttr *t = p.attr("template"))
    for (const Expr &v : t->values)
      if (const auto *var = v.as<Var>(); var && var->name.name == name)
        return true;
  return false;
}

/// Marks the arguments a body writes; windows alias their buffer's argument.
class WriteFinder : public IRVisitor {
public:
  WriteFinder(AbiEffects &fx, const ProcNode &p) : fx_(fx), proc_(p), flags_(p.args.size(), false) {
    for (size_t i = 0; i < p.args.size(); ++i)
      root_[key(p.args[i].name)] = static_cast<int>(i);
  }
  std::vector<bool> run() {
    visit(proc_.body);
    return flags_;
  }

protected:
  void mark(const Sym &s) {
    auto it = root_.find(key(s));
    if (it != root_.end() && it->second >= 0)
      flags_[it->second] = true;
  }
  void visit_node(const Assign *op) override {
    mark(op->buf);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    mark(op->buf);
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowStmt *op) override {
    const Sym *b = named_buffer(op->rhs);
    auto it = b ? root_.find(key(*b)) : root_.end();
    root_[key(op->name)] = it == root_.end() ? -1 : it->second;
    IRVisitor::visit_node(op);
  }
  void visit_node(const CallStmt *op) override {
    Proc callee = fx_.callee(&proc_, op->callee);
    if (callee && callee.get() != &proc_) {
      const std::vector<bool> &w = fx_.written(callee.get());
      // Positional arguments bind the parameters that are not in `template:`
      // (those come by keyword and are control values, never written).
      std::vector<size_t> positional;
      for (size_t i = 0; i < callee->args.size(); ++i)
        if (!is_template_param(*callee, callee->args[i].name.name))
          positional.push_back(i);
      for (size_t i = 0; i < op->args.size() && i < positional.size(); ++i)
        if (w[positional[i]])
          if (const Sym *b = named_buffer(op->args[i]))
            mark(*b);
    }
    IRVisitor::visit_node(op);
  }

private:
  AbiEffects &fx_;
  const ProcNode &proc_;
  std::vector<bool> flags_;
  std::map<std::string, int> root_;
};

/// Calls in a body, in order (with `skip_device`, none in device functions).
class CallFinder : public IRVisitor {
public:
  explicit CallFinder(bool skip_device) : skip_device_(skip_device) {}
  std::vector<const CallStmt *> calls;

protected:
  void visit_node(const CallStmt *op) override {
    calls.push_back(op);
    IRVisitor::visit_node(op);
  }
  void visit_node(const With *op) override {
    if (!skip_device_ || op->context() != ContextKind::CudaDeviceFunction)
      IRVisitor::visit_node(op);
  }

private:
  bool skip_device_;
};
} // namespace

Proc AbiEffects::callee(const ProcNode *caller, const std::string &name) const {
  auto alias = aliases_.find(caller);
  return program_.lookup_from(alias == aliases_.end() ? caller : alias->second, name);
}

const std::vector<bool> &AbiEffects::written(const ProcNode *p) {
  auto it = written_.find(p);
  if (it != written_.end())
    return it->second;
  // Provisional entry: a recursive call (rejected by collect_procs) sees "nothing written".
  written_[p] = std::vector<bool>(p->args.size(), false);
  std::vector<bool> w = WriteFinder(*this, *p).run();
  return written_[p] = w;
}

bool AbiEffects::visit(const Proc &p, std::vector<const ProcNode *> &stack, std::vector<Proc> &out,
                    bool root) {
  if (done_.count(p.get()))
    return done_[p.get()];
  stack.push_back(p.get());
  CallFinder cf(device_calls_inlined_);
  cf.visit(p->body);
  bool ok = true;
  for (const CallStmt *c : cf.calls) {
    Proc q = callee(p.get(), c->callee);
    DiagEngine::InProc in_proc(diag_, p->name);
    if (!q) {
      diag_.report(c->loc, DiagKind::CodegenNotSupported,
                   "a call of the unresolved name '" + c->callee + "'", backend_);
      ok = false;
      continue;
    }
    // The typecheck refuses cycles among a module's procs (frontend/call_cycles.h);
    // this keeps the backend safe from one that a schedule's result closes.
    if (std::find(stack.begin(), stack.end(), q.get()) != stack.end()) {
      diag_.report(c->loc, DiagKind::RecursiveCall, q->name, p->name)
          .note(q->loc, "'" + q->name + "' declared here");
      ok = false;
      continue;
    }
    ok = visit(q, stack, out, false) && ok;
  }
  stack.pop_back();
  done_[p.get()] = ok;
  // Instructions called by procs are inlined; one compiled on its own (`-e`) is a function.
  if ((!p->is_instr || root) && ok)
    out.push_back(p);
  return ok;
}

bool AbiEffects::collect_procs(const std::vector<Proc> &roots, std::vector<Proc> &out) {
  std::vector<const ProcNode *> stack;
  bool ok = true;
  for (const Proc &r : roots)
    ok = visit(r, stack, out, true) && ok;
  return ok;
}

} // namespace exgc::codegen
