// provenance.h - which schedule and step made the code an error points at ---//
// Owns: the notes that tie an error in a schedule's result to the schedule
// and the step that made the code. A rewritten statement keeps the location
// of the code it came from, so without them an error in `g` reads as if it
// were in the proc `g` started from, and reads twice when both are compiled.
//
// Runs in the driver after the stages that check or emit schedule results
// (the re-check, code generation), on the diagnostics they reported.
#pragma once
#include <set>
#include <string>

#include "compiler/schedule/interpreter.h"

namespace exgc::schedule {

/// For each diagnostic from index `first` on: drops it when an earlier one
/// from `first` on has the same kind, place and message (one statement
/// shared by a proc and a schedule's result, reported for each). Then, for
/// each schedule result named in `compiled` whose code holds a node at the
/// diagnostic's place, adds the notes "in proc 'g', the result of schedule
/// 'g'" and, when a step of that schedule rewrote the node, "made by step
/// 'X' of schedule 'g'" at the step. With `in_result` set, the diagnostics
/// are known to be about that result (the re-check of one proc): it gets its
/// note even when no node sits at the place.
void note_schedule_provenance(const Interpreter &interp, DiagEngine &diag, size_t first,
                              const std::set<std::string> &compiled,
                              const std::string &in_result = "");

} // namespace exgc::schedule
