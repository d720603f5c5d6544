// install_paths.cpp - installed layout first, then the source tree ---------//
#include "compiler/support/install_paths.h"

#include <filesystem>

namespace exgc {

namespace fs = std::filesystem;

namespace {

/// `<prefix>/<relative>` when the running executable is `<prefix>/bin/<name>`
/// and that folder exists; empty otherwise.
std::string installed(const char *relative) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec)
    return "";
  fs::path dir = exe.parent_path().parent_path() / relative;
  if (!fs::is_directory(dir, ec))
    return "";
  return dir.lexically_normal().string();
}

std::string installed_or(const char *relative, const char *source_relative) {
  std::string dir = installed(relative);
  return dir.empty() ? std::string(EXGC_SOURCE_DIR) + "/" + source_relative : dir;
}

} // namespace

std::string default_stdlib_dir() { return installed_or(EXGC_INSTALL_STDLIB_DIR, "stdlib"); }

std::string runtime_include_dir() {
  return installed_or(EXGC_INSTALL_RUNTIME_INCLUDE_DIR, "runtime/include");
}

} // namespace exgc
