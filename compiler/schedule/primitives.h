// primitives.h - the registry of scheduling primitives ----------------------//
// Owns: the table that maps a primitive's name to its parameters and its
// implementation. The interpreter binds a call's positional and keyword
// arguments against the parameters, checks each argument's kind (errors read
// "argument 2, 'factor' to divide_loop: expected int, got str") and calls the
// primitive, which reads each argument by its name (`call.arg("factor")`,
// interpreter.h), never by position, so primitives.def alone says where a
// parameter sits. An argument the call leaves out takes the parameter's
// default from primitives.def, so primitives never restate one. The table also says which primitives skip their safety
// check (EXGC_UNSAFE_PRIMITIVE). Each primitive lives in its own file and is
// listed in primitives.def.
#pragma once
#include <string>
#include <vector>

#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

enum class ParamKind {
  Proc,   // a proc value
  Stmt,   // a cursor, or a string: a pattern or a loop/buffer name
  Int, Bool, Str, List,
  Name,   // a str that is a new name: an identifier, not a keyword (`ab`)
  Count,  // an int of at least 1 (`n_lifts`)
  Meta,   // a descriptor: memory, unit, loop mode, context, timeline
  Any,
  Keywords, // last: the keyword arguments no other parameter names, as a
            // list of [name, value] pairs (replace's template bindings)
};

/// What an argument that the call does not give is: an error (Required),
/// None (Absent: the primitive then does without it), or a value.
struct ParamDefault {
  enum class Kind { Required, Absent, Int, Bool, Str };
  Kind kind = Kind::Required;
  int64_t int_value = 0; // Int, Bool
  const char *str = "";  // Str
  /// The value an absent argument takes (None for Absent).
  Value value() const;
  /// Its spelling in a signature ("1", "False", "\"guard\"", "None").
  std::string spelling() const;
};
constexpr ParamDefault absent() { return {ParamDefault::Kind::Absent}; }
constexpr ParamDefault int_default(int64_t v) { return {ParamDefault::Kind::Int, v}; }
constexpr ParamDefault bool_default(bool v) { return {ParamDefault::Kind::Bool, v}; }
constexpr ParamDefault str_default(const char *s) { return {ParamDefault::Kind::Str, 0, s}; }

/// One parameter: name (what keywords and errors say), kind (checked before
/// the primitive runs) and default.
struct Param {
  const char *name;
  ParamKind kind;
  ParamDefault fallback = {};
  bool required() const { return fallback.kind == ParamDefault::Kind::Required; }
};

using PrimitiveFn = Value (*)(Interpreter &, const CallSite &);

struct PrimitiveSpec {
  const char *name;
  std::vector<Param> params;
  PrimitiveFn fn;
  bool unsafe;    // skips its safety check (EXGC_UNSAFE_PRIMITIVE)
};

/// The primitive named `name`, or null when no primitive has that name.
const PrimitiveSpec *find_primitive(const std::string &name);
/// Every primitive, planned ones included, in primitives.def order.
const std::vector<PrimitiveSpec> &all_primitives();
/// `divide_loop(p: proc, loop: cursor or pattern, factor: int, ...)`: a
/// primitive's one-line description, from its parameters (editors' hover).
std::string primitive_signature(const PrimitiveSpec &p);
const char *param_kind_name(ParamKind k);
/// Whether `name` is a primitive that skips its safety check.
bool is_unsafe_primitive(const std::string &name);

} // namespace exgc::schedule
