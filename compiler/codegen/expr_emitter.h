// expr_emitter.h - C++ text of .exg expressions ---------------------------//
// Owns: the translation of expressions shared by the CPU reference, CUDA host
// code and kernels. Control expressions become int64_t/bool arithmetic with
// floor division (`exg_floordiv`, `exg_floormod`, which every generated file
// defines); data expressions are computed in the C++ type of the value they
// are stored into, so a float assignment does float arithmetic (literals are
// spelled in that type). Names are resolved through an Env; the backend's
// `on_access` hook vets every buffer access (host vs device memories).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "compiler/codegen/c_names.h"
#include "compiler/codegen/env.h"
#include "compiler/support/diagnostics.h"

namespace exgc::codegen {

class ExprEmitter {
public:
  ExprEmitter(Env &env, DiagEngine &diag, std::string backend)
      : env_(env), diag_(diag), backend_(std::move(backend)) {}

  /// A control expression (size, index, bool): int64_t or bool; with
  /// narrow_index, int32_t where its value provably fits.
  std::string ctrl(const Expr &e);
  /// A control expression's text and whether its C++ type is 32-bit.
  struct CtrlValue {
    std::string text;
    bool narrow = false;
    std::string wide; // a 64-bit text of the same value, when one was at hand
  };
  CtrlValue ctrl_value(const Expr &e);
  /// ctrl(e) as an int64_t (or a literal): for text that other code computes
  /// with, and offsets into memory whose size no constant bounds.
  std::string ctrl_wide(const Expr &e);
  /// The interval of a control expression, from its names' CxxBinding::range.
  std::optional<analysis::IndexRange> range(const Expr &e);
  /// The C++ type of an iterator over [lo, hi): int32_t under narrow_index
  /// when every value it takes, and hi, fit; else int64_t. Sets `*r` to its
  /// interval when known.
  std::string iterator_ctype(const Expr &lo, const Expr &hi,
                             std::optional<analysis::IndexRange> *r);
  /// A data expression evaluated in C++ type `ctype`.
  std::string data(const Expr &e, const std::string &ctype);
  /// The C++ type a data expression has by itself (its first read's type);
  /// empty when it is made of literals only.
  std::string data_ctype(const Expr &e);
  /// The view a tensor argument denotes: a whole buffer (`x`) or a window
  /// (`x[0:16, i]`). Reports and returns false for anything else.
  bool view_of(const Expr &e, CxxBinding &out);
  /// The C++ lvalue of `buf[idx]` (or the scalar `buf`); sets `*b` to the
  /// buffer's binding. Empty after a reported error.
  std::string lvalue(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc,
                     const CxxBinding **b = nullptr);
  /// After lvalue() of a guarded view: the condition under which the store
  /// lands inside the buffer (empty when unguarded). Taking it clears it.
  std::string take_guard() { return std::move(guard_); }
  /// Reports CodegenNotSupported for `what` at loc; always false.
  bool unsupported(SrcLoc loc, const std::string &what);

  /// True once an expression failed (its diagnostic is reported).
  bool failed() const { return failed_; }
  void reset_failed() { failed_ = false; }
  const std::string &backend() const { return backend_; }
  Env &env() { return env_; }
  DiagEngine &diag() { return diag_; }

  /// Vets an access to buffer `b` (write or read) at loc; false after reporting.
  std::function<bool(const CxxBinding &b, SrcLoc loc, bool write)> on_access;
  /// The C++ type `R` stands for (inside an inlined instruction), or empty.
  std::string r_ctype;
  /// Kernel code: index arithmetic whose values provably fit in int32_t
  /// (value_range.h, each name's CxxBinding::range) is computed in 32 bits; the
  /// rest, and all host and CPU code, in int64_t.
  bool narrow_index = false;
  /// Computes f32 in double (the difftest's numeric model, see emit_cpp).
  bool f32_in_f64 = false;
  /// Allocations start with exg_unset values instead of zeros (the difftest's
  /// model of memory no statement wrote yet, see emit_cpp).
  bool unset_fill = false;
  /// c_type under this emitter's numeric model.
  std::string scalar_ctype(ValueType t) const { return c_type(t, f32_in_f64); }

private:
  const CxxBinding *lookup(const Sym &s, SrcLoc loc);
  std::string read(const Sym &buf, const std::vector<Expr> &idx, SrcLoc loc, const CxxBinding **b);
  std::string call(const Call *c, const std::string &ctype);
  std::string binop(const BinOp *op, const std::string &ctype);
  std::string ctrl_plain(const Expr &e);
  CtrlValue narrow_arith(const BinOp *op);
  CtrlValue narrow_call(const Expr &call);
  /// Index e of view b: 64-bit unless b's memory has constant extents.
  CtrlValue index_value(const CxxBinding &b, const Expr &e);
  /// v's text as an int64_t (or a non-negative literal).
  static std::string wide_text(const CtrlValue &v);
  /// `s`, the text of operand `child` of a `parent` operator, parenthesized
  /// only where C++ precedence needs it.
  std::string operand(const std::string &s, const Expr &child, BinOpKind parent, bool right);
  std::string fail(SrcLoc loc, const std::string &what) {
    unsupported(loc, what);
    return "0";
  }

  Env &env_;
  DiagEngine &diag_;
  std::string backend_;
  bool failed_ = false;
  bool all_wide_ = false; // inside ctrl_wide: names read as int64_t
  bool writing_ = false; // inside lvalue(): a guarded access sets guard_
  std::string guard_;
};

} // namespace exgc::codegen
