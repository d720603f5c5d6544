// build.h - parse tree -> Module (IR procs, schedule scripts, declarations) -//
//
// Owns: turning one parsed .exg file into a Module. Runs after the parser
// (compiler/parse) and before imports are resolved (load.h) and the typecheck
// (typecheck.h), which may assume what this stage guarantees:
//  - every name bound in a proc (arguments, allocations, loop iterators,
//    window names) is a distinct Sym::fresh, and each use refers to the
//    innermost binding in scope at that point;
//  - a name no declaration of the proc binds becomes
//    Var(Sym::global(name), Meta) where the language takes descriptors
//    (memories, units, timelines, loop-mode keywords, contexts, instr
//    attribute values); in a value position (right-hand sides, indices, loop
//    bounds, conditions, asserts, call arguments) it is an UndeclaredName
//    error here;
//  - a buffer named whole (a call argument `A`, `stride(A, 0)`) is
//    Read(A, {}) with the element type; a scalar data argument is a Var; a
//    barrier reference (`raw[k]`, `war[k, :]`, `cluster_sync`) is a Read or
//    WindowExpr of the barrier's Sym with type Meta;
//  - `-` before a literal is folded into the literal;
//  - attribute lines (instrs) come first, then asserts (`preds`), then the
//    body; `elif` is an If alone in an else body;
//  - every node carries the SrcLoc of the first token of its construct (a
//    binary operation: its left operand's first token), Proc::loc is the
//    proc's name, a KwArg's loc its key.
// Calls keep their callee as written (`wgmma`, `sm90.wgmma`); load.h and the
// typecheck resolve them. Types, loop modes, memories and contexts are kept as
// written; the typecheck decides whether they exist.
#pragma once
#include <cstdint>
#include <optional>

#include "compiler/ir/module.h"
#include "compiler/support/diagnostics.h"
#include "compiler/support/source_manager.h"

namespace exgc {

/// Parses and builds file `file` of `sources`. Returns nullopt when any error
/// was reported (the first syntax error of the file, or every declaration
/// that could not be built, each with its first error).
std::optional<Module> parse_module(uint32_t file, SourceManager &sources, DiagEngine &diag);

} // namespace exgc
