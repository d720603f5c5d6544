// diag_options.h - the options that shape diagnostics: -W..., --color -------//
#pragma once
#include <string>
#include <vector>

#include "compiler/support/diagnostics.h"

namespace exgc {

/// The values of -W (`error`, `no-error`, `no-KIND`), in order, into
/// `policy`. KIND is a registered warning's name; case, '-' and '_' are
/// ignored (`-Wno-sync-not-verified`). False with `error` set for an unknown
/// one, with the nearest registered name.
bool parse_warning_flags(const std::vector<std::string> &values, WarningPolicy &policy,
                         std::string &error);

/// `--color[=auto|always|never]` (`given`: the option appeared; `value` empty:
/// written without one, which means always) -> whether to colour text
/// diagnostics; auto: when standard error is a terminal and NO_COLOR is unset,
/// as clang does. False with `error` set for another value.
bool parse_color(bool given, const std::string &value, bool &color, std::string &error);

} // namespace exgc
