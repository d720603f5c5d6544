// loop_support.cpp - copying code and reporting failed checks -------------------//
#include "compiler/schedule/loop_support.h"

#include <cctype>
#include <cmath>
#include <sstream>

#include "compiler/ir/fold.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/call_support.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/index_expr.h"
#include "compiler/support/identifier.h"

namespace exgc::schedule {

bool is_name(const std::string &t) { return is_exg_name(t); }

bool two_names(const std::string &s, std::string &a, std::string &b) {
  // `a` and `b` stay as they were unless both are names: "r #2" is a pattern
  // (the second loop r), and its words must not leak into the caller.
  std::istringstream is(s);
  std::string first, second, extra;
  if (!(is >> first >> second) || (is >> extra) || !is_name(first) || !is_name(second))
    return false;
  a = first;
  b = second;
  return true;
}

namespace {
/// Adds what the statements of `b` declare at its level (allocations, windows).
void add_block_decls(const Block &b, std::set<std::string> &out) {
  for (const Stmt &t : b) {
    if (const auto *a = t.as<Alloc>())
      out.insert(a->name.name);
    else if (const auto *w = t.as<WindowStmt>())
      out.insert(w->name.name);
  }
}

/// Adds the names visible in `b` on the way down to `target`; true when found.
bool scope_names(const Block &b, NodeId target, std::set<std::string> &out) {
  for (const Stmt &s : b) {
    if (s->id == target)
      return true;
    bool inside = false;
    for (const Block *child : child_blocks(s))
      if (scope_names(*child, target, out))
        inside = true;
    if (inside) {
      if (const auto *f = s.as<For>())
        out.insert(f->iter.name);
      add_block_decls(b, out);
      return true;
    }
  }
  return false;
}
} // namespace

std::set<std::string> names_in_scope(const ProcNode &p, const Stmt &s) {
  std::set<std::string> out;
  for (const Arg &a : p.args)
    out.insert(a.name.name);
  if (scope_names(p.body, s->id, out)) {
    // The block holding `s` itself.
    Located l;
    if (locate(p, s->id, l))
      add_block_decls(*l.block, out);
  }
  for (const Block *child : child_blocks(s))
    collect_declared_names(*child, out);
  if (const auto *a = s.as<Alloc>())
    out.insert(a->name.name);
  if (const auto *w = s.as<WindowStmt>())
    out.insert(w->name.name);
  return out;
}

namespace {
/// Renames every Sym to a canonical one: a name the code binds becomes
/// `$k` (k-th binding, in order), any other `name#id`, so printing the
/// result compares code up to the choice of bound names.
struct Canonical : IRMutator {
  std::map<uint32_t, Sym> bound;
  Sym name(const Sym &s) {
    if (auto it = bound.find(s.id); it != bound.end())
      return it->second;
    return Sym{s.name + "#" + std::to_string(s.id), s.id};
  }
  Sym bind(const Sym &s) {
    Sym n{"$" + std::to_string(bound.size()), s.id};
    bound[s.id] = n;
    return n;
  }
  Expr mutate_node(const Var *op, const Expr &self) override {
    if (op->name.is_global())
      return self;
    return Var::make(name(op->name), op->type, op->loc);
  }
  Expr mutate_node(const Read *op, const Expr &self) override {
    Expr e = IRMutator::mutate_node(op, self);
    const auto *r = e.as<Read>();
    return Read::make(name(op->buf), r->idx, r->type, r->loc);
  }
  Expr mutate_node(const WindowExpr *op, const Expr &self) override {
    Expr e = IRMutator::mutate_node(op, self);
    const auto *w = e.as<WindowExpr>();
    return WindowExpr::make(name(op->buf), w->idx, w->type, w->loc);
  }
  Block mutate_node(const Assign *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    return {r[0].as<Assign>()->edited([&](Assign &n) { n.buf = name(op->buf); })};
  }
  Block mutate_node(const Reduce *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    return {r[0].as<Reduce>()->edited([&](Reduce &n) { n.buf = name(op->buf); })};
  }
  Block mutate_node(const Alloc *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    return {r[0].as<Alloc>()->edited([&](Alloc &n) { n.name = bind(op->name); })};
  }
  Block mutate_node(const WindowStmt *op, const Stmt &self) override {
    Block r = IRMutator::mutate_node(op, self);
    return {r[0].as<WindowStmt>()->edited([&](WindowStmt &n) { n.name = bind(op->name); })};
  }
  Block mutate_node(const For *op, const Stmt &self) override {
    Sym it = bind(op->iter);
    Block r = IRMutator::mutate_node(op, self);
    return {r[0].as<For>()->edited([&](For &n) { n.iter = it; })};
  }
};
} // namespace

bool same_code(const Block &a, const Block &b) {
  Canonical ca, cb;
  return print_block(ca.mutate(a), 0) == print_block(cb.mutate(b), 0);
}

namespace {
/// Spellings that differ while the values cannot: a sum of control values
/// associated to the left (`a + (b + c)` is `a + b + c`: divide_loop nests
/// its substitutions, a hand writes them flat), and a real literal with an
/// integer value written as the integer (`0.0` is `0`: the sequential meaning
/// is over reals).
struct Spelling : IRMutator {
  Expr mutate_node(const BinOp *op, const Expr &self) override {
    Expr e = IRMutator::mutate_node(op, self);
    const auto *sum = e.as<BinOp>();
    const auto *right = sum ? sum->b.as<BinOp>() : nullptr;
    if (!sum || sum->op != BinOpKind::Add || !is_control(sum->type) || !right ||
        right->op != BinOpKind::Add)
      return e;
    return mutate(BinOp::make(BinOpKind::Add,
                              BinOp::make(BinOpKind::Add, sum->a, right->a, sum->loc), right->b,
                              sum->loc));
  }
  Expr mutate_node(const FloatImm *op, const Expr &self) override {
    if (op->value != static_cast<double>(static_cast<int64_t>(op->value)) ||
        std::abs(op->value) > 9007199254740992.0)
      return self;
    return IntImm::make(static_cast<int64_t>(op->value), op->loc);
  }
};

/// `p` printed with every name it binds, its arguments first, canonical.
std::string canonical_text(const ProcNode &p) {
  Canonical c;
  Spelling sp;
  std::string out;
  for (const Arg &a : p.args)
    out += c.bind(a.name).name + ": ";
  for (const Arg &a : p.args)
    out += print_type(c.mutate_type(a.type)) + ", ";
  for (const Expr &e : p.preds)
    out += "assert " + print_expr(c.mutate(sp.mutate(e))) + "\n";
  return out + print_block(c.mutate(sp.mutate(p.body)), 0);
}
} // namespace

bool same_proc_code(const ProcNode &a, const ProcNode &b) {
  return canonical_text(a) == canonical_text(b);
}

std::string declared_name(const Block &stmts, uint32_t id) {
  for (const Stmt &s : stmts) {
    if (const auto *a = s.as<Alloc>(); a && a->name.id == id)
      return a->name.name;
    if (const auto *w = s.as<WindowStmt>(); w && w->name.id == id)
      return w->name.name;
    if (const auto *f = s.as<For>(); f && f->iter.id == id)
      return f->iter.name;
    for (const Block *child : child_blocks(s))
      if (std::string n = declared_name(*child, id); n != "?")
        return n;
  }
  return "?";
}

analysis::CalleeLookup callee_lookup(Interpreter &in, const Proc &p) {
  // A schedule's result is callable too (call_eqv puts calls of results in
  // procs before they join the scope): its effects are its body's, never a
  // guess.
  Interpreter *interp = &in;
  Proc caller = p;
  return [interp, caller](const std::string &name) -> const ProcNode * {
    return callee_of(*interp, caller, name).get();
  };
}

Expr folded(BinOpKind k, Expr a, Expr b) {
  return fold_constants(BinOp::make(k, std::move(a), std::move(b)));
}

std::pair<std::string, std::string> two_new_names(Interpreter &in, const Proc &p, const Stmt &s,
                                                  const CallSite &call) {
  const Value &names = call.arg("names").value;
  auto name_value = [](const Value &v) { return v.kind == Value::Kind::Str && is_name(v.str); };
  if (names.list->size() != 2 || !name_value((*names.list)[0]) || !name_value((*names.list)[1]))
    fail_arg(in, call.arg("names"), "a list of two names", names.to_display());
  const std::string &outer = (*names.list)[0].str, &inner = (*names.list)[1].str;
  std::set<std::string> in_scope = names_in_scope(*p, s);
  for (const std::string *n : {&outer, &inner})
    if (in_scope.count(*n))
      in.fail(call.loc, DiagKind::NameInUse, *n, p->name);
  if (outer == inner)
    in.fail(call.loc, DiagKind::NameInUse, inner, p->name);
  return {outer, inner};
}

Expr control_arg(Interpreter &in, const Proc &p, const Stmt &at, const PrimArg &arg) {
  if (arg.value.kind == Value::Kind::Int)
    return IntImm::make(arg.value.int_value, arg.loc);
  if (arg.value.kind != Value::Kind::Str)
    fail_arg(in, arg, "an int or a str", arg.value.a_type());
  // One reader for every control argument: the index language of
  // expand_dim and rewrite_expr, spaced or not (`n/4`, `(n + 3) / 4`);
  // constants folded (`n / 2 + 0` is `n / 2`).
  return fold_constants(control_expr_arg(in, *p, context_at(p, at), arg, false));
}

void fail_unknown(Interpreter &in, SrcLoc loc, const std::string &what, analysis::IndexSolver &solver) {
  in.fail(loc, DiagKind::SolverUnknown, what,
          solver.last_unknown_reason().empty() ? std::string("unknown") : solver.last_unknown_reason());
}

analysis::Context context_at(const Proc &p, const Stmt &s) {
  analysis::Context ctx;
  EXGC_CHECK(analysis::context_of(*p, s->id, ctx)) << "statement not in proc";
  return ctx;
}

} // namespace exgc::schedule
