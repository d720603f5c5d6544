// index_eval.h - the exact value of a control expression, for tests -------//
// The language's meaning of index arithmetic (unbounded integers, floor `/`
// and `%`, min, max, select), in 128 bits: the oracle the index-form,
// interval and 32-bit-emission tests compare against.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "compiler/ir/nodes.h"
#include "compiler/support/floor_div.h"

namespace exgc::testing {

/// The value of `e`, each name's from `value_of`.
inline __int128 eval_index(const Expr &e, const std::function<__int128(const Sym &)> &value_of) {
  auto eval = [&](const Expr &x) { return eval_index(x, value_of); };
  if (const auto *i = e.as<IntImm>())
    return i->value;
  if (const auto *v = e.as<Var>())
    return value_of(v->name);
  if (const auto *u = e.as<UnOp>())
    return -eval(u->a);
  if (const auto *c = e.as<Call>()) {
    if (c->func == "select")
      return eval(c->args[0]) < eval(c->args[1]) ? eval(c->args[2]) : eval(c->args[3]);
    __int128 x = eval(c->args[0]), y = eval(c->args[1]);
    return c->func == "min" ? std::min(x, y) : std::max(x, y);
  }
  const auto *b = e.as<BinOp>();
  __int128 x = eval(b->a), y = eval(b->b);
  switch (b->op) {
  case BinOpKind::Add: return x + y;
  case BinOpKind::Sub: return x - y;
  case BinOpKind::Mul: return x * y;
  case BinOpKind::Div: return floor_div(x, y);
  case BinOpKind::Mod: return x - y * floor_div(x, y);
  default: return 0; // not index arithmetic
  }
}

/// eval_index with names' values by Sym id.
inline __int128 eval_index(const Expr &e, const std::map<uint32_t, int64_t> &by_id) {
  return eval_index(e, [&](const Sym &s) -> __int128 { return by_id.at(s.id); });
}

} // namespace exgc::testing
