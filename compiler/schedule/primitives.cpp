// primitives.cpp - the table of primitives -----------------------------------//
// Planned primitives are listed with a null implementation, so a script that
// uses one gets "not implemented yet" at its line rather than "unknown name".
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value rename_proc(Interpreter &, const CallSite &);
Value set_loop_mode(Interpreter &, const CallSite &);

namespace {

using K = ParamKind;

const std::vector<PrimitiveSpec> &table() {
  static const std::vector<PrimitiveSpec> t = {
      {"rename", {{"p", K::Proc}, {"name", K::Str}}, rename_proc},
      {"set_loop_mode", {{"p", K::Proc}, {"loop", K::Stmt}, {"mode", K::Meta}}, set_loop_mode},
  };
  return t;
}

// Primitives of the reference's catalog that exgc will provide (issue #3).
const char *const kPlanned[] = {
    "divide_loop", "reorder_loops", "fission", "fuse", "lift_scope", "cut_loop", "shift_loop",
    "unroll_loop", "remove_loop", "add_loop", "mult_loops", "join_loops", "stage_mem",
    "set_memory", "set_precision", "expand_dim", "resize_dim", "divide_dim", "mult_dim",
    "rearrange_dim", "lift_alloc", "sink_alloc", "reuse_buffer", "bind_expr", "inline_window",
    "delete_buffer", "inline", "replace", "call_eqv", "simplify", "specialize", "insert_pass",
    "delete_pass", "reorder_stmts", "commute_expr", "wrap_with_context", "insert_fence",
    "insert_barrier_alloc", "insert_arrive", "insert_await", "set_trailing_barrier_expr",
    "unsafe_remove_if", "bind_window", "rfactor", "butterfly_sum", "add_if", "inline_assign",
    "rewrite_expr",
};

} // namespace

const PrimitiveSpec *find_primitive(const std::string &name) {
  static const std::vector<PrimitiveSpec> planned = [] {
    std::vector<PrimitiveSpec> v;
    for (const char *n : kPlanned)
      v.push_back({n, {}, nullptr});
    return v;
  }();
  for (const std::vector<PrimitiveSpec> *t : {&table(), &planned})
    for (const PrimitiveSpec &p : *t)
      if (name == p.name)
        return &p;
  return nullptr;
}

const char *param_kind_name(ParamKind k) {
  switch (k) {
  case ParamKind::Proc: return "proc";
  case ParamKind::Stmt: return "cursor or pattern";
  case ParamKind::Int: return "int";
  case ParamKind::Bool: return "bool";
  case ParamKind::Str: return "str";
  case ParamKind::List: return "list";
  case ParamKind::Meta: return "descriptor";
  case ParamKind::Any: return "value";
  }
  return "?";
}

} // namespace exgc::schedule
