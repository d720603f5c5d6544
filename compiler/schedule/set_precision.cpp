// set_precision.cpp - change the element type of an allocated buffer ---------//
// set_precision(p, alloc, "f64"): `x: f32[n]` -> `x: f64[n]`.
// Checked: the sequential meaning is over reals and a precision only says
// how the machine rounds them, so a float type may become another float type
// and an integer type another integer type. Changing between the two would
// change values (0.25 stored as an integer is 0), and is refused.
// Fails when: `alloc` is not the allocation of a data buffer, the type is
// not a data type (NotADataType), or the change crosses between integers and
// floats (PrecisionChangesKind).
#include "compiler/schedule/edit.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

bool is_float(ValueType t) {
  switch (t) {
  case ValueType::F16: case ValueType::BF16: case ValueType::F32: case ValueType::F64:
  case ValueType::E4M3: case ValueType::E5M2: case ValueType::R:
    return true;
  default:
    return false;
  }
}

} // namespace

Value set_precision(Interpreter &in, const CallSite &call) {
  const Proc &p = call.args[0].proc;
  Stmt s = stmt_arg(in, p, call.args[1], call.loc);
  const auto *a = s.as<Alloc>();
  if (!a || a->type.kind != Type::Kind::Data)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'set_precision'", "the allocation of a buffer");
  const std::string &name = call.args[2].str;
  ValueType t;
  if (!parse_value_type(name, t) || !is_data(t))
    in.fail(call.loc, DiagKind::NotADataType, name);
  if (is_float(t) != is_float(a->type.scalar))
    in.fail(call.loc, DiagKind::PrecisionChangesKind, a->name.name, value_type_name(a->type.scalar),
            name);
  return Value::of_proc(replace_stmt(p, s->id, [&](const Stmt &old) -> Block {
    auto alloc = std::make_shared<Alloc>(*old.as<Alloc>());
    alloc->type.scalar = t;
    return {Stmt(alloc)};
  }));
}

} // namespace exgc::schedule
