// copy.h - copies of code, with fresh or renamed bindings -----------------//
// Owns: copying statements (with fresh ids, and fresh bindings for what
// they declare, or keeping ids), substituting variables, renaming a buffer,
// and the names a proc or block declares (what a copy must not redeclare).
// Shared by the schedule primitives and the GPU stage's inlining of device
// calls.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "compiler/ir/nodes.h"

namespace exgc {

/// `b` with Vars substituted per `vars`. With `fresh`, every statement gets a
/// new NodeId and every loop, allocation and window it declares a new Sym
/// (a second copy of code); without, statements keep their ids.
/// With `taken` (and `fresh`), each allocation and window the copy declares
/// also gets a new name, `t_1`, `t_2`, ..., not in `taken` (which grows): the
/// typecheck forbids redeclaring a name in one block.
Block copy_block(const Block &b, const std::map<uint32_t, Expr> &vars, bool fresh,
                 std::set<std::string> *taken = nullptr);

/// `b` with every use of buffer `from` naming `to` instead; ids are kept.
Block rename_buffer(const Block &b, const Sym &from, const Sym &to);

/// Adds every name `b` declares, at any depth: allocations, windows, loop
/// iterators.
void collect_declared_names(const Block &b, std::set<std::string> &out);

/// Every name `p` declares: arguments, allocations, windows, loop iterators.
std::set<std::string> declared_names(const ProcNode &p);

} // namespace exgc
