// mult_dim.cpp - merge two dimensions of an allocation into one -------------------//
// mult_dim(p, alloc, hi_dim, lo_dim): dimensions `hi_dim` (extent h) and
// `lo_dim` (extent c, a constant) of `t` become one of extent h * c, at the
// place of hi_dim; every access `t[.., a, .., b, ..]` (a in hi_dim, b in
// lo_dim) becomes `t[.., a * c + b, ..]`:
//   t: f32[n, 4]  t[i, j]   -- (0, 1) -->   t: f32[n * 4]  t[i * 4 + j]
// Checked: the two dimensions differ and c is a constant (an index is linear
// only with a constant factor); every access has 0 <= b < c (IndexSolver,
// under the asserts and the loops and ifs around it), so (a, b) -> a * c + b
// maps the old elements one to one: the meaning is unchanged. Windows and
// whole-buffer call arguments are refused.
// Fails when: `alloc` is not the allocation of a data buffer
// (CursorKindMismatch); a dimension is not one of its dimensions, or both
// are the same (DimOutOfRange, ScriptArgType); c is not a constant
// (DimNotConstant); an index in lo_dim may leave [0, c) (IndexOutsideDim:
// note at the access, counterexample); the buffer is windowed or passed whole
// (DimChangeIndirect).
#include "compiler/ir/printer.h"
#include "compiler/schedule/dim_support.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value mult_dim(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const Alloc *a = buffer_alloc(in, p, call.arg("alloc").value, call.loc, "mult_dim", s);
  size_t hi = dim_arg(in, *a, call.arg("hi_dim"));
  size_t lo = dim_arg(in, *a, call.arg("lo_dim"));
  if (hi == lo)
    fail_arg(in, call.arg("lo_dim"), "a dimension other than hi_dim",
            std::to_string(lo));
  const auto *c = a->type.shape[lo].as<IntImm>();
  if (!c)
    in.fail(call.loc, DiagKind::DimNotConstant, print_expr(a->type.shape[lo]), lo, a->name.name);
  require_element_uses(in, p, *a, "mult_dim", call.loc);
  // Merging is one to one only when every lo index is in [0, c).
  Expr cexp = IntImm::make(c->value);
  require_at_accesses(
      in, p, s,
      [&](const std::vector<Expr> &idx) {
        return BinOp::make(BinOpKind::And, BinOp::make(BinOpKind::Ge, idx[lo], IntImm::make(0)),
                           BinOp::make(BinOpKind::Lt, idx[lo], cexp));
      },
      "that the index in dimension " + std::to_string(lo) + " is in [0, " + std::to_string(c->value) + ")",
      [&](const analysis::Access &acc) {
        return in.diag().report(call.loc, DiagKind::IndexOutsideDim, print_expr(acc.idx[lo]),
                                std::to_string(c->value));
      },
      call.loc);

  auto merge = [&](std::vector<Expr> v, const Expr &merged) {
    v[hi] = merged;
    v.erase(v.begin() + static_cast<long>(lo));
    return v;
  };
  std::vector<Expr> shape = merge(a->type.shape, tidy_index(BinOp::make(BinOpKind::Mul, a->type.shape[hi], cexp)));
  return Value::of_proc(relayout(p, s, shape, [&](const std::vector<Expr> &idx) {
    return merge(idx, tidy_index(BinOp::make(BinOpKind::Add, BinOp::make(BinOpKind::Mul, idx[hi], cexp), idx[lo])));
  }));
}

} // namespace exgc::schedule
