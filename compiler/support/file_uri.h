// file_uri.h - file names as URIs (SARIF logs, the language server) -------//
#pragma once
#include <string>

namespace exgc {

/// `path` as a URI reference: an absolute path becomes `file:///...`, a
/// relative one stays relative; bytes other than letters, digits and
/// `/-._~` are percent-encoded (`a b.exg` -> `a%20b.exg`).
std::string file_uri(const std::string &path);
/// `file:///a%20b/k.exg` -> `/a b/k.exg`; empty when `uri` is not a file URI.
std::string file_uri_to_path(const std::string &uri);

} // namespace exgc
