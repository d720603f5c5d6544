// control.h - control values of a lowered proc -----------------------------//
// Owns: the names control values take in a sync program (sizes, loop
// iterators; unique, since sync names are not scoped like .exg ones) and the
// translation of .exg control expressions into sync expressions. Data never
// becomes control: an expression that reads data is refused, and the caller
// reports it.
#pragma once
#include <map>
#include <set>
#include <string>

#include "compiler/ir/nodes.h"
#include "compiler/sync/program.h"

namespace exgc::synclower {

class ControlNames {
public:
  /// A fresh sync name for `s` (its own name when still free).
  std::string bind(const Sym &s);
  /// The sync name of `s`; null when `s` is not a bound control value.
  const std::string *find(const Sym &s) const;
  /// Ends the scope of `s` (a loop iterator): its name may be taken again.
  void release(const Sym &s);
  /// A name no control value has, from `base`; for loops the lowering adds.
  std::string fresh(const std::string &base);
  void release_name(const std::string &name) { used_.erase(name); }

private:
  std::map<uint32_t, std::string> names_;
  std::set<std::string> used_;
};

/// `e` as a sync control expression (`min` and `max` by arithmetic); null,
/// with `bad` set to the first subexpression that is not one (a data read, a
/// float, another built-in).
sync::Expr to_sync(const Expr &e, const ControlNames &names, Expr *bad);

} // namespace exgc::synclower
