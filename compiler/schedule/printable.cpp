// printable.cpp - every proc a step makes prints as .exg that parses back --//
#include "compiler/schedule/printable.h"

#include <algorithm>

#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/parse/indent_lexer.h"
#include "compiler/parse/printable.h"

namespace exgc::schedule {
namespace {

/// The deepest block nesting, the tallest expression and the most expression
/// nodes of one statement: bounds on what the printed text nests and holds.
struct Extent : IRVisitor {
  int blocks = 0, depth = 0;
  int height = 0, cur = 0;
  int nodes = 0, max_nodes = 0;

  void block(const Block &b) {
    ++depth;
    blocks = std::max(blocks, depth);
    for (const Stmt &s : b) {
      nodes = 0;
      IRVisitor::visit(s);
      max_nodes = std::max(max_nodes, nodes);
    }
    --depth;
  }

protected:
#define EXGC_EXPR(Name)                                                                            \
  void visit_node(const Name *op) override {                                                       \
    ++nodes;                                                                                       \
    height = std::max(height, ++cur);                                                              \
    IRVisitor::visit_node(op);                                                                     \
    --cur;                                                                                         \
  }
#define EXGC_STMT(Name)
#include "compiler/ir/node_kinds.def"
  void visit_node(const For *op) override {
    IRVisitor::visit(op->lo);
    IRVisitor::visit(op->hi);
    block(op->body);
  }
  void visit_node(const If *op) override {
    IRVisitor::visit(op->cond);
    block(op->then_body);
    block(op->else_body);
  }
  void visit_node(const With *op) override { block(op->body); }
};

} // namespace

std::string print_problem(const ProcNode &p) {
  Extent e;
  e.block(p.body);
  // Brackets and prefix runs nest at most as deep as an expression is tall
  // (plus a subscript's bracket), and a line holds at most a few tokens per
  // node: far below the limits, the printed text lexes.
  if (e.blocks < parse::kMaxNesting / 2 && e.height < parse::kMaxNesting / 2 &&
      e.max_nodes < parse::kMaxLineOperators / 4)
    return "";
  return parse::lex_problem(print_proc(p));
}

} // namespace exgc::schedule
