// wrap_with_context.cpp - put statements in a `with` block ----------------------//
// wrap_with_context(p, block, ctx): the statements of `block` (a statement, a
// block cursor or a pattern) become the body of `with ctx:`, where ctx is
// `CudaDeviceFunction(blockDim=..., ...)` or `CudaWarps(lo, hi, name=...)`.
// Checked: the context is one of the two, with the keywords it accepts (and
// positive integer literals for blockDim, clusterDim, blocks_per_sm and task_group);
// a CudaDeviceFunction is not placed in device code (none around the block,
// none inside it); CudaWarps is placed inside a CudaDeviceFunction; nothing
// the block declares (allocation, window) is used after it, since the `with`
// body is a scope of its own. The sequential meaning cannot change: `with`
// blocks are transparent to it. Which memories the code in the new context
// may touch, and how its loops map to threads, is the re-check's and the
// backend's to decide.
// Fails when: `block` is not statements (CursorKindMismatch); the context is
// not a known one (UnknownContext), has an unknown keyword (UnknownKeyword) or
// a bad value (BuiltinArgs); the nesting is wrong (ContextNesting); something
// the block declares is used after it (ScopeEndsBeforeUse).
#include "compiler/analysis/effects.h"
#include "compiler/analysis/gpu_names.h"
#include "compiler/ir/device_code.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/cursor.h"
#include "compiler/schedule/edit.h"
#include "compiler/schedule/loop_support.h"
#include "compiler/schedule/primitives.h"

namespace exgc::schedule {
namespace {

/// Checks the context descriptor as the typecheck checks a `with`.
void check_context(Interpreter &in, const Expr &ctx, SrcLoc loc, std::string &name) {
  const auto *c = ctx.as<Call>();
  name = context_name(ctx);
  if (!analysis::is_context(name))
    in.fail(loc, DiagKind::UnknownContext, name.empty() ? print_expr(ctx) : name);
  if (!c)
    in.fail(loc, DiagKind::BuiltinArgs, name, "is written as a call: '" + name + "(...)'");
  for (const KwArg &k : c->kwargs) {
    if (!analysis::context_accepts(name, k.key))
      in.fail(loc, DiagKind::UnknownKeyword, name, k.key);
    if (analysis::context_wants_literal(k.key)) {
      const auto *v = k.value.as<IntImm>();
      if (!v || v->value <= 0)
        in.fail(loc, DiagKind::BuiltinArgs, name,
                "needs a positive integer literal for '" + k.key + "'");
    }
  }
  if (context_kind(name) != ContextKind::CudaWarps && !c->args.empty())
    in.fail(loc, DiagKind::BuiltinArgs, name, "takes keyword arguments only");
}

} // namespace

Value wrap_with_context(Interpreter &in, const CallSite &call) {
  const Proc &p = call.proc();
  const Value &bv = call.arg("block").value;
  const Expr &ctx = call.arg("ctx").value.meta;
  Cursor c = cursor_arg(in, p, bv, call.loc);
  if (c.kind != Cursor::Kind::Stmt && c.kind != Cursor::Kind::Block)
    in.fail(call.loc, DiagKind::CursorKindMismatch, "'wrap_with_context'", "statements");
  std::string name;
  check_context(in, ctx, call.loc, name);
  Located l = resolve(in, p, c, call.loc);
  auto first = l.block->begin() + static_cast<long>(l.index);
  Block stmts(first, first + static_cast<long>(c.count));
  Block after(first + static_cast<long>(c.count), l.block->end());

  bool in_device = in_device_function(*p, c.node);
  if (context_kind(name) == ContextKind::CudaDeviceFunction) {
    if (in_device || has_device_function(stmts))
      in.fail(call.loc, DiagKind::ContextNesting, name,
              in_device ? "the block is already in device code" : "the block contains one");
  } else if (!in_device) {
    in.fail(call.loc, DiagKind::ContextNesting, name, "the block is not in a 'CudaDeviceFunction'");
  }

  // The with body is a scope: what the block declares ends with it.
  analysis::EffectCollector coll(*p, callee_lookup(in, p));
  analysis::Effects declared = coll.of(stmts), later = coll.of(after);
  for (uint32_t d : declared.defs)
    if (later.mentioned.count(d))
      in.fail(call.loc, DiagKind::ScopeEndsBeforeUse, declared_name(stmts, d));

  Stmt with = With::make(ctx, stmts, call.loc);
  Proc out = p;
  for (size_t i = 1; i < stmts.size(); ++i)
    out = replace_stmt(out, stmts[i]->id, [](const Stmt &) -> Block { return {}; });
  return Value::of_proc(
      replace_stmt(out, stmts.front()->id, [&](const Stmt &) { return Block{with}; }));
}

} // namespace exgc::schedule
