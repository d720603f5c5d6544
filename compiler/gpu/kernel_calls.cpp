// kernel_calls.cpp - calls of checked kernels that break the check's premise -//
#include "compiler/gpu/kernel_calls.h"

#include <set>

#include "compiler/analysis/effects.h"
#include "compiler/ir/device_code.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"

namespace exgc::gpu {

namespace {

using Lookup = std::function<Proc(const ProcNode *, const std::string &)>;

/// Does `p` launch a kernel, itself or through the procs it calls?
bool launches_kernel(const ProcNode &p, const Lookup &lookup, std::set<const ProcNode *> &seen) {
  if (!seen.insert(&p).second)
    return false;
  DeviceCode code = device_code(p.body);
  if (code.has_device_function)
    return true;
  for (const std::string &name : code.callees)
    if (Proc q = lookup(&p, name); q && !q->is_instr && launches_kernel(*q, lookup, seen))
      return true;
  return false;
}

/// The buffer an argument names (a whole buffer or a window of one).
const Sym *argument_buffer(const Expr &e) {
  if (const auto *v = e.as<Var>())
    return &v->name;
  if (const auto *r = e.as<Read>(); r && r->idx.empty())
    return &r->buf;
  if (const auto *w = e.as<WindowExpr>())
    return &w->buf;
  return nullptr;
}

/// Are two windows of one buffer provably apart: in some dimension, constant
/// ranges that do not meet?
bool provably_disjoint(const Expr &a, const Expr &b) {
  const auto *wa = a.as<WindowExpr>(), *wb = b.as<WindowExpr>();
  if (!wa || !wb || wa->idx.size() != wb->idx.size())
    return false;
  for (size_t d = 0; d < wa->idx.size(); ++d) {
    const WindowIdx &x = wa->idx[d], &y = wb->idx[d];
    int64_t xlo = 0, xhi = 0, ylo = 0, yhi = 0;
    auto range = [](const WindowIdx &i, int64_t &lo, int64_t &hi) {
      if (i.is_slice && (!i.lo || !i.hi))
        return false;
      const auto *l = i.lo ? i.lo.as<IntImm>() : nullptr;
      const auto *h = i.is_slice && i.hi ? i.hi.as<IntImm>() : l;
      if (!l || !h)
        return false;
      lo = l->value;
      hi = i.is_slice ? h->value : l->value + 1;
      return true;
    };
    if (range(x, xlo, xhi) && range(y, ylo, yhi) && (xhi <= ylo || yhi <= xlo))
      return true;
  }
  return false;
}

class CallScan : public IRVisitor {
public:
  CallScan(const ProcNode &caller, const Lookup &lookup, DiagEngine &diag)
      : caller_(caller), lookup_(lookup), diag_(diag),
        roots_(caller, [&](const std::string &n) {
          Proc p = lookup(&caller, n);
          return p ? p.get() : nullptr;
        }) {}
  bool ok = true;

protected:
  void visit_node(const With *w) override {
    if (w->context() == ContextKind::CudaDeviceFunction)
      return; // device code: its calls are inlined and checked with it
    IRVisitor::visit_node(w);
  }
  void visit_node(const CallStmt *c) override {
    Proc callee = lookup_(&caller_, c->callee);
    std::set<const ProcNode *> seen;
    if (!callee || callee->is_instr || c->args.size() != callee->args.size() ||
        !launches_kernel(*callee, lookup_, seen))
      return;
    analysis::EffectCollector in_callee(*callee, [&](const std::string &n) {
      Proc p = lookup_(callee.get(), n);
      return p ? p.get() : nullptr;
    });
    std::set<uint32_t> written;
    for (const analysis::Access &a : in_callee.of(callee->body).accesses)
      if (a.kind != analysis::AccessKind::Read)
        written.insert(a.buf.id);
    for (size_t i = 0; i < c->args.size(); ++i)
      for (size_t j = i + 1; j < c->args.size(); ++j)
        check_pair(*c, *callee, i, j, written);
  }

private:
  void check_pair(const CallStmt &c, const ProcNode &callee, size_t i, size_t j,
                  const std::set<uint32_t> &written) {
    const Arg &pi = callee.args[i], &pj = callee.args[j];
    if (pi.type.kind != Type::Kind::Data || pj.type.kind != Type::Kind::Data ||
        pi.type.shape.empty() || pj.type.shape.empty())
      return;
    const Sym *bi = argument_buffer(c.args[i]), *bj = argument_buffer(c.args[j]);
    if (!bi || !bj || roots_.root_of(*bi).id != roots_.root_of(*bj).id)
      return;
    const Arg *w = written.count(pj.name.id) ? &pj : written.count(pi.name.id) ? &pi : nullptr;
    if (!w || provably_disjoint(c.args[i], c.args[j]))
      return;
    ok = false;
    diag_.report(c.args[j]->loc, DiagKind::KernelCallAliasing, callee.name,
                 roots_.root_of(*bi).name, pi.name.name, pj.name.name, w->name.name)
        .note(c.args[i]->loc, "'" + pi.name.name + "' gets " + print_expr(c.args[i]) + " here");
  }

  const ProcNode &caller_;
  const Lookup &lookup_;
  DiagEngine &diag_;
  analysis::EffectCollector roots_;
};

} // namespace

bool check_kernel_call_aliasing(const ProcNode &caller, const Lookup &lookup, DiagEngine &diag) {
  DiagEngine::InProc in(diag, caller.name);
  CallScan scan(caller, lookup, diag);
  scan.visit(caller.body);
  return scan.ok;
}

} // namespace exgc::gpu
