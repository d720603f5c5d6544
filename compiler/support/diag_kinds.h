// diag_kinds.h - the registry of every diagnostic exgc can emit -----------//
// Owns: DiagKind and its name, severity and format. The kinds are declared in
// diags/<stage>.def, one file per pipeline stage; each kind has a lit test that
// shows it (test/unit/support/diag_coverage_test.cpp enforces this).
#pragma once
#include <cstddef>

namespace exgc {

enum class Severity { Error, Warning, Note, Remark };

enum class DiagKind {
#define EXGC_DIAG(Name, Sev, Fmt) Name,
#include "compiler/support/diags/driver.def"
#include "compiler/support/diags/parse.def"
#include "compiler/support/diags/build.def"
#include "compiler/support/diags/typecheck.def"
#include "compiler/support/diags/schedule.def"
#include "compiler/support/diags/gpu.def"
#include "compiler/support/diags/sync_check.def"
#include "compiler/support/diags/codegen.def"
#undef EXGC_DIAG
};

struct DiagInfo {
  const char *name;
  Severity severity;
  const char *format;
};

const DiagInfo &diag_info(DiagKind kind);
/// All registered kinds, in declaration order (for the coverage test).
size_t num_diag_kinds();
DiagKind diag_kind_at(size_t i);

} // namespace exgc
