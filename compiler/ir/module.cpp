// module.cpp - small queries on a Module ----------------------------------//
#include "compiler/ir/module.h"

namespace exgc {

std::string ImportDecl::dotted() const {
  std::string s;
  for (size_t i = 0; i < path.size(); ++i)
    s += (i ? "." : "") + path[i];
  return s;
}

Proc Module::find_proc(const std::string &name) const {
  for (const Decl &d : decls)
    if (const Proc *p = std::get_if<Proc>(&d))
      if ((*p)->name == name)
        return *p;
  return nullptr;
}

} // namespace exgc
