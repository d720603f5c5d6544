// typecheck.h - types, control/data separation, and exact bounds checks ---//
// Owns: the check between building IR and everything after it. Input: a
// loaded Program (names resolved to Syms, imports loaded). It checks every
// proc and instr of every module once:
//  - types of expressions and statements; control and data kept apart (data
//    never decides control flow; only integer literals flow into data);
//    index arithmetic quasi-affine; known memories, loop modes, contexts,
//    units, timelines and instr attributes; calls against their callee;
//  - then, for procs that typechecked, with Z3 (compiler/analysis/solver.h):
//    every access, window and barrier index in bounds and every callee's
//    asserts satisfied, for all sizes that satisfy the proc's asserts.
// Runs after load_program and before scheduling and codegen, which may then
// assume a well-typed, in-bounds program. The rules are in
// docs/language.md (the Typecheck sections).
#pragma once
#include "compiler/frontend/program.h"
#include "compiler/support/diagnostics.h"

namespace exgc {

/// Reports every problem found; returns false when any error was reported.
bool typecheck(const Program &program, DiagEngine &diag);

/// The same checks for one proc that is not (yet) part of `program`: a
/// schedule's result, re-checked whole after its rewrites (driver.cpp). Its
/// callees are looked up in the scope of the main module. Returns false
/// when any error was reported.
bool typecheck_proc(const Program &program, const ProcNode &p, DiagEngine &diag);

} // namespace exgc
