// dim_support.h - helpers shared by the buffer layout primitives -----------------//
// Owns: what expand_dim, resize_dim, divide_dim, mult_dim and rearrange_dim
// share: finding the allocation of a data buffer, reading a dimension number
// or an index expression argument visible at the allocation, refusing
// buffers reached other than element by element (windows, whole-buffer call
// arguments), and rewriting the shape and every element access at once.
#pragma once
#include <functional>
#include <vector>

#include "compiler/analysis/dependence.h"
#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// The allocation of a data buffer that `v` names; `s` gets its statement.
/// Fails with CursorKindMismatch naming `prim` otherwise.
const Alloc *buffer_alloc(Interpreter &in, const Proc &p, const Value &v, SrcLoc loc,
                          const char *prim, Stmt &s);

/// A dimension number of `a` (an int in [0, rank)); DimOutOfRange otherwise.
size_t dim_arg(Interpreter &in, const Alloc &a, const PrimArg &arg);

/// An int, or an index expression string over the names visible at `a` (the
/// size and index arguments, the iterators of the loops in `ctx`).
Expr alloc_index_arg(Interpreter &in, const Proc &p, const analysis::Context &ctx, const Alloc &a,
                     const PrimArg &arg);

/// Fails with DimChangeIndirect (note at the use) when `a`'s buffer is used
/// other than by element accesses with one index per dimension: a window of
/// it (unless `windows_ok` and it has one index per dimension), or the
/// buffer passed whole to a call.
void require_element_uses(Interpreter &in, const Proc &p, const Alloc &a, const char *prim,
                          SrcLoc loc, bool windows_ok = false);

/// Proves `goal(idx)` at every access `x[idx]` of the buffer of `s` (an
/// allocation) after it, under the context of `s` and the loops and ifs
/// between it and the access. On failure, `report(access)` reports the
/// error; a note at the access and the counterexample are added and the
/// script aborts. `what` names the goal for could-not-prove.
void require_at_accesses(Interpreter &in, const Proc &p, const Stmt &s,
                         const std::function<Expr(const std::vector<Expr> &)> &goal,
                         const std::string &what,
                         const std::function<DiagBuilder(const analysis::Access &)> &report,
                         SrcLoc loc);

using Reindex = std::function<std::vector<Expr>(const std::vector<Expr> &)>;
using Rewindow = std::function<std::vector<WindowIdx>(const std::vector<WindowIdx> &)>;

/// `p` with the allocation `s` given `shape`, each access `x[idx]` of its
/// buffer becoming `x[reindex(idx)]`, and each window `x[w]` becoming
/// `x[rewindow(w)]` (callers without `rewindow` refuse windows first).
Proc relayout(const Proc &p, const Stmt &s, std::vector<Expr> shape, const Reindex &reindex,
              const Rewindow &rewindow = nullptr);

/// An index expression with constants folded and like terms collected.
Expr tidy_index(const Expr &e);

} // namespace exgc::schedule
