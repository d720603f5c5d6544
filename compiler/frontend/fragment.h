// fragment.h - proc-syntax fragments (schedule patterns) as untyped trees -//
//
// Owns: parsing a short piece of proc syntax written in a schedule script,
// such as the patterns `"for k in _: _"`, `"C[_] += _"`, `"acc = 0; for k8 in
// _: _"` or an expression `"A[i, k] * B[k, j]"`, into a small untyped tree
// that the schedule stage matches against IR (compiler/schedule/pattern.h).
// The text is parsed by the one .exg grammar (compiler/parse) by wrapping it
// in a synthetic proc, so a pattern reads exactly like the code it finds.
// Names are kept as written and never resolved: `_` is a wildcard ("hole")
// wherever a name or expression may stand, and a pattern may name things the
// proc does not declare (then it matches nothing). `;` separates statements
// (outside brackets and strings). The parse tree never leaves this file.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc {

struct FragExpr;
using FragExprP = std::shared_ptr<const FragExpr>;

/// An expression of a fragment. `Hole` is `_`.
///  Name: text. Int/Float/Bool/Str: the literal. Index: items[0] the base,
///  then one item per subscript. Slice (a subscript only): items lo, hi, each
///  possibly null. Call: text is the callee's dotted name (`_` a hole), items
///  the positional arguments, kwargs the keyword ones. BinOp: op, items a, b.
///  Neg/Not: items[0]. List: items. Annot (`e @ m`): items e, m.
struct FragExpr {
  enum class Kind { Hole, Name, Int, Float, Bool, Str, Index, Slice, Call, BinOp, Neg, Not, List, Annot };
  Kind kind = Kind::Hole;
  std::string text;
  int64_t int_value = 0;
  double float_value = 0;
  BinOpKind op = BinOpKind::Add;
  std::vector<FragExprP> items;
  std::vector<std::pair<std::string, FragExprP>> kwargs;
  bool is_hole() const { return kind == Kind::Hole; }
};

struct FragStmt;
using FragStmtP = std::shared_ptr<const FragStmt>;

/// A statement of a fragment. `Hole` is a `_` standing alone as a statement.
///  For: name the iterator (`_` a hole), a the range (`seq(lo, hi)`, `_`).
///  If: a the condition, body/orelse (has_else when the fragment wrote one;
///  `elif` is an If alone in orelse). With: a the context. Assign/Reduce: a
///  the target, b the value. Decl: name, a the type. Call: a the call
///  (FragExpr Call, including Fence/Arrive/Await), barriers the `>> b` parts.
struct FragStmt {
  enum class Kind { Hole, For, If, With, Assign, Reduce, Decl, Pass, Call };
  Kind kind = Kind::Hole;
  std::string name;
  FragExprP a, b;
  std::vector<FragExprP> barriers;
  std::vector<FragStmtP> body, orelse;
  bool has_else = false;
};

/// Why a fragment was refused: `syntax` when it does not parse (the parser's
/// message), else a form that cannot be a pattern (`return`, `a.b()`).
/// Lower case, without location: the caller reports it at the script step.
struct FragmentError {
  bool syntax = false;
  std::string message;
};

/// Parses `text` as a statement sequence; false with `error` set on failure.
bool parse_stmt_fragment(const std::string &text, std::vector<FragStmtP> &out,
                         FragmentError &error);

/// Parses `text` as one expression (same error contract).
bool parse_expr_fragment(const std::string &text, FragExprP &out, FragmentError &error);

} // namespace exgc
