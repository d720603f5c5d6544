// load.h - a .exg file and everything it imports -> Program ----------------//
//
// Owns: finding, loading and parsing modules, and the name scopes of
// program.h. `import cuda.sm90a` loads `cuda/sm90a.exg` from the first of the
// -I directories, then the stdlib directory, that has it; each file is loaded
// once however often it is imported; an import cycle is an error at the
// import that closes it. Each module's scope maps the procs and instrs it
// can call: its own declarations first (they shadow imports,
// docs/language.md), then the public names of its unqualified imports (a name two of them
// define differently is ambiguous: null in `scope`, listed in `ambiguous`,
// reported at its use by the typecheck), then `alias.name` for
// `import m as alias`. Public names are a module's own procs and instrs, not
// what it imports in turn.
// Also checked here, where every module is known: `schedule X from P` and
// `check P(...)` name a proc or schedule visible in their module.
// Runs first; the typecheck (typecheck.h) runs on what it returns.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/program.h"
#include "compiler/support/diagnostics.h"
#include "compiler/support/source_manager.h"

namespace exgc {

struct LoadOptions {
  /// Searched in order before the stdlib (`exgc -I dir`).
  std::vector<std::string> include_dirs;
  /// Where `import cuda` finds `cuda.exg`; empty: default_stdlib_dir() (support/install_paths.h).
  std::string stdlib_dir;
  /// Largest file read (main module or import); 0: no limit. Parse trees
  /// take about 70 times the text, so a limit keeps a huge input a clear
  /// error rather than an exhausted machine (docs/reliability.md).
  uint64_t max_file_bytes = kDefaultMaxFileBytes;
  static constexpr uint64_t kDefaultMaxFileBytes = uint64_t(16) << 20;
  /// Canonical path -> text read instead of the file: an editor's unsaved
  /// buffers (exgc-lsp).
  std::map<std::string, std::string> unsaved;
};

/// Loads `path` and its imports. Returns null after reporting errors (in any
/// module: unreadable or missing files, syntax, building, cycles, names).
std::unique_ptr<Program> load_program(const std::string &path, const LoadOptions &opts,
                                      SourceManager &sources, DiagEngine &diag);

} // namespace exgc
