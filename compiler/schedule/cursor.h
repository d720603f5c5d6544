// cursor.h - finding statements, moving between them, forwarding cursors ----//
// Owns: `find`, cursor navigation (parent, body, next, prev, before, after,
// expand, indexing a block) and forwarding a cursor from the proc it was made
// from to a proc derived from it (docs/scheduling.md, "Cursors"). Statements
// are found by id, so a cursor keeps pointing at "its" statement after
// rewrites that rebuild it (IRMutator keeps ids); navigation is replayed in
// the proc the cursor is used with, so `c.parent()` is the statement around
// c's statement there, whichever procs were derived in between.
#pragma once
#include <string>
#include <vector>

#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// Where a statement sits: the block that holds it, its index there, and the
/// statement whose body the block is (null for the proc body).
struct Located {
  const Block *block = nullptr;
  size_t index = 0;
  Stmt parent;
  Stmt stmt;
};

/// The blocks directly inside `s` (a loop's body, an if's two branches, a
/// with's body), in source order; none for other statements.
std::vector<const Block *> child_blocks(const Stmt &s);

/// Finds the statement with id `node` in `p`; false when it is not there.
bool locate(const ProcNode &p, NodeId node, Located &out);

/// The gap cursor (`c.before()`, `c.after()`) argument `v` of primitive
/// `prim`, forwarded to `p`; reports CursorKindMismatch at `loc` and aborts
/// when it is not one, or the errors of forward_cursor.
Cursor gap_arg(Interpreter &in, const Proc &p, const Value &v, const char *prim, SrcLoc loc);
/// Whether the statement of id `node` is inside a `with CudaDeviceFunction`
/// of `p` (device code).
bool in_device_function(const ProcNode &p, NodeId node);

/// `c` forwarded to `q`, the proc a primitive at `loc` was given: `c` itself
/// when `q` is the proc it was made from; otherwise the statements `find`
/// gave, by id, with the navigation replayed in `q` (its errors reported at
/// `loc`). Reports CursorDeleted (with a note at the step that deleted them)
/// when `q` derives from the cursor's proc but lacks those statements, and
/// CursorGone when `q` neither derives from it nor holds them; aborts then.
Cursor forward_cursor(Interpreter &in, const Proc &q, const Cursor &c, SrcLoc loc);

/// The cursor a Stmt-kind argument `v` names in `p`: a cursor forwarded to
/// `p`, or a pattern string found in `p` (find_stmt).
Cursor cursor_arg(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc);

/// The statements `c`, forwarded to `p`, covers (one for a Stmt cursor).
Located resolve(Interpreter &in, const Proc &p, const Cursor &c, SrcLoc loc);

/// Calls cursor method `method` (`parent`, `body`, `next`, `prev`, `before`,
/// `after`, `expand`) on `c`, in the proc `c` was made from; the result
/// belongs to that proc and records the step for forwarding.
Value cursor_method(Interpreter &in, const Cursor &c, const std::string &method,
                    const std::vector<Value> &args, SrcLoc loc);
/// `c[i]` and `c[a:b]` on a Block cursor (as returned by `body()`), the same way.
Value cursor_index(Interpreter &in, const Cursor &c, int64_t lo, int64_t hi, bool is_slice,
                   SrcLoc loc);

/// `p.find(pattern)`: the statement (or run of statements, a Block cursor) a
/// pattern names: a name (`"k"`, the first loop over k or allocation of k, in
/// program order) or proc syntax with `_` holes (pattern.h), optionally
/// followed by ` #n` for the n-th match. Reports PatternSyntax,
/// PatternNotSupported or PatternNoMatch at `loc` and aborts.
Cursor find_stmt(Interpreter &in, const Proc &p, const std::string &pattern, SrcLoc loc);

} // namespace exgc::schedule
