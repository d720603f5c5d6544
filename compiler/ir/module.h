// module.h - a parsed .exg file: its declarations in source order ---------//
// Owns: Module and its declarations. Order is kept so the printer writes the
// file back in the same order (print -> parse -> print is the identity).
#pragma once
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/nodes.h"
#include "compiler/ir/script.h"

namespace exgc {

/// `import cuda.sm90a` or `import cuda.sm90a as sm90`.
struct ImportDecl {
  std::vector<std::string> path;
  std::string alias; // empty: names are unqualified
  SrcLoc loc;
  std::string dotted() const;
};

/// `def name(params): body`: a schedule function.
struct DefDecl {
  std::string name;
  std::vector<std::string> params;
  script::Block body;
  SrcLoc loc;
};

/// `schedule name from proc: body`: `p` starts as `proc`; the result is `name`.
struct ScheduleDecl {
  std::string name;
  std::string from;
  SrcLoc from_loc;
  script::Block body;
  SrcLoc loc;
};

/// `check proc(M=768, N=768)`: sizes at which the sync checker runs proc.
struct CheckDecl {
  std::string proc;
  std::vector<KwArg> sizes;
  SrcLoc loc;
};

/// `T = 128` at the top level: a value every script of the module can name
/// (a schedule's parameter; `exgc -D T=64` replaces it).
struct ValueDecl {
  std::string name;
  script::Expr value;
  SrcLoc loc;
};

/// `export a, b`.
struct ExportDecl {
  std::vector<std::string> names;
  std::vector<SrcLoc> locs;
  SrcLoc loc;
};

using Decl =
    std::variant<ImportDecl, Proc, DefDecl, ScheduleDecl, CheckDecl, ExportDecl, ValueDecl>;

struct Module {
  std::string path; // the file it came from, or empty
  uint32_t file = 0;
  std::vector<Decl> decls;
  /// The proc or instr named `name` declared in this module, or null.
  Proc find_proc(const std::string &name) const;
};

} // namespace exgc
