// diagnostics.h - located, registered diagnostics -------------------------//
// Owns: DiagEngine, which collects diagnostics (each with a registered kind,
// a location and notes) and renders them clang-style, as JSON or as SARIF. Every problem
// the input can cause is reported here; our own bugs use EXGC_CHECK (check.h).
//
//   diag.error(loc, DiagKind::UnknownName, name).note(decl_loc, "declared here");
#pragma once
#include <cstdint>
#include <limits>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/support/diag_kinds.h"
#include "compiler/support/source_manager.h"

namespace exgc {

struct DiagNote {
  SrcLoc loc;
  std::string message;
};

struct Diagnostic {
  DiagKind kind;
  Severity severity;
  SrcLoc loc;
  std::string message;
  std::vector<DiagNote> notes;
  /// The procs whose code it is about, when a stage reported it while
  /// checking or emitting one proc (DiagEngine::InProc). Two procs share code
  /// after a schedule, so this, not the place, says which proc is wrong.
  std::vector<std::string> procs;
};

/// Converts a diagnostic argument to its text.
inline std::string diag_arg(const std::string &s) { return s; }
inline std::string diag_arg(const char *s) { return s; }
inline std::string diag_arg(char c) { return std::string(1, c); }
template <typename T> std::string diag_arg(const T &v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

class DiagEngine;

/// What the command line says about warnings: `-Wno-KIND` drops a kind,
/// `-Werror` makes every warning left an error.
struct WarningPolicy {
  std::set<DiagKind> ignored;
  bool as_errors = false;
};

/// Writes `s` as a JSON string literal (quotes, escapes of '"', '\\' and
/// control characters; other bytes as they are).
void json_string(std::ostream &os, const std::string &s);

/// Adds notes to the diagnostic just reported. Converts to `false` ("failed").
class DiagBuilder {
public:
  /// `index` kDropped: the diagnostic was a warning turned off; notes go nowhere.
  static constexpr size_t kDropped = std::numeric_limits<size_t>::max();
  DiagBuilder(DiagEngine &engine, size_t index) : engine_(engine), index_(index) {}
  DiagBuilder &note(SrcLoc loc, std::string message);
  operator bool() const { return false; }

private:
  DiagEngine &engine_;
  size_t index_;
};

class DiagEngine {
public:
  explicit DiagEngine(const SourceManager &sources) : sources_(sources) {}

  /// Applies to the diagnostics reported from now on.
  void set_warning_policy(WarningPolicy policy) { policy_ = std::move(policy); }

  /// While alive, every diagnostic reported is about the code of proc
  /// `name` (Diagnostic::procs). Scopes nest; the innermost one counts.
  class InProc {
  public:
    InProc(DiagEngine &engine, std::string name)
        : engine_(engine), saved_(std::move(engine.current_proc_)) {
      engine_.current_proc_ = std::move(name);
    }
    ~InProc() { engine_.current_proc_ = std::move(saved_); }
    InProc(const InProc &) = delete;
    InProc &operator=(const InProc &) = delete;

  private:
    DiagEngine &engine_;
    std::string saved_;
  };

  /// Reports a diagnostic of `kind` (severity from the registry) at `loc`.
  template <typename... Args> DiagBuilder report(SrcLoc loc, DiagKind kind, const Args &...args) {
    return report_args(loc, kind, {diag_arg(args)...});
  }
  DiagBuilder report_args(SrcLoc loc, DiagKind kind, std::vector<std::string> args);

  unsigned num_errors() const { return num_errors_; }
  bool has_errors() const { return num_errors_ != 0; }
  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  Diagnostic &at(size_t i) { return diags_[i]; }
  const SourceManager &sources() const { return sources_; }

  /// Drops each diagnostic from index `first` on that repeats an earlier one
  /// from `first` on (same kind, place and message): one piece of code shared
  /// by two compiled procs is reported once, about both (their `procs` joined).
  void drop_duplicates(size_t first);

  /// Clang-style text: `file:line:col: error: message [Kind]`, the line, a
  /// caret; with `color`, in clang's colours (bold places and messages, red
  /// errors, magenta warnings, a green caret).
  void render_text(std::ostream &os, bool show_kind, bool color = false) const;
  /// One JSON array of {file, line, column, severity, kind, message, notes}.
  void render_json(std::ostream &os) const;
  /// SARIF 2.1.0 (sarif.cpp): one run of `exgc` `version`, a result per
  /// diagnostic with its kind as rule id, notes as related locations.
  void render_sarif(std::ostream &os, const std::string &version) const;
  /// The message of `kind` with its arguments substituted (exposed for tests).
  static std::string format(DiagKind kind, const std::vector<std::string> &args);

private:
  void render_one(std::ostream &os, SrcLoc loc, Severity sev, const std::string &msg,
                  const char *kind_name, bool color) const;
  const SourceManager &sources_;
  WarningPolicy policy_;
  std::vector<Diagnostic> diags_;
  unsigned num_errors_ = 0;
  std::string current_proc_; // InProc's name; empty outside any
};

} // namespace exgc
