// c_names.h - C++ spellings of names, types and literals ------------------//
// Owns: how an .exg name becomes a C++ identifier that clashes with nothing
// (keywords, the `exg_` prefix the generated code reserves for itself, other
// names in the same function), and the C++ type of each element type. Both
// backends use it, so the CPU reference and the CUDA host functions spell
// the same proc with the same parameter names.
#pragma once
#include <cstdint>
#include <set>
#include <string>

#include "compiler/ir/nodes.h"

namespace exgc::codegen {

/// Makes `name` a safe C++ identifier: C++ keywords, names of the C library
/// the generated code may call, macros of the headers it includes
/// (c_macro_names.inc), and names starting with `exg_`, `cuda`, `CU` or `cu`
/// and a capital get a trailing `_` (the generated code never makes a name
/// ending in `_`).
std::string c_identifier(const std::string &name);

/// The C names used in one generated function: `take` returns `base` made
/// safe, or `base_1`, `base_2`... when taken already.
class NameScope {
public:
  std::string take(const std::string &base);
  /// Like take, for names the generated code makes for itself (`exg_task`):
  /// `base` is used as it is, never made "safe".
  std::string take_internal(const std::string &base);
  /// Marks a name as used without renaming it (runtime helpers, parameters).
  void reserve(const std::string &name) { used_.insert(name); }

private:
  std::set<std::string> used_;
};

/// How the entry points (the public functions of the requested procs) are
/// named and declared (exgc --function-prefix, --namespace): `prefix` and
/// the proc's name, extern "C" at global scope, or with C++ linkage inside
/// `cxx_namespace` (`a::b`) when that is set. Two libraries of one module
/// link into one program when these differ.
struct EntryNaming {
  std::string prefix;
  std::string cxx_namespace;
};

/// Why `prefix` cannot begin the names of entry points, or "" when it can:
/// it must be a C identifier that no reserved name (`exg_`, `cuda`, `CU`,
/// `__`, `_X`) starts, so that `prefix` + proc is the entry point's name.
std::string function_prefix_problem(const std::string &prefix);
/// Why `path` (`a` or `a::b`) cannot be the entry points' namespace, or "".
std::string namespace_problem(const std::string &path);

/// The C++ type of a scalar: int64_t for size, index and integer literals,
/// bool, float, double, int8_t, uint8_t, uint16_t, int32_t, exg_bf16, exg_f16
/// (the generated files define them: float16_definitions()). Empty for the
/// types the backends cannot store yet (fp8) and for R.
/// `f32_in_f64` gives f32 `double` (the difftest's numeric model).
std::string c_type(ValueType t, bool f32_in_f64 = false);

/// True for the C++ types of integer data (int8_t, uint8_t, uint16_t, int32_t)
/// and of control values (int64_t).
bool is_integer_ctype(const std::string &ctype);

/// `value` (of C++ type `from`) converted to C++ type `to`: itself when they
/// agree; a floating value to integer data saturates at the type's range and
/// NaN gives 0 (`exg_to_int`, as PTX `cvt.rzi` does), where a C++ cast would
/// be undefined; anything else is a `static_cast`.
std::string c_convert(const std::string &value, const std::string &from, const std::string &to);

/// A literal of C++ type `ctype` (one of c_type's results) with value v.
std::string c_literal(double v, const std::string &ctype);
std::string c_int_literal(int64_t v);
/// True when s is a non-negative decimal literal (a constant stride, `0`).
bool is_digits(const std::string &s);

/// `(s)` unless s is already an identifier, a number or parenthesized.
std::string paren(const std::string &s);

} // namespace exgc::codegen
