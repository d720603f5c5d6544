// edit.h - small tree edits shared by the primitives ---------------------------//
// Owns: replacing one statement (found by id) with a block, keeping every
// other node, and ids of the rebuilt ancestors (IRMutator's rule); inserting
// at a gap; finding the first use of a buffer.
#pragma once
#include <functional>

#include "compiler/ir/nodes.h"
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

} // namespace exgc::schedule
