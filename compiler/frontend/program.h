// program.h - a compilation: the main module, its imports, and name scopes -//
// Owns: Program, what the front end hands to every later stage. Module 0 is
// the file on the command line; imports follow in load order. Each module has
// its own scope of visible procs: its own declarations shadow imported names
// (docs/language.md, "Imports"), `import m as a` makes names visible as `a.name`, and a
// name defined by two unqualified imports is ambiguous (an error at its use).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/module.h"

namespace exgc {

struct LoadedModule {
  Module module;
  /// Visible proc/instr names -> the proc. Ambiguous names map to null and are
  /// listed in `ambiguous` with the modules that define them.
  std::map<std::string, Proc> scope;
  std::map<std::string, std::vector<std::string>> ambiguous;
  std::string dotted_name; // "cuda.sm90a"; empty for the main module
};

struct Program {
  std::vector<std::unique_ptr<LoadedModule>> modules;

  const Module &main() const { return modules.front()->module; }
  LoadedModule &main_loaded() { return *modules.front(); }
  /// The module that declares `p` (by identity), or null.
  const LoadedModule *owner(const ProcNode *p) const;
  /// Resolves `name` as seen from `from` (a module of this program); null when
  /// unknown or ambiguous.
  Proc lookup(const LoadedModule &from, const std::string &name) const;
  /// Resolves a name used inside proc `caller` (in the scope of its module).
  Proc lookup_from(const ProcNode *caller, const std::string &name) const;
};

} // namespace exgc
