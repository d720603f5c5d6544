// provenance.h - which schedule and step made the code an error points at ---//
// Owns: the notes that tie an error in a schedule's result to the schedule
// and the step that made the code. A rewritten statement keeps the location
// of the code it came from, so without them an error in `g` reads as if it
// were in the proc `g` started from, and reads twice when both are compiled.
//
// Runs in the driver after the stages that check or emit schedule results
// (the re-check, code generation), on the diagnostics they reported.
#pragma once
#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// For each diagnostic from index `first` on: drops it when an earlier one
/// from `first` on has the same kind, place and message (one statement
/// shared by a proc and a schedule's result, reported for each; the kept one
/// is about both). Then, for each proc the error is about
/// (Diagnostic::procs) that is a schedule's result 'g', adds the note "in
/// proc 'g', the result of schedule 'g'" and, when a step of that schedule
/// rewrote the code at the diagnostic's place, "made by step 'X' of schedule
/// 'g'" at the step (or "moved here by step 'X'" when no step rewrote it
/// but one moved it among other statements). The place alone never decides: a proc and a result
/// share places, and an error in the proc is no step's doing.
void note_schedule_provenance(const Interpreter &interp, DiagEngine &diag, size_t first);

} // namespace exgc::schedule
