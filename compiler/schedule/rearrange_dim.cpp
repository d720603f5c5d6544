// rearrange_dim.cpp - permute the dimensions of an allocation ----------------------//
// rearrange_dim(p, alloc, permutation): dimension k of the new `t` is
// dimension permutation[k] of the old one, in the shape and in every access:
//   t: f32[n, m]  t[i, j]   -- ([1, 0]) -->   t: f32[m, n]  t[j, i]
// Checked: `permutation` lists each dimension number exactly once; a
// permutation of the coordinates maps the elements one to one, so the meaning
// is unchanged. Windows and whole-buffer call arguments are refused (a window
// would change its own layout). Only allocations are rearranged: an
// argument's layout is the caller's.
// Fails when: `alloc` is not the allocation of a data buffer
// (CursorKindMismatch); `permutation` is not a list of ints naming each
// dimension once (NotAPermutation); the buffer is windowed or passed whole
// (DimChangeIndirect).
#include "compiler/schedule/dim_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {

Value rearrange_dim(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt s;
  const Alloc *a = buffer_alloc(in, p, call.arg("alloc").value, call.loc, "rearrange_dim", s);
  const std::vector<Value> &items = *call.arg("permutation").value.list;
  size_t rank = a->type.shape.size();
  std::vector<size_t> perm;
  std::vector<bool> seen(rank, false);
  std::string text;
  for (const Value &v : items)
    text += (text.empty() ? "" : ", ") + (v.kind == Value::Kind::Int ? std::to_string(v.int_value) : v.type_name());
  for (const Value &v : items) {
    if (v.kind != Value::Kind::Int || v.int_value < 0 || v.int_value >= static_cast<int64_t>(rank) ||
        seen[static_cast<size_t>(v.int_value)])
      break;
    seen[static_cast<size_t>(v.int_value)] = true;
    perm.push_back(static_cast<size_t>(v.int_value));
  }
  if (perm.size() != rank || items.size() != rank)
    in.fail(call.loc, DiagKind::NotAPermutation, "[" + text + "]", rank, a->name.name);
  require_element_uses(in, p, *a, "rearrange_dim", call.loc);

  auto permute = [&](const std::vector<Expr> &v) {
    std::vector<Expr> out;
    for (size_t k : perm)
      out.push_back(v[k]);
    return out;
  };
  return Value::of_proc(relayout(p, s, permute(a->type.shape), permute));
}

} // namespace exgc::schedule
