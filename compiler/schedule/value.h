// value.h - the values of the schedule language ----------------------------//
// Owns: Value, what script variables hold: integers, booleans, strings,
// lists, procs, cursors, descriptors (memories, units, loop modes, contexts,
// timelines: kept as IR expressions of type Meta, exactly as they would be
// written in a proc), and functions (a `def` or a primitive's name).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/module.h"
#include "compiler/ir/nodes.h"

namespace exgc::schedule {

/// One navigation step of a cursor (`c.parent()`, `c.body()[1:3]`, ...):
/// recorded so that it can be replayed in the proc the cursor is used with.
struct CursorNav {
  enum class Op { Parent, Body, Next, Prev, Before, After, Expand, Index, Slice };
  Op op = Op::Parent;
  int64_t a = 0, b = 0; // Expand: statements before, after; Index: a; Slice: [a, b)
};

/// A place in a proc: the statement with NodeId `node` (which the IRMutator
/// keeps for rebuilt statements), or the `count` statements starting there,
/// or the gap before or after it. A cursor belongs to the proc it was made
/// from (`proc`); a primitive given a proc derived from it forwards the
/// cursor there (cursor.h: forward_cursor): the statements `p.find` gave
/// (`found`) by their ids, then the navigation `path` replayed.
struct Cursor {
  enum class Kind { Stmt, Block, GapBefore, GapAfter };
  Kind kind = Kind::Stmt;
  NodeId node = 0;
  size_t count = 1; // Block: how many statements
  Proc proc;        // the proc it was made from
  /// What `find` gave in `proc` (kind Stmt or Block, first id, count).
  NodeId found = 0;
  size_t found_count = 1;
  std::vector<CursorNav> path;
};

struct Value {
  enum class Kind { None, Int, Bool, Str, List, Proc, Cursor, Meta, Func };
  Kind kind = Kind::None;
  int64_t int_value = 0; // Int, Bool
  std::string str;       // Str; Func: the function's name
  std::shared_ptr<const std::vector<Value>> list;
  Proc proc;
  Cursor cursor;
  Expr meta;
  const DefDecl *def = nullptr; // Func: a `def`, or null for a primitive/builtin
  /// What the value budget counts: 1, plus a string's characters, plus the
  /// weights of a list's elements (a list that holds a list twice counts it
  /// twice, as printing and comparing it would).
  int64_t weight = 1;

  static Value none() { return {}; }
  static Value of_int(int64_t v);
  static Value of_bool(bool v);
  static Value of_str(std::string s);
  static Value of_list(std::vector<Value> items);
  static Value of_proc(Proc p);
  static Value of_cursor(Cursor c);
  static Value of_meta(Expr e);
  static Value of_func(std::string name, const DefDecl *def);

  /// "int", "str", "cursor", ... for messages.
  const char *type_name() const;
  /// The same with its article: "an int", "a cursor".
  std::string a_type() const;
  /// How `print` shows it (procs print as .exg). Cursors show their
  /// statement in the proc they were made from.
  std::string to_display() const;
  /// Appends the same to `out`, stopping once `out` is longer than `limit`
  /// (false then).
  bool append_display(std::string &out, size_t limit) const;
  bool truthy() const;
};

const char *value_kind_name(Value::Kind k);
bool values_equal(const Value &a, const Value &b);

} // namespace exgc::schedule
