// edit.cpp - replacing a statement by id ---------------------------------------//
#include "compiler/schedule/edit.h"

#include "compiler/analysis/effects.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/pattern.h"
#include "compiler/schedule/cursor.h"

namespace exgc::schedule {
namespace {
/// IRMutator::mutate(Block) dispatches through the non-virtual mutate(Stmt),
/// so walk blocks here to intercept the target statement at any depth.
struct Replacer : IRMutator {
  NodeId target;
  const std::function<Block(const Stmt &)> *edit;
  bool done = false;
#define EXGC_STMT(Name)                                                        \
  Block mutate_node(const Name *op, const Stmt &self) override {               \
    if (self->id == target) {                                                  \
      done = true;                                                             \
      return (*edit)(self);                                                    \
    }                                                                          \
    return IRMutator::mutate_node(op, self);                                   \
  }
#include "compiler/ir/node_kinds.def"
};
} // namespace

Proc replace_stmt(const Proc &p, NodeId node, const std::function<Block(const Stmt &)> &edit) {
  Replacer r;
  r.target = node;
  r.edit = &edit;
  Proc out = r.mutate_proc(p);
  EXGC_CHECK(r.done) << "statement " << node << " not found in " << p->name;
  return out;
}

Proc insert_at_gap(Interpreter &in, const Proc &p, const Value &gap, const Stmt &s,
                   const char *prim, SrcLoc loc) {
  Cursor c = gap_arg(in, p, gap, prim, loc);
  bool before = c.kind == Cursor::Kind::GapBefore;
  return replace_stmt(p, c.node, [&](const Stmt &old) -> Block {
    return before ? Block{s, old} : Block{old, s};
  });
}

namespace {

struct FirstUse : IRVisitor {
  uint32_t buf;
  SrcLoc at;
  bool found = false;
  void hit(const Sym &s, SrcLoc loc) {
    if (!found && s.id == buf) {
      found = true;
      at = loc;
    }
  }
  void visit_node(const Var *op) override { hit(op->name, op->loc); }
  void visit_node(const Read *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowExpr *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Assign *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
  void visit_node(const Reduce *op) override {
    hit(op->buf, op->loc);
    IRVisitor::visit_node(op);
  }
};

} // namespace

bool first_use(const Block &stmts, size_t from, size_t to, uint32_t buf, SrcLoc &at) {
  FirstUse use;
  use.buf = buf;
  for (size_t i = from; i < to && !use.found; ++i)
    use.visit(stmts[i]);
  at = use.at;
  return use.found;
}

Stmt stmt_arg(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc) {
  return resolve(in, p, cursor_arg(in, p, v, loc), loc).stmt;
}

Block block_arg(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc, const char *prim,
                Located *where) {
  Cursor c = cursor_arg(in, p, v, loc);
  if (c.kind != Cursor::Kind::Stmt && c.kind != Cursor::Kind::Block)
    in.fail(loc, DiagKind::CursorKindMismatch, std::string("'") + prim + "'", "statements");
  Located l = resolve(in, p, c, loc);
  if (where)
    *where = l;
  return Block(l.block->begin() + static_cast<long>(l.index),
               l.block->begin() + static_cast<long>(l.index + c.count));
}

Proc replace_block(const Proc &p, const Block &stmts, const Block &with) {
  Proc out = p;
  for (size_t i = 1; i < stmts.size(); ++i)
    out = replace_stmt(out, stmts[i]->id, [](const Stmt &) -> Block { return {}; });
  return replace_stmt(out, stmts.front()->id, [&](const Stmt &) { return with; });
}

void check_decls_not_used_after(Interpreter &in, const Located &l, const Block &stmts, SrcLoc loc) {
  Block after(l.block->begin() + static_cast<long>(l.index + stmts.size()), l.block->end());
  for (const Stmt &s : stmts) {
    Sym decl;
    if (const auto *a = s.as<Alloc>())
      decl = a->name;
    else if (const auto *w = s.as<WindowStmt>())
      decl = w->name;
    else
      continue;
    if (analysis::mentions(after, decl))
      in.fail(loc, DiagKind::DeclUsedAfterBlock, decl.name);
  }
}

namespace {

/// Replaces `target` where statement `holder` holds it itself (not in the
/// statements nested in it): copies of a statement share expression nodes,
/// and another copy may sit in a context where the replacement is wrong.
struct ExprReplacer : IRMutator {
  NodeId holder = 0;
  const ExprNode *target = nullptr;
  Expr with;
  bool active = false;
#define EXGC_STMT(Name)                                                        \
  Block mutate_node(const Name *op, const Stmt &self) override {               \
    bool outer = active;                                                       \
    active = op->id == holder;                                                 \
    Block b = IRMutator::mutate_node(op, self);                                \
    active = outer;                                                            \
    return b;                                                                  \
  }
#define EXGC_EXPR(Name)                                                        \
  Expr mutate_node(const Name *op, const Expr &self) override {                \
    if (active && op == target)                                                \
      return with;                                                             \
    return IRMutator::mutate_node(op, self);                                   \
  }
#include "compiler/ir/node_kinds.def"
};

} // namespace

Expr expr_arg(Interpreter &in, const Proc &p, const PrimArg &arg, NodeId &holder) {
  const Value &v = arg.value;
  const SrcLoc loc = arg.loc;
  if (v.kind != Value::Kind::Str)
    fail_arg(in, arg, "an expression pattern",
            v.type_name());
  std::string text = v.str;
  int64_t nth = split_nth(text);
  if (nth == 0)
    in.fail(loc, DiagKind::PatternNotSupported, v.str, "'#' appears once, at the end, followed by a match number from 1");
  FragExprP pat;
  FragmentError err;
  if (!parse_expr_fragment(text, pat, err))
    in.fail(loc, err.syntax ? DiagKind::PatternSyntax : DiagKind::PatternNotSupported, v.str,
            err.message);
  std::vector<NodeId> holders;
  std::vector<Expr> matches = find_expr_matches(p->body, *pat, &holders);
  if (static_cast<int64_t>(matches.size()) < nth)
    in.fail(loc, DiagKind::PatternNoMatch, v.str, p->name, "");
  holder = holders[static_cast<size_t>(nth - 1)];
  return matches[static_cast<size_t>(nth - 1)];
}

Proc replace_expr(const Proc &p, NodeId holder, const Expr &target, const Expr &with) {
  ExprReplacer r;
  r.holder = holder;
  r.target = target.get();
  r.with = with;
  return r.mutate_proc(p);
}

const For *loop_arg(Interpreter &in, const Proc &p, const Value &v, const char *prim, SrcLoc loc,
                    Stmt &s) {
  s = stmt_arg(in, p, v, loc);
  const For *f = s.as<For>();
  if (!f)
    in.fail(loc, DiagKind::CursorKindMismatch, "'" + std::string(prim) + "'", "a loop");
  return f;
}

} // namespace exgc::schedule
