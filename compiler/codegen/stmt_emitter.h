// stmt_emitter.h - sequential statements as C++ ---------------------------//
// Owns: the statement translation shared by the CPU reference, CUDA host
// functions and kernels: stores, allocations, windows, seq loops, ifs, proc
// calls (through the callee's internal ABI, abi.h) and instruction calls
// (their behavior inlined with parameters bound to the caller's views).
// Backends subclass it to decide what `with`, sync statements, loop modes
// and memories mean where they emit. Errors are reported and make ok() false;
// emission goes on so one run reports every unsupported statement.
#pragma once
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/codegen/abi.h"
#include "compiler/codegen/effects.h"
#include "compiler/codegen/expr_emitter.h"

namespace exgc::codegen {

/// Indented lines of C++.
class Writer {
public:
  void line(const std::string &s);
  void open(const std::string &head) {
    line(head.empty() ? "{" : head + " {");
    ++indent_;
  }
  void close(const std::string &tail = "}") {
    --indent_;
    line(tail);
  }
  std::string str() const { return os_.str(); }
  int indent_ = 0;

private:
  std::ostringstream os_;
};

class StmtEmitter {
public:
  StmtEmitter(ExprEmitter &ex, Writer &w, NameScope &names, AbiEffects &fx, const ProcNode &proc)
      : ex_(ex), w_(w), names_(names), fx_(fx), proc_(proc) {}
  virtual ~StmtEmitter() = default;

  /// Emits the statements of b in a new binding scope (no braces).
  void block(const Block &b);
  void stmt(const Stmt &s);
  bool ok() const { return ok_ && !ex_.failed(); }

  /// The C name of the function implementing a proc (internal ABI).
  std::function<std::string(const ProcNode *)> impl_name;

protected:
  virtual void emit_store(const Stmt &s, const Sym &buf, const std::vector<Expr> &idx,
                          const Expr &rhs, bool reduce);
  virtual void emit_alloc(const Alloc *a);
  virtual void emit_window(const WindowStmt *w);
  virtual void emit_for(const For *f) { seq_for(f, ""); }
  virtual void emit_if(const If *i);
  virtual void emit_call(const CallStmt *c);
  virtual void emit_with(const With *w) = 0;
  /// Fence, Arrive, Await.
  virtual void emit_sync(const Stmt &s) = 0;
  /// Text before a proc call's arguments (the CUDA stream) and the statement
  /// that runs `call` and returns its failure status.
  virtual std::string call_prefix() { return ""; }
  virtual std::string status_check(const std::string &call) = 0;

  /// `for (int64_t i = lo; i < hi; ++i)` preceded by `pragma` when given.
  void seq_for(const For *f, const std::string &pragma);
  /// Binds loop `f`'s iterator to the int64_t named `c_name` in a new scope
  /// (the caller pops it after the body).
  /// Binds f's iterator as `c_name`, of C++ type `ctype` within `range`.
  void bind_iterator(const For *f, const std::string &c_name, bool in_device,
                     const std::string &ctype = "int64_t",
                     const std::optional<analysis::IndexRange> &range = std::nullopt);
  /// A local (host-style) allocation: scalars and small constant tensors on
  /// the stack, others in a std::vector.
  void host_alloc(const Alloc *a);
  void proc_call(const CallStmt *c, const Proc &callee);
  void inline_instr(const CallStmt *c, const Proc &instr);
  bool fail(SrcLoc loc, const std::string &what) {
    ok_ = false;
    return ex_.unsupported(loc, what);
  }
  bool report_failed() {
    ok_ = false;
    return false;
  }

  ExprEmitter &ex_;
  Writer &w_;
  NameScope &names_;
  AbiEffects &fx_;
  const ProcNode &proc_;
  bool ok_ = true;

private:
  std::vector<const ProcNode *> inlining_;
};

/// The run-time checks at the entry of a generated function: each `size`
/// argument is in [1, size_max] (C++ text; control_limits.h's kMaxSize when
/// empty), each `index` within that limit, and each `assert` holds;
/// `fail_stmt(line)` is the statement run when the check of source line
/// `line` fails.
void emit_preconditions(const ProcNode &p, ExprEmitter &ex, Writer &w,
                        const std::function<std::string(uint32_t line)> &fail_stmt,
                        const std::string &size_max = "");

} // namespace exgc::codegen
