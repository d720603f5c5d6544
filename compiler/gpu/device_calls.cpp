// device_calls.cpp - calls of procs in device code, inlined ----------------//
#include "compiler/gpu/device_calls.h"

#include <algorithm>
#include <vector>

#include "compiler/ir/copy.h"
#include "compiler/ir/inliner.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"

namespace exgc::gpu {

namespace {

class DeviceCallInliner : public IRMutator {
public:
  DeviceCallInliner(const Proc &p, const ScopedLookup &lookup, DiagEngine &diag,
                    InlinedDeviceCalls &out)
      : lookup_(lookup), diag_(diag), out_(out), taken_(declared_names(*p)) {
    from_.push_back(p.get());
  }
  bool ok = true;

protected:
  Block mutate_node(const With *op, const Stmt &self) override {
    bool device = op->context() == ContextKind::CudaDeviceFunction;
    device_ += device;
    Block r = IRMutator::mutate_node(op, self);
    device_ -= device;
    return r;
  }

  Block mutate_node(const CallStmt *op, const Stmt &self) override {
    Proc callee = device_ ? lookup_(from_.back(), op->callee) : nullptr;
    if (!callee || callee->is_instr)
      return IRMutator::mutate_node(op, self);
    // The typecheck refuses cycles among a module's procs; a schedule's result may close one.
    if (std::find(from_.begin(), from_.end(), callee.get()) != from_.end()) {
      diag_.report(op->loc, DiagKind::RecursiveCall, callee->name, from_.back()->name)
          .note(callee->loc, "'" + callee->name + "' declared here");
      ok = false;
      return {self};
    }
    Inliner m;
    if (!bind(*op, *callee, m))
      return {self};
    // Fresh statements and names: each call's copy has facts of its own.
    Block body = copy_block(m.mutate(callee->body), {}, true, &taken_);
    from_.push_back(callee.get());
    body = mutate(body); // the callee's own calls, in its module
    from_.pop_back();
    if (body.empty())
      body.push_back(Pass::make(op->loc));
    for (const Stmt &s : body)
      out_.call_site[s->id] = CallSite{op->loc, callee->name};
    return body;
  }

private:
  /// Binds each parameter of `callee` to its argument (schedule `inline`'s
  /// rules); false after reporting a parameter that cannot be bound.
  bool bind(const CallStmt &c, const ProcNode &callee, Inliner &m) {
    for (size_t i = 0; i < callee.args.size() && i < c.args.size(); ++i) {
      const Arg &a = callee.args[i];
      const Expr &actual = c.args[i];
      bool buffer = a.type.kind == Type::Kind::Barrier || !a.type.shape.empty();
      if (!buffer) {
        // A data scalar is passed by value (read before the body runs) or,
        // when written, by pointer; a literal is the same either way.
        if (a.type.kind == Type::Kind::Data && !actual.as<IntImm>() && !actual.as<FloatImm>()) {
          diag_.report(actual->loc, DiagKind::DeviceCallParam, callee.name, a.name.name,
                       "is a data scalar passed '" + print_expr(actual) +
                           "'; in device code only literals are (pass a window of one element)");
          return ok = false;
        }
        m.vars[a.name.id] = actual;
      } else if (!m.bind_buffer(a.name, actual)) {
        diag_.report(actual->loc, DiagKind::DeviceCallParam, callee.name, a.name.name,
                     "is passed '" + print_expr(actual) + "', which names no buffer");
        return ok = false;
      }
    }
    return true;
  }

  const ScopedLookup &lookup_;
  DiagEngine &diag_;
  InlinedDeviceCalls &out_;
  std::set<std::string> taken_;             // names declared so far in the result
  std::vector<const ProcNode *> from_;      // the caller, then the callees being inlined
  int device_ = 0;                          // inside a CudaDeviceFunction
};

} // namespace

std::optional<InlinedDeviceCalls> inline_device_calls(const Proc &p, const ScopedLookup &lookup,
                                                      DiagEngine &diag) {
  InlinedDeviceCalls out;
  DeviceCallInliner m(p, lookup, diag, out);
  out.proc = m.mutate_proc(p);
  if (!m.ok)
    return std::nullopt;
  return out;
}

} // namespace exgc::gpu
