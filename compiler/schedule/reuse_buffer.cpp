// reuse_buffer.cpp - let a buffer hold another one's values --------------------//
// reuse_buffer(p, buf, replace): the allocation `replace` is deleted and the
// code after it uses `buf` instead:
//   a: f32[n]; ...a...; b: f32[n]; ...b...  -->  a: f32[n]; ...a...; ...a...
// Checked: both are data buffers of the same element type, memory and shape
// (each extent proven equal by Z3 at `replace`); `replace` is allocated
// inside the scope of `buf`, after it (Exo's #346 misses this); and `buf` is
// dead from `replace`'s allocation on: no statement after it, at its level or
// any enclosing level up to `buf`'s block, touches `buf` (directly, through a
// window or a call), and no loop between the two allocations touches `buf`
// anywhere in its body (a later iteration would read what `replace` left).
// The statement right after `replace`'s allocation may read `buf` when it
// is an assignment to `replace` (`c = aa + bb`): its reads come before its
// write, and the statements after it are checked as above.
// Then `buf`'s old values are never read again, and `replace`'s values,
// undefined until written, now start as garbage of `buf`: the same.
// Fails when: either is not the allocation of a data buffer
// (CursorKindMismatch); the types may differ (ReuseTypeDiffers, with a
// counterexample for a shape); `replace` is not allocated after `buf` in its
// scope (ReuseNotInScope); `buf` may still be used (ReuseBufferLive, note at
// the use); the solver gives up (SolverUnknown).
#include "compiler/ir/printer.h"
#include "compiler/schedule/dim_support.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// The statements from the one in `b` holding statement `target` down to it:
/// path[0] is in `b`, the last is `target` itself. Empty when not there.
bool path_to(const Block &b, NodeId target, std::vector<std::pair<const Block *, size_t>> &path) {
  for (size_t i = 0; i < b.size(); ++i) {
    path.emplace_back(&b, i);
    if (b[i]->id == target)
      return true;
    for (const Block *child : child_blocks(b[i]))
      if (path_to(*child, target, path))
        return true;
    path.pop_back();
  }
  return false;
}

} // namespace

Value reuse_buffer(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  Stmt bs, rs;
  const Alloc *buf = buffer_alloc(in, p, call.arg("buf").value, call.loc, "reuse_buffer", bs);
  const Alloc *rep = buffer_alloc(in, p, call.arg("replace").value, call.loc, "reuse_buffer", rs);

  // Types: element type, memory, rank, then each extent.
  auto mem = [](const Type &t) { return t.mem ? print_expr(t.mem) : std::string("DRAM"); };
  if (buf->type.scalar != rep->type.scalar || mem(buf->type) != mem(rep->type) ||
      buf->type.shape.size() != rep->type.shape.size())
    in.fail(call.loc, DiagKind::ReuseTypeDiffers, buf->name.name, rep->name.name,
            print_type(buf->type) + " and " + print_type(rep->type));
  analysis::Context ctx = context_at(p, rs);
  analysis::IndexSolver solver;
  analysis::DependenceAnalyzer dep(solver);
  for (size_t d = 0; d < buf->type.shape.size(); ++d)
    require(in, dep, ctx, BinOp::make(BinOpKind::Eq, buf->type.shape[d], rep->type.shape[d]), call.loc,
            "that the extents of '" + buf->name.name + "' and '" + rep->name.name + "' are equal",
            DiagKind::ReuseTypeDiffers, buf->name.name, rep->name.name,
            print_type(buf->type) + " and " + print_type(rep->type));

  // `replace` is inside the scope of `buf`, after it.
  Located lb;
  locate(*p, bs->id, lb);
  Block scope(lb.block->begin() + static_cast<long>(lb.index + 1), lb.block->end());
  std::vector<std::pair<const Block *, size_t>> path;
  if (!path_to(scope, rs->id, path))
    in.fail(call.loc, DiagKind::ReuseNotInScope, buf->name.name, rep->name.name);

  // `buf` is dead from `replace` on.
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  auto touch = [&](const Block &code, SrcLoc &at) { return coll.touches(code, buf->name, at); };
  for (size_t level = 0; level < path.size(); ++level) {
    const Block &b = *path[level].first;
    size_t i = path[level].second;
    SrcLoc at;
    size_t from = i + 1;
    // `replace`'s first statement `c = aa + bb` reads `buf` before it writes
    // `replace`: a use that ends as the reuse starts (the reference's case).
    if (level + 1 == path.size() && from < b.size())
      if (const auto *first = b[from].as<Assign>(); first && first->buf == rep->name)
        ++from;
    bool live = touch(Block(b.begin() + static_cast<long>(from), b.end()), at);
    // A loop around `replace` runs its body again: any use there is later.
    if (!live && level + 1 < path.size() && b[i].as<For>())
      live = touch(Block{b[i]}, at);
    if (live) {
      in.diag().report(call.loc, DiagKind::ReuseBufferLive, buf->name.name, rep->name.name)
          .note(at, "'" + buf->name.name + "' is used here");
      throw ScriptAbort{};
    }
  }

  Located lr;
  locate(*p, rs->id, lr);
  Block after(lr.block->begin() + static_cast<long>(lr.index + 1), lr.block->end());
  Block renamed = rename_buffer(after, rep->name, buf->name);
  Block stmts(lr.block->begin() + static_cast<long>(lr.index), lr.block->end());
  if (renamed.empty())
    renamed.push_back(Pass::make(call.loc)); // a block is never empty
  return Value::of_proc(replace_block(p, stmts, renamed));
}

} // namespace exgc::schedule
