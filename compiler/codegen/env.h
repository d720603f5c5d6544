// env.h - what each .exg name means in the C++ being written --------------//
// Owns: CxxBinding (how to read, write or pass a name) and Env (scoped bindings
// by Sym). Backends bind a proc's parameters, then allocations, windows and
// iterators as they meet them; an inlined instruction binds its parameters to
// the caller's expressions. Kernels use Env's `outer` hook to turn a name of
// the host function into a kernel parameter the first time the body uses it.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compiler/analysis/value_range.h"
#include "compiler/ir/nodes.h"

namespace exgc::codegen {

/// How a name is spelled in C++.
///  - Scalar: `expr` is an expression of type `ctype` (an lvalue when
///    `writable`): a parameter, a local, `(*p)` for a written scalar argument.
///  - View: a tensor or window: element (i0, i1, ...) is
///    `base[i0 * strides[0] + i1 * strides[1] + ...]`.
struct CxxBinding {
  enum class Kind { Scalar, View, Barrier };
  Kind kind = Kind::Scalar;
  ValueType type = ValueType::F32; // element or scalar type (R resolved away in ctype)
  std::string ctype;
  std::string expr;                // Scalar: the value; View: the base pointer
  bool writable = false;           // Scalar: may be assigned
  bool is_const = false;           // View: points to const
  std::vector<std::string> strides;
  Expr mem;                        // memory annotation; null means DRAM
  Sym sym;                         // the .exg name
  bool in_device = false;          // declared inside a device function
  bool dense = false;              // View: a whole row-major buffer (strides from its shape)
  // View: the indices of each dimension that lie inside the buffer the view
  // is carved from (`in_lo[d] <= i < in_hi[d]`) and a condition on the
  // window's points; empty when not known. An instruction's `out_of_bounds:`
  // parameter is `guarded`: reads outside give 0, writes outside are dropped.
  std::vector<std::string> in_lo, in_hi;
  std::string in_cond;
  bool guarded = false;
  // View of an `Sm90_tensorMap` window: `expr` names the CUtensorMap and
  // `tma_coord` is the window's origin in the tensor, outermost first.
  bool tensor_map = false;
  std::vector<std::string> tma_coord;
  // Sm90_RmemMatrixD: the leading dimensions distributed over warpgroups;
  // the dimensions after them, before the [64, N] tile, index an array of
  // fragments each thread keeps (a warpgroup's slabs of 64 rows).
  size_t owned_dims = 0;
  // View of an `Sm90_SmemSwizzled(bytes)` buffer: its 16-byte chunks are
  // permuted by address bits, so an element access indexes `swizzle_base`
  // (the buffer, on the pattern's alignment) at the swizzled image of
  // `swizzle_origin` (the view's first element, in elements of the buffer)
  // plus the row-major offset. `expr` stays the linear address instructions
  // take, since TMA and wgmma apply the swizzle themselves.
  int64_t swizzle_bytes = 0;
  std::string swizzle_base, swizzle_origin;
  // Scalar control value: the interval it lies in, when known (a size a
  // kernel receives, an iterator); kernel code computes in 32 bits with it.
  std::optional<analysis::IndexRange> range;
  SrcLoc decl_loc;
  size_t rank() const { return strides.size(); }
};

class Env {
public:
  Env() { push(); }
  void push() { scopes_.emplace_back(); }
  void pop() { scopes_.pop_back(); }
  void bind(const Sym &s, CxxBinding b) { scopes_.back()[key(s)] = std::move(b); }
  /// The innermost binding of `s`, else whatever `outer` gives, else null.
  const CxxBinding *lookup(const Sym &s) const;
  /// Consulted when a name is not bound here (kernels capturing host names).
  std::function<const CxxBinding *(const Sym &)> outer;

private:
  static std::string key(const Sym &s) { return s.name + "#" + std::to_string(s.id); }
  std::vector<std::map<std::string, CxxBinding>> scopes_;
};

/// Element access `base[off]` of a view at C index expressions `idx`.
std::string view_element(const CxxBinding &view, const std::vector<std::string> &idx);
/// A swizzled view's `swizzle_origin` moved to element `idx` (a window's origin).
std::string view_origin_offset(const CxxBinding &view, const std::vector<std::string> &idx);
/// Pointer to element `idx` (`base + off`, or `base` at offset 0).
std::string view_address(const CxxBinding &view, const std::vector<std::string> &idx);

} // namespace exgc::codegen
