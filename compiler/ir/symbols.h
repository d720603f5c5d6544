// symbols.h - what each name of a proc declares ---------------------------//
// Owns: ProcSymbols, the one table of a proc's declarations: arguments,
// allocations, windows and loop iterators, by Sym id and by name. Built by
// one walk of the proc; passes and primitives ask it instead of searching
// the tree for a declaration each time they need a buffer's type.
// The table points into the proc: keep the proc alive while using it.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/ir/nodes.h"

namespace exgc {

/// One declaration of a proc.
struct SymDecl {
  enum class Kind { Arg, Alloc, Window, Iter };
  Kind kind;
  Sym name;
  /// The declared type (arguments and allocations); null for windows and
  /// loop iterators, which have no Type of their own.
  const Type *type;
  /// The element type of a buffer or window, a scalar's type, Index for an
  /// iterator, Meta for a barrier: the type every use of the name carries.
  ValueType elem;
  SrcLoc loc;
};

class ProcSymbols {
public:
  explicit ProcSymbols(const ProcNode &p);
  /// The declaration of `s`, or null (a global name, or not in this proc).
  /// A Sym declared twice (code a rewrite copied) is the same declaration;
  /// the first one is returned.
  const SymDecl *find(const Sym &s) const &;
  /// The first declaration named `name` in program order, arguments first.
  const SymDecl *find(const std::string &name) const &;
  /// A declaration lives in the table: asking a temporary table would
  /// return a dangling pointer (`type_of` points into the proc and is safe).
  const SymDecl *find(const Sym &s) const && = delete;
  const SymDecl *find(const std::string &name) const && = delete;
  /// The declared type of argument or allocation `s`, or null.
  const Type *type_of(const Sym &s) const;

private:
  std::vector<SymDecl> decls_; // program order
  std::unordered_map<uint32_t, size_t> by_id_;
};

} // namespace exgc
