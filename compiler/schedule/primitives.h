// primitives.h - the registry of scheduling primitives ----------------------//
// Owns: the table that maps a primitive's name to its parameters and its
// implementation. The interpreter binds a call's positional and keyword
// arguments against the parameters, checks each argument's kind (errors read
// "argument 2, 'factor' to divide_loop: expected int, got str") and calls the
// primitive, which reads each argument by its name (`call.arg("factor")`,
// interpreter.h), never by position, so primitives.def alone says where a
// parameter sits. The table also says which primitives skip their safety
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
  Meta,   // a descriptor: memory, unit, loop mode, context, timeline
  Any,
  Keywords, // last: the keyword arguments no other parameter names, as a
            // list of [name, value] pairs (replace's template bindings)
};

struct Param {
  const char *name;
  ParamKind kind;
  bool required = true;
};

using PrimitiveFn = Value (*)(Interpreter &, const CallSite &);

struct PrimitiveSpec {
  const char *name;
  std::vector<Param> params;
  PrimitiveFn fn; // null: planned but not implemented yet
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
