// pattern.h - finding statements and expressions by proc-syntax patterns --//
//
// Owns: matching a parsed fragment (compiler/frontend/fragment.h) against
// IR. A pattern is written as the code it finds, with `_` for anything:
//   "for k in _: _"        the loop over k, any range, any body
//   "for _ in seq(0, n): _" any loop from 0 to n
//   "C[_] += _"            a reduction into C, any indices (one `_` stands
//                          for a whole index or argument list)
//   "acc = _", "acc: _"    an assignment to scalar acc; the allocation of acc
//   "acc = 0; for k8 in _: _"  two statements in a row (a Block cursor)
//   "Fence(_, _)", "Arrive(_) >> _", "Await(_, _, _)", "with _: _",
//   "raw: barrier[_] @ _", "wgmma(_) >> _"   GPU statements (a call without
//                          `>>` matches any trailing barriers)
// Rules: a name matches a binding of that name (iterator, argument, buffer)
// or a global descriptor; a body that is a lone `_` matches any body, else
// each pattern statement matches one statement; an `if` pattern without
// `else` matches either; keyword arguments the pattern omits are not
// compared; a type without `@` matches any memory. Matches are counted in
// program order (pre-order, by first statement) for `#n`.
#pragma once
#include <vector>

#include "compiler/frontend/fragment.h"
#include "compiler/ir/nodes.h"

namespace exgc::schedule {

/// Where a statement sequence matched: `count` statements of `block` from `index`.
struct StmtMatch {
  const Block *block = nullptr;
  size_t index = 0;
  size_t count = 0;
};

bool match_expr(const FragExpr &pat, const Expr &e);
bool match_stmt(const FragStmt &pat, const Stmt &s);
/// A block pattern: a lone `_` matches any block; otherwise one statement each.
bool match_block(const std::vector<FragStmtP> &pat, const Block &b);

/// Every place in `body` where `pat` matches a run of consecutive statements,
/// in program order.
std::vector<StmtMatch> find_stmt_matches(const Block &body, const std::vector<FragStmtP> &pat);

/// Every subexpression of the statements in `body` (values, indices, bounds,
/// conditions, arguments) that `pat` matches, outermost first, in program order.
/// With `holders`, also the id of the statement that holds each match itself.
std::vector<Expr> find_expr_matches(const Block &body, const FragExpr &pat,
                                    std::vector<NodeId> *holders = nullptr);

/// Every subexpression of `e` that `pat` matches, outermost first.
std::vector<Expr> find_expr_matches_in(const Expr &e, const FragExpr &pat);

/// Splits a trailing ` #n` off `pattern`: 1 when absent, 0 when malformed
/// (not a number from 1, or another '#' left in the pattern).
int64_t split_nth(std::string &pattern);

} // namespace exgc::schedule
