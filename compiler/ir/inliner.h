// inliner.h - substituting parameters and composing windows --------------//
// Owns: Inliner, the rewrite behind schedule `inline` and `inline_window`
// and the GPU stage's inlining of device calls: values for scalar
// parameters, and buffers or windows for buffer parameters (or window
// names), composed into every index, window, `stride` and `offset` of a body.
// Composed indices are folded (ir/fold.h).
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/ir/mutator.h"

namespace exgc {

/// a + b, folded, leaving out a missing or literal-0 `a`.
Expr plus_folded(const Expr &a, const Expr &b);

/// What a buffer parameter stands for: `buf`, or the window `buf[w]`.
struct BufArg {
  Sym buf;
  ValueType type;
  bool window = false;
  std::vector<WindowIdx> w;
};

struct Inliner : IRMutator {
  std::map<uint32_t, Expr> vars;
  std::map<uint32_t, BufArg> bufs;
  std::set<std::string> caller; // every name the caller declares

  /// Binds the buffer parameter `param` to the argument `actual`: a window
  /// (composed into every index), a buffer read whole or a buffer name.
  /// False when `actual` names no buffer.
  bool bind_buffer(const Sym &param, const Expr &actual);

  /// The indices `idx` of a parameter, in the coordinates of the buffer.
  std::vector<Expr> compose(const BufArg &b, const std::vector<Expr> &idx);
  /// The dimension of the buffer that dimension `d` of the parameter is.
  static size_t source_dim(const BufArg &b, size_t d);

  Expr mutate_node(const Var *op, const Expr &self) override;
  Expr mutate_node(const Read *op, const Expr &self) override;
  Expr mutate_node(const WindowExpr *op, const Expr &self) override;
  Expr mutate_node(const Call *op, const Expr &self) override;
  Block mutate_node(const Assign *op, const Stmt &self) override;
  Block mutate_node(const Reduce *op, const Stmt &self) override;
  Block mutate_node(const For *op, const Stmt &self) override;
};

} // namespace exgc
