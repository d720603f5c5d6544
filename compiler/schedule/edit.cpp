// edit.cpp - replacing a statement by id ---------------------------------------//
#include "compiler/schedule/edit.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/visitor.h"
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
  Cursor c = v.kind == Value::Kind::Cursor ? v.cursor : find_stmt(in, p, v.str, loc);
  return resolve(in, p, c, loc).stmt;
}

} // namespace exgc::schedule
