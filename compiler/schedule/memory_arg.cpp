// memory_arg.cpp - a memory descriptor given to a primitive --------------------//
#include "compiler/schedule/memory_arg.h"

#include "compiler/ir/printer.h"

namespace exgc::schedule {
namespace {
const char *kind_name(analysis::MemKind k) {
  switch (k) {
  case analysis::MemKind::Memory: return "memory";
  case analysis::MemKind::BarrierMechanism: return "barrier mechanism";
  case analysis::MemKind::SpecialWindow: return "special window";
  }
  EXGC_UNREACHABLE("memory kind");
}
} // namespace

analysis::MemoryRef memory_arg(Interpreter &in, const Expr &mem, analysis::MemKind want,
                               const std::string &subject, SrcLoc loc) {
  analysis::MemoryRef m = analysis::resolve_memory(mem);
  if (!m) {
    std::string name = analysis::memory_name(mem);
    in.fail(loc, DiagKind::UnknownMemory, name.empty() ? print_expr(mem) : name);
  }
  if (m.info->kind != want)
    in.fail(loc, DiagKind::MemoryKindMismatch, m.info->name, kind_name(m.info->kind), subject,
            kind_name(want));
  if (std::string why = analysis::memory_param_count_error(*m.info, m.params.size()); !why.empty())
    in.fail(loc, DiagKind::MemoryParams, m.info->name, why);
  return m;
}

Expr new_buffer_memory(Interpreter &in, const PrimArg &arg, const std::string &name) {
  if (arg.value.kind != Value::Kind::Meta)
    return Expr();
  memory_arg(in, arg.value.meta, analysis::MemKind::Memory, "'" + name + "'", arg.loc);
  return arg.value.meta;
}

} // namespace exgc::schedule
