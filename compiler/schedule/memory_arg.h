// memory_arg.h - a memory descriptor given to a primitive ----------------------//
// Owns: reading a `@ Memory` descriptor argument (`Sm90_SmemSwizzled(128)`,
// `Sm90_tensorMap(128, 128, 32)`) against the table of built-in memories, for
// the primitives that place data (set_memory, stage_mem's `memory=`) or make a
// view of it (bind_window). The typecheck applies the same table to source
// annotations; a primitive checks here so the error points at its step.
#pragma once
#include <string>

#include "compiler/analysis/memories.h"
#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// The memory `mem` names, of kind `want`, with as many parameters as the
/// table says. `subject` names what it is for ("'t'"). Reports UnknownMemory,
/// MemoryKindMismatch or MemoryParams at `loc` and aborts.
analysis::MemoryRef memory_arg(Interpreter &in, const Expr &mem, analysis::MemKind want,
                               const std::string &subject, SrcLoc loc);

/// The `memory=` keyword of a primitive that allocates (stage_mem, rfactor):
/// null when it is absent (the buffer then lives in host memory), else a
/// memory checked as by memory_arg for the new buffer `name`.
Expr new_buffer_memory(Interpreter &in, const PrimArg &arg, const std::string &name);

} // namespace exgc::schedule
