// inline.cpp - replace a call by the callee's body --------------------------//
// inline(p, call): `f(n, x[i, 0:8], a)` becomes f's body with its parameters
// replaced by the arguments: size, index and data scalar parameters by the
// argument expressions; a tensor parameter passed whole by the buffer; a
// window parameter `B` passed `x[i, 0:8]` by the window composed into every
// index (`B[k]` becomes `x[i, k]`, `B[a:b]` becomes `x[i, a:b]`,
// `stride(B, 0)` becomes `stride(x, 1)`, `offset(B, 0)` becomes
// `offset(x, 1)`). The copy gets fresh statement ids and fresh bindings;
// what it declares is renamed (`t_1`) when the name is taken in `p`.
// The callee's asserts are dropped, which is sound only where they hold:
// Checked: the call passes every check the typecheck makes at a call, on `p`
// as it is now: each assert of `f` is proven at the call site (Z3, under the
// asserts of `p` and the scopes around the call; stride and offset asserts
// against the actual windows); a data argument (passed by value, read once
// before the body runs) reads no buffer the body writes, or inlining would
// read it after the write.
// Fails when: `call` is not a call (CursorKindMismatch); `f` is an instr
// (InlineInstr); an assert or another call check of `f` may fail
// (InlineCallRejected, with the typecheck's message and counterexample); a
// data argument reads what the body writes (InlineArgWritten).
#include "compiler/analysis/effects.h"
#include "compiler/analysis/simplify.h"
#include "compiler/ir/mutator.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

Expr plus(const Expr &a, const Expr &b) {
  if (!a)
    return b;
  if (!b)
    return a;
  if (const auto *z = a.as<IntImm>(); z && z->value == 0)
    return b;
  return analysis::simplify_expr(BinOp::make(BinOpKind::Add, a, b, b->loc));
}

/// What a buffer parameter stands for: `buf`, or the window `buf[w]`.
struct BufArg {
  Sym buf;
  ValueType type;
  bool window = false;
  std::vector<WindowIdx> w;
};

struct Inliner : IRMutator {
  std::map<uint32_t, Expr> vars;
  std::map<uint32_t, BufArg> bufs;
  std::set<std::string> caller; // every name the caller declares

  /// The indices `idx` of a parameter, in the coordinates of the buffer.
  std::vector<Expr> compose(const BufArg &b, const std::vector<Expr> &idx) {
    std::vector<Expr> out;
    if (!b.window) {
      for (const Expr &e : idx)
        out.push_back(mutate(e));
      return out;
    }
    for (size_t d = 0, j = 0; d < b.w.size(); ++d)
      out.push_back(b.w[d].is_slice ? plus(b.w[d].lo, mutate(idx[j++])) : b.w[d].lo);
    return out;
  }
  /// The dimension of the buffer that dimension `d` of the parameter is.
  size_t source_dim(const BufArg &b, size_t d) {
    if (!b.window)
      return d;
    for (size_t s = 0, j = 0; s < b.w.size(); ++s)
      if (b.w[s].is_slice && j++ == d)
        return s;
    return d;
  }

