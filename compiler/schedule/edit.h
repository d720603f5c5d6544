// edit.h - small tree edits shared by the primitives ---------------------------//
// Owns: replacing one statement (found by id) with a block, keeping every
// other node, and ids of the rebuilt ancestors (IRMutator's rule); inserting
// at a gap; finding the first use of a buffer.
#pragma once
#include <functional>

#include "compiler/ir/nodes.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// `p` with the statement of id `node` replaced by `edit(stmt)`. The edit
/// must find the node (callers resolve cursors first).
Proc replace_stmt(const Proc &p, NodeId node, const std::function<Block(const Stmt &)> &edit);

/// `p` with `s` inserted at the gap `gap` names (`c.before()`, `c.after()`);
/// reports CursorKindMismatch for anything but a gap cursor and aborts.
Proc insert_at_gap(Interpreter &in, const Proc &p, const Value &gap, const Stmt &s,
                   const char *prim, SrcLoc loc);

/// Where statements `stmts[from, to)` first name buffer `buf` (reads,
/// writes, windows, a scalar read by name); false when they do not.
bool first_use(const Block &stmts, size_t from, size_t to, uint32_t buf, SrcLoc &at);

/// The statement a Stmt-kind argument names: a cursor, or a pattern string.
Stmt stmt_arg(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc);

/// The loop a Stmt-kind argument names (its statement in `s`); reports
/// CursorKindMismatch for `prim` and aborts when it is not a loop.
const For *loop_arg(Interpreter &in, const Proc &p, const Value &v, const char *prim, SrcLoc loc,
                    Stmt &s);

/// The run of statements a Stmt-kind argument names: a statement or block
/// cursor, or a pattern (`"a = _; b = _"` names two); `where` gets the place
/// of the first. Gap cursors are refused (CursorKindMismatch, naming `prim`).
Block block_arg(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc, const char *prim,
                Located *where = nullptr);

/// `p` with the run `stmts` (adjacent, in one block) replaced by `with`; the
/// ids of `with` are kept as they are.
Proc replace_block(const Proc &p, const Block &stmts, const Block &with);

/// The expression an expression pattern `v` (a string, optionally ending in
/// ` #n`) names: its first match in program order, or the n-th. Reports
/// ScriptArgType, PatternSyntax, PatternNotSupported or PatternNoMatch and
/// aborts. `holder` gets the id of the innermost statement whose own
/// expressions hold that occurrence (for its context, and replace_expr).
Expr expr_arg(Interpreter &in, const Proc &p, const PrimArg &arg, NodeId &holder);

/// `p` with the expression node `target` replaced by `with` where statement
/// `holder` holds it itself; other statements sharing the node keep it.
Proc replace_expr(const Proc &p, NodeId holder, const Expr &target, const Expr &with);

/// Fails with DeclUsedAfterBlock when an allocation or window at the top of
/// `stmts` (a run starting at `l`) is named after them in their block: a
/// rewrite that wraps the run in a new scope would hide it.
void check_decls_not_used_after(Interpreter &in, const Located &l, const Block &stmts, SrcLoc loc);

} // namespace exgc::schedule
