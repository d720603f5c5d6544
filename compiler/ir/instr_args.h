// instr_args.h - an instruction call's arguments by parameter ---------------//
// Owns: how a call binds an instruction's parameters (template parameters by
// keyword, docs/language.md; the others in order) and which parameters an
// attribute line (`out_of_order: dst, src`) names. The GPU stage, the sync
// lowering and codegen all read calls through these.
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc {

/// Whether the `key:` line of `instr` names the parameter `name` (written
/// `x` or `x[...]`).
bool instr_attr_names(const ProcNode &instr, const char *key, const std::string &name);

/// The argument of `call` for each parameter of `instr`, in parameter order;
/// an empty Expr where the call gives none.
std::vector<Expr> bind_instr_args(const CallStmt &call, const ProcNode &instr);

} // namespace exgc
