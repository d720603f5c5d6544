// program.cpp - name lookup across the modules of a program ---------------//
#include "compiler/frontend/program.h"

namespace exgc {

const LoadedModule *Program::owner(const ProcNode *p) const {
  for (const auto &m : modules)
    for (const Decl &d : m->module.decls)
      if (const Proc *q = std::get_if<Proc>(&d); q && q->get() == p)
        return m.get();
  return nullptr;
}

Proc Program::lookup(const LoadedModule &from, const std::string &name) const {
  auto it = from.scope.find(name);
  return it == from.scope.end() ? nullptr : it->second;
}

Proc Program::lookup_from(const ProcNode *caller, const std::string &name) const {
  const LoadedModule *from = owner(caller);
  // A proc made by a schedule belongs to no module's declarations; schedules
  // run in the main module, so its names resolve there.
  if (!from && !modules.empty())
    from = modules.front().get();
  return from ? lookup(*from, name) : nullptr;
}

} // namespace exgc
