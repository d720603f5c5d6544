// diag_options.cpp - -Werror, -Wno-KIND and --color ---------------------------//
#include "tools/exgc/diag_options.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>

#include "compiler/support/did_you_mean.h"

namespace exgc {

namespace {

/// `SyncNotVerified`, `sync-not-verified`, `SYNC_NOT_VERIFIED` -> `syncnotverified`.
std::string folded(const std::string &name) {
  std::string out;
  for (char c : name)
    if (c != '-' && c != '_')
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Turns off the warnings of `kind_name`; false with `error` set when it
/// names no warning.
bool ignore_warning(const std::string &kind_name, WarningPolicy &policy, std::string &error) {
  std::vector<std::string> warnings;
  for (size_t i = 0; i < num_diag_kinds(); ++i) {
    DiagKind kind = diag_kind_at(i);
    const DiagInfo &info = diag_info(kind);
    if (folded(info.name) == folded(kind_name)) {
      if (info.severity == Severity::Warning) {
        policy.ignored.insert(kind);
        return true;
      }
      error = "'-Wno-" + kind_name + "': " + info.name + " is not a warning; only warnings can " +
              "be turned off";
      return false;
    }
    if (info.severity == Severity::Warning)
      warnings.push_back(info.name);
  }
  error = "unknown warning '" + kind_name + "' in '-Wno-" + kind_name + "'" +
          did_you_mean(kind_name, warnings, "-Wno-");
  return false;
}

} // namespace

bool parse_warning_flags(const std::vector<std::string> &values, WarningPolicy &policy,
                         std::string &error) {
  for (const std::string &v : values) {
    if (v == "error")
      policy.as_errors = true;
    else if (v == "no-error")
      policy.as_errors = false;
    else if (v.rfind("no-", 0) == 0 && v.size() > 3) {
      if (!ignore_warning(v.substr(3), policy, error))
        return false;
    } else {
      error = "unknown warning option '-W" + v + "'; exgc has -Werror, -Wno-error and -Wno-KIND" +
              did_you_mean(v, {"error"}, "-W");
      return false;
    }
  }
  return true;
}

bool parse_color(bool given, const std::string &value, bool &color, std::string &error) {
  if (given && (value.empty() || value == "always")) {
    color = true;
    return true;
  }
  if (given && value == "never") {
    color = false;
    return true;
  }
  if (given && value != "auto") {
    error = "--color wants auto, always or never, not '" + value + "'";
    return false;
  }
  const char *no_color = std::getenv("NO_COLOR");
  const char *term = std::getenv("TERM");
  color = isatty(STDERR_FILENO) && !(no_color && *no_color) &&
          !(term && std::string(term) == "dumb");
  return true;
}

} // namespace exgc
