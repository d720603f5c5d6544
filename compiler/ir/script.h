// script.h - the AST of schedule scripts (`def` and `schedule` bodies) -----//
// Owns: the small Python-like language of docs/language.md, "Scripts". The front end
// builds it; the printer prints it back; compiler/schedule/ interprets it.
// Scripts are data, not IR: nothing here is checked or rewritten.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/support/source_loc.h"

namespace exgc::script {

struct ExprNode;
struct StmtNode;
using Expr = std::shared_ptr<const ExprNode>;
using Stmt = std::shared_ptr<const StmtNode>;
using Block = std::vector<Stmt>;

enum class ExprKind {
  Name,  // text
  Int,   // int_value
  Str,   // text
  Bool,  // int_value (0 or 1)
  List,  // items
  Call,  // callee(items, kwargs)
  Attr,  // callee.text
  Index, // callee[items[0]]
  Slice, // items: lo, hi (either may be null): only inside Index
  BinOp, // items[0] text items[1]; text is the operator ("+", "==", "and", ...)
  UnOp,  // text items[0]; text is "-" or "not"
};

struct KwArg {
  std::string key;
  Expr value;
  SrcLoc loc;
};

struct ExprNode {
  ExprKind kind;
  SrcLoc loc;
  std::string text;
  int64_t int_value = 0;
  Expr callee;
  std::vector<Expr> items;
  std::vector<KwArg> kwargs;
};

enum class StmtKind {
  Assign,   // target = value
  ExprStmt, // value
  If,       // if value: body  else: orelse   (elif: an If alone in orelse)
  For,      // for target in value: body
  Return,   // return value (value may be null)
  Pass,
};

struct StmtNode {
  StmtKind kind;
  SrcLoc loc;
  std::string target;
  Expr value;
  Block body, orelse;
};

// Builders, for the front end and tests.
Expr name(std::string n, SrcLoc loc = {});
Expr int_lit(int64_t v, SrcLoc loc = {});
Expr str_lit(std::string s, SrcLoc loc = {});
Expr bool_lit(bool b, SrcLoc loc = {});
Expr list(std::vector<Expr> items, SrcLoc loc = {});
Expr call(Expr callee, std::vector<Expr> args, std::vector<KwArg> kwargs, SrcLoc loc = {});
Expr attr(Expr obj, std::string field, SrcLoc loc = {});
Expr index(Expr obj, Expr idx, SrcLoc loc = {});
Expr slice(Expr lo, Expr hi, SrcLoc loc = {});
Expr binop(std::string op, Expr a, Expr b, SrcLoc loc = {});
Expr unop(std::string op, Expr a, SrcLoc loc = {});

Stmt assign(std::string target, Expr value, SrcLoc loc = {});
Stmt expr_stmt(Expr value, SrcLoc loc = {});
Stmt if_stmt(Expr cond, Block body, Block orelse, SrcLoc loc = {});
Stmt for_stmt(std::string target, Expr iter, Block body, SrcLoc loc = {});
Stmt return_stmt(Expr value, SrcLoc loc = {});
Stmt pass_stmt(SrcLoc loc = {});

/// Binding strength of a binary operator for printing (or 1 ... * / % 6).
int binop_precedence(const std::string &op);

} // namespace exgc::script