  Expr mutate_node(const Var *op, const Expr &self) override {
    auto it = vars.find(op->name.id);
    return it == vars.end() ? self : it->second;
  }
  Expr mutate_node(const Read *op, const Expr &self) override {
    auto it = bufs.find(op->buf.id);
    if (it == bufs.end())
      return IRMutator::mutate_node(op, self);
    const BufArg &b = it->second;
    if (op->idx.empty() && b.window) // the whole parameter, passed on
      return WindowExpr::make(b.buf, b.w, b.type, op->loc);
    return Read::make(b.buf, compose(b, op->idx), op->type, op->loc);
  }
  Expr mutate_node(const WindowExpr *op, const Expr &self) override {
    auto it = bufs.find(op->buf.id);
    if (it == bufs.end())
      return IRMutator::mutate_node(op, self);
    const BufArg &b = it->second;
    std::vector<WindowIdx> out;
    for (size_t d = 0, j = 0; d < (b.window ? b.w.size() : op->idx.size()); ++d) {
      if (b.window && !b.w[d].is_slice) {
        out.push_back(b.w[d]);
        continue;
      }
      const WindowIdx &i = op->idx[b.window ? j++ : d];
      Expr lo = b.window ? b.w[d].lo : Expr();
      if (!i.is_slice)
        out.push_back(WindowIdx::point(plus(lo, mutate(i.lo))));
      else
        out.push_back(WindowIdx::slice(plus(lo, i.lo ? mutate(i.lo) : Expr()),
                                       i.hi ? plus(lo, mutate(i.hi)) : (b.window ? b.w[d].hi : Expr())));
    }
    return WindowExpr::make(b.buf, std::move(out), op->type, op->loc);
  }
  Expr mutate_node(const Call *op, const Expr &self) override {
    const auto *r = op->args.size() == 2 ? op->args[0].as<Read>() : nullptr;
    const auto *d = op->args.size() == 2 ? op->args[1].as<IntImm>() : nullptr;
    if ((op->func != "stride" && op->func != "offset") || !r || !d || !bufs.count(r->buf.id))
      return IRMutator::mutate_node(op, self);
    const BufArg &b = bufs.at(r->buf.id);
    size_t s = source_dim(b, static_cast<size_t>(d->value));
    Expr call = Call::make(op->func, {Read::make(b.buf, {}, r->type, r->loc), IntImm::make(s, d->loc)},
                           {}, op->type, op->loc);
    return op->func == "offset" && b.window ? plus(call, b.w[s].lo) : call;
  }
  Block mutate_node(const Assign *op, const Stmt &self) override {
    auto it = bufs.find(op->buf.id);
    if (it == bufs.end())
      return IRMutator::mutate_node(op, self);
    return {Assign::make(it->second.buf, compose(it->second, op->idx), mutate(op->rhs), op->loc)};
  }
  Block mutate_node(const Reduce *op, const Stmt &self) override {
    auto it = bufs.find(op->buf.id);
    if (it == bufs.end())
      return IRMutator::mutate_node(op, self);
    return {Reduce::make(it->second.buf, compose(it->second, op->idx), mutate(op->rhs), op->loc)};
  }
  Block mutate_node(const For *op, const Stmt &self) override {
    // The typecheck forbids shadowing: an iterator whose name is taken in
    // the caller gets a new one.
    Sym it = op->iter;
    if (caller.count(it.name)) {
      std::string name = it.name;
      for (int k = 1; caller.count(name); ++k)
        name = it.name + "_" + std::to_string(k);
      it = Sym::fresh(name);
      vars[op->iter.id] = iter_var(it);
    }
    Block r = IRMutator::mutate_node(op, self);
    auto n = std::make_shared<For>(*r[0].as<For>());
    n->iter = it;
    return {Stmt(n)};
  }
};

} // namespace

Value inline_call(Interpreter &in, const CallSite &call) {
  const Proc &p = call.args[0].proc;
  Stmt s;
  const CallStmt *cs = call_stmt_arg(in, call, s);
  Proc callee = callee_of(in, p, cs->callee);
  EXGC_CHECK(callee) << "a call names a proc in scope or a result: " << cs->callee;
  if (callee->is_instr)
    in.fail(call.loc, DiagKind::InlineInstr, callee->name);
  // The asserts are dropped: they must hold here, as the typecheck proves them.
  if (auto err = first_error_at(in, *p, cs->loc))
    fail_with_cause(in, call.loc, *err, DiagKind::InlineCallRejected, callee->name);

  std::set<std::string> taken = declared_names(*p);
  Inliner m;
  m.caller = taken;
  std::vector<std::pair<const Arg *, Expr>> by_value; // data scalar arguments
  for (size_t i = 0; i < callee->args.size() && i < cs->args.size(); ++i) {
    const Arg &a = callee->args[i];
    const Expr &actual = cs->args[i];
    bool buffer = a.type.kind == Type::Kind::Barrier || !a.type.shape.empty();
    if (!buffer) {
      m.vars[a.name.id] = actual;
      if (a.type.kind == Type::Kind::Data)
        by_value.push_back({&a, actual});
    } else if (const auto *we = actual.as<WindowExpr>()) {
      m.bufs[a.name.id] = {we->buf, we->type, true, we->idx};
    } else if (const auto *r = actual.as<Read>()) {
      m.bufs[a.name.id] = {r->buf, r->type, false, {}};
    } else if (const auto *v = actual.as<Var>()) {
      m.bufs[a.name.id] = {v->name, v->type, false, {}};
    }
  }
  Block body = copy_block(m.mutate(callee->body), {}, true, &taken);
  if (body.empty())
    body.push_back(Pass::make(call.loc));
  Proc out = replace_stmt(p, s->id, [&](const Stmt &) -> Block { return body; });

  // A by-value argument was read once, before the body ran.
  analysis::EffectCollector effects(*out, callee_lookup(in, out));
  analysis::Effects writes = effects.of(body);
  for (const auto &[a, actual] : by_value)
    for (const analysis::Access &r : effects.of_expr(actual).accesses)
      for (const analysis::Access &w : writes.accesses)
        if (w.kind != analysis::AccessKind::Read && w.buf == r.buf)
          in.fail(call.loc, DiagKind::InlineArgWritten, a->name.name, callee->name, r.buf.name);
  return Value::of_proc(out);
}

} // namespace exgc::schedule
