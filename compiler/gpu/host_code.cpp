// host_code.cpp - what host code of a GPU proc may do -----------------------//
#include "compiler/gpu/host_code.h"

#include <map>

#include "compiler/analysis/memories.h"
#include "compiler/ir/visitor.h"

namespace exgc::gpu {

namespace {

/// Where a buffer lives, and whether the host or a kernel declared it.
struct Place {
  const Expr *mem = nullptr;
  bool tensor = true;
  bool in_device = false;
  const analysis::MemoryInfo *memory() const {
    return mem ? analysis::resolve_memory(*mem).info : nullptr; // none: DRAM
  }
  bool in(analysis::MemSpace space) const {
    const analysis::MemoryInfo *m = memory();
    return m && m->space == space;
  }
};
using Places = std::map<uint32_t, Place>; // by Sym id

/// Records the place of the buffer an allocation or window declares.
void declare(const Alloc *a, Places &places, bool in_device) {
  places[a->name.id] = {&a->type.mem, a->type.is_tensor(), in_device};
}
void declare(const WindowStmt *w, Places &places, bool in_device) {
  // A window lives in its buffer's memory (a tensor map is its own).
  const auto *we = w->rhs.as<WindowExpr>();
  auto root = we ? places.find(we->buf.id) : places.end();
  if (w->mem)
    places[w->name.id] = {&w->mem, true, in_device};
  else if (root != places.end())
    places[w->name.id] = root->second;
}

/// A kernel body: it may not touch an element of host memory (a host pointer
/// is not dereferenceable on the device); a host scalar is passed by value
/// and may be read. Runs after the stage accepted the kernel, as the backend
/// did.
class DeviceCode : public IRVisitor {
public:
  DeviceCode(DiagEngine &diag, Places places) : diag_(diag), places_(std::move(places)) {}
  bool ok = true;

protected:
  void visit_node(const Alloc *a) override {
    declare(a, places_, true);
    if (const analysis::MemoryInfo *m = places_[a->name.id].memory();
        m && m->space == analysis::MemSpace::Host)
      ok = diag_.report(a->loc, DiagKind::DeviceAccessesHostMemory, a->name.name, m->name);
    IRVisitor::visit_node(a);
  }
  void visit_node(const WindowStmt *w) override {
    declare(w, places_, true);
    IRVisitor::visit_node(w);
  }
  void visit_node(const Read *r) override {
    auto it = places_.find(r->buf.id);
    if (it == places_.end() || !it->second.tensor || access(r->buf, r->loc))
      IRVisitor::visit_node(r);
  }
  // A store the backend refuses is not emitted further.
  void visit_node(const Assign *a) override {
    if (access(a->buf, a->loc))
      IRVisitor::visit_node(a);
  }
  void visit_node(const Reduce *r) override {
    if (access(r->buf, r->loc))
      IRVisitor::visit_node(r);
  }

private:
  /// False after reporting `buf` as host memory the host declared.
  bool access(const Sym &buf, SrcLoc loc) {
    auto it = places_.find(buf.id);
    if (it == places_.end() || it->second.in_device || !it->second.in(analysis::MemSpace::Host))
      return true;
    return ok = diag_.report(loc, DiagKind::DeviceAccessesHostMemory, buf.name,
                             it->second.memory()->name);
  }

  DiagEngine &diag_;
  Places places_;
};

class HostCode : public IRVisitor {
public:
  HostCode(const ProcNode &proc, DiagEngine &diag,
           const std::function<bool(const With *)> &device_function)
      : proc_(proc), diag_(diag), device_function_(device_function) {
    for (const Arg &a : proc.args)
      places_[a.name.id] = {&a.type.mem, a.type.is_tensor(), false};
  }
  bool ok = true;

protected:
  void visit_node(const For *f) override {
    if (f->mode.kind() == LoopKind::Seq)
      return IRVisitor::visit_node(f);
    ok = diag_.report(f->loc, DiagKind::LoopModeOutsideDevice, f->mode.name, f->iter.name);
  }
  void visit_node(const With *w) override {
    switch (w->context()) {
    case ContextKind::CudaDeviceFunction: {
      if (!device_function_(w))
        return void(ok = false);
      DeviceCode d(diag_, places_);
      d.visit(w->body);
      ok = d.ok && ok;
      return;
    }
    case ContextKind::CudaWarps: ok = diag_.report(w->loc, DiagKind::WarpsOutsideDevice); return;
    }
  }
  void visit_node(const Alloc *a) override {
    declare(a, places_, false);
    IRVisitor::visit_node(a);
  }
  void visit_node(const WindowStmt *w) override {
    declare(w, places_, false);
    IRVisitor::visit_node(w);
  }
  void visit_node(const Read *r) override {
    if (access(*r))
      IRVisitor::visit_node(r);
  }
  // A store whose target is refused is not emitted further: its other
  // accesses go unreported, as in the backend.
  void visit_node(const Assign *a) override {
    if (store(a->buf, a->idx, a->loc))
      IRVisitor::visit_node(a);
  }
  void visit_node(const Reduce *r) override {
    if (store(r->buf, r->idx, r->loc))
      IRVisitor::visit_node(r);
  }

private:
  /// Element accesses only: a whole buffer passed on or asked its stride is
  /// a pointer, and a scalar is a host value.
  bool access(const Read &r) { return r.idx.empty() || access(r.buf, r.loc); }
  bool store(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc) {
    return idx.empty() || access(buf, loc);
  }
  /// False after reporting `buf` as device memory.
  bool access(const Sym &buf, SrcLoc loc) {
    auto it = places_.find(buf.id);
    if (it == places_.end() || !it->second.in(analysis::MemSpace::DeviceGlobal))
      return true;
    return ok = diag_.report(loc, DiagKind::HostAccessesDeviceMemory, proc_.name, buf.name,
                             it->second.memory()->name);
  }

  const ProcNode &proc_;
  DiagEngine &diag_;
  const std::function<bool(const With *)> &device_function_;
  Places places_;
};

} // namespace

bool check_host_code(const ProcNode &proc, DiagEngine &diag,
                     const std::function<bool(const With *)> &device_function) {
  HostCode h(proc, diag, device_function);
  h.visit(proc.body);
  return h.ok;
}

} // namespace exgc::gpu
