// device_code.cpp - which code of a body runs on the GPU --------------------//
#include "compiler/ir/device_code.h"

#include "compiler/ir/visitor.h"

namespace exgc {

namespace {

struct DeviceCodeFinder : IRVisitor {
  DeviceCode out;
  void visit_node(const With *op) override {
    bool device = op->context() == ContextKind::CudaDeviceFunction;
    out.has_device_function |= device;
    depth_ += device;
    IRVisitor::visit_node(op);
    depth_ -= device;
  }
  void visit_node(const CallStmt *op) override {
    out.callees.insert(op->callee);
    if (depth_)
      out.device_callees.insert(op->callee);
    IRVisitor::visit_node(op);
  }

private:
  int depth_ = 0;
};

} // namespace

DeviceCode device_code(const Block &body) {
  DeviceCodeFinder f;
  f.visit(body);
  return std::move(f.out);
}

} // namespace exgc
