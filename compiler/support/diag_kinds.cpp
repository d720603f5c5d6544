// diag_kinds.cpp - the table behind diag_kinds.h --------------------------//
#include "compiler/support/diag_kinds.h"

namespace exgc {
namespace {
const DiagInfo kInfos[] = {
#define EXGC_DIAG(Name, Sev, Fmt) {#Name, Severity::Sev, Fmt},
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
} // namespace

const DiagInfo &diag_info(DiagKind kind) { return kInfos[static_cast<size_t>(kind)]; }
size_t num_diag_kinds() { return sizeof(kInfos) / sizeof(kInfos[0]); }
DiagKind diag_kind_at(size_t i) { return static_cast<DiagKind>(i); }

} // namespace exgc
