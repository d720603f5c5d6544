// cursor.h - finding statements and moving between them ---------------------//
// Owns: resolving a Cursor (a NodeId) in a proc, cursor navigation (parent,
// body, next, prev, before, after, expand, indexing a block) and `find`.
// Statements are found by id, so a cursor keeps pointing at "its" statement
// after rewrites that rebuild it (IRMutator keeps ids), and is reported as
// gone when a rewrite deleted it.
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
/// `prim`, resolved in `p`; reports CursorKindMismatch or CursorGone at `loc`
/// and aborts when it is not one.
Cursor gap_arg(Interpreter &in, const Proc &p, const Value &v, const char *prim, SrcLoc loc);
/// Whether the statement of id `node` is inside a `with CudaDeviceFunction`
/// of `p` (device code).
bool in_device_function(const ProcNode &p, NodeId node);
/// The name of a `with` statement's context: `CudaDeviceFunction`, `CudaWarps`.
std::string context_name(const With &with);

/// The statements a Block cursor covers (one for a Stmt cursor) in `p`;
/// reports CursorGone at `loc` and aborts when they are not all there.
Located resolve(Interpreter &in, const Proc &p, const Cursor &c, SrcLoc loc);

/// Calls cursor method `method` (`parent`, `body`, `next`, `prev`, `before`,
/// `after`, `expand`) on `c` in `p`.
Value cursor_method(Interpreter &in, const Proc &p, const Cursor &c, const std::string &method,
                    const std::vector<Value> &args, SrcLoc loc);
/// `c[i]` and `c[a:b]` on a Block cursor (as returned by `body()`).
Value cursor_index(Interpreter &in, const Proc &p, const Cursor &c, int64_t lo, int64_t hi,
                   bool is_slice, SrcLoc loc);

/// `p.find(pattern)`: the statement (or run of statements, a Block cursor) a
/// pattern names: a name (`"k"`, the first loop over k or allocation of k, in
/// program order) or proc syntax with `_` holes (pattern.h), optionally
/// followed by ` #n` for the n-th match. Reports PatternSyntax,
/// PatternNotSupported or PatternNoMatch at `loc` and aborts.
Cursor find_stmt(Interpreter &in, const Proc &p, const std::string &pattern, SrcLoc loc);

} // namespace exgc::schedule
