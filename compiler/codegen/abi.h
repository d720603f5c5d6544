// abi.h - parameter lists of generated functions --------------------------//
// Owns: the C ABI of generated functions (docs/abi.md is its user-facing
// description), the same for extern "C" functions and internal helpers:
// size and index -> int64_t, bool -> bool, a data scalar -> by value, or a
// pointer when the proc writes it; a tensor `T[e0, e1]` -> a pointer to its
// first element (`const T*` when never written), dense row-major; a window
// `[T][e0, e1]` -> a pointer plus one int64_t stride (in elements) per
// dimension. Dense parameters keep strides compile-time known where the shape
// is, which matters in kernels; a caller passes them whole buffers or
// contiguous windows (`x[i, :]`). Barrier arguments have no run-time value
// yet and are not passed.
#pragma once
#include <string>
#include <vector>

#include "compiler/codegen/c_names.h"
#include "compiler/codegen/expr_emitter.h"
#include "compiler/ir/fold.h"

namespace exgc::codegen {

struct ParamAbi {
  enum class Pass { Value, Pointer, Dense, Strided, None };
  const Arg *arg = nullptr;
  Pass pass = Pass::Value;
  std::string ctype;                     // scalar or element C type
  std::string name;                      // the C parameter (value or pointer)
  std::vector<std::string> stride_names; // Strided: one per dimension
  bool is_const = false;                 // pointer to const
};

struct ProcAbi {
  std::vector<ParamAbi> params;
};

/// The parameters of p. `written` comes from AbiEffects::written. Reports
/// element types the backends cannot store and returns false.
/// `f32_in_f64`: f32 parameters are passed as double (see c_type).
bool make_abi(const ProcNode &p, const std::vector<bool> &written, NameScope &names, DiagEngine &diag, const std::string &backend, ProcAbi &out, bool f32_in_f64 = false);

/// `int64_t n, float a, const float *x, int64_t x_stride0` (no leading comma).
/// `maybe_unused` marks each one so (for definitions: a proc may not use all).
std::string param_decls(const ProcAbi &abi, bool maybe_unused = false);

/// The C arguments forwarding every parameter of `abi` (by name, strides
/// after their pointer), comma-separated: what a public function passes on.
std::string forward_args(const ProcAbi &abi);

/// A header declaring `decls` (one prototype a line) in the entry points'
/// scope: `comment` (lines starting "// ") first, then `#pragma once`,
/// `includes` and <stdint.h>/<stdbool.h>. Usable from C and C++ with
/// extern "C"; with a namespace, from C++ only (C gets an #error saying so).
std::string c_header(const std::string &comment, const std::string &includes,
                     const std::string &decls, const EntryNaming &entries);

/// What opens and closes the scope of the entry points' declarations and
/// definitions: `extern "C" {`, or `namespace a {` `namespace b {` (each on
/// its own line, so C++ before 17 reads them too).
std::string entry_scope_open(const EntryNaming &entries);
std::string entry_scope_close(const EntryNaming &entries);

/// The C and C++ definitions of `exg_bf16` (the upper 16 bits of an IEEE
/// binary32) and `exg_f16` (an IEEE binary16), each guarded so that a header
/// and the file including it may both hold it; in C++ each converts to float
/// exactly and from float rounding to nearest even (NaN stays NaN), on the
/// host and, under nvcc, on the device. Only the types `code` mentions.
std::string float16_definitions(const std::string &code);

/// Binds every argument of the proc to its parameters in ex.env(). Dense
/// tensors get row-major strides computed from their shapes.
void bind_params(const ProcAbi &abi, ExprEmitter &ex);

/// Sets the in-buffer index ranges of view `b` to [0, extent) per dimension.
void set_extents(CxxBinding &b, const std::vector<Expr> &shape, ExprEmitter &ex);

/// Row-major strides of a tensor of this shape: "1" for the last dimension,
/// products of the later extents (folded when constant) for the others.
std::vector<std::string> dense_strides(const std::vector<Expr> &shape, ExprEmitter &ex);

/// `exg::sm90::Swizzle`'s enumerator for a swizzle of `bytes` (0, 32, 64 or
/// 128), else null.
const char *swizzle_enumerator(int64_t bytes);

} // namespace exgc::codegen
