// outputs.cpp - writing a run's files through temporary files --------------//
#include "tools/exgc/outputs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace exgc {

namespace fs = std::filesystem;

namespace {

/// Writes `text` to a new temporary file beside `path` (same folder, so the
/// rename is atomic); its name, or empty when it could not be written.
std::string write_temporary(const std::string &path, const std::string &text) {
  std::string name = path + ".tmp.XXXXXX";
  int fd = mkstemp(name.data());
  if (fd < 0)
    return "";
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0)
      break;
    done += static_cast<size_t>(n);
  }
  // mkstemp makes the file 0600; an output is as readable as any other file.
  mode_t mask = umask(0);
  umask(mask);
  bool ok = done == text.size() && fchmod(fd, 0666 & ~mask) == 0;
  ok = close(fd) == 0 && ok;
  if (ok)
    return name;
  std::remove(name.c_str());
  return "";
}

/// Where a target's temporary file goes and what it is renamed to: the file
/// a symbolic link points at (the link stays), or the path itself. Empty for
/// a target that exists and is not a regular file (`/dev/null`, a pipe):
/// renaming over it would replace the device with a file, so it is written
/// in place.
std::string rename_target(const std::string &path) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    return path;
  if (!fs::is_regular_file(st))
    return "";
  if (fs::is_symlink(fs::symlink_status(path, ec))) {
    fs::path real = fs::canonical(path, ec);
    return ec ? path : real.string();
  }
  return path;
}

/// Writes `text` into the existing special file `path`.
bool write_in_place(const std::string &path, const std::string &text) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

} // namespace

Outputs::Outputs(std::vector<std::string> targets) {
  for (std::string &t : targets)
    if (!t.empty() && t != "-")
      targets_.push_back(std::move(t));
}

void Outputs::add(const std::string &path, std::string text) {
  files_.push_back({path, std::move(text)});
}

bool Outputs::commit(DiagEngine &diag) {
  std::vector<std::pair<std::string, std::string>> written; // temporary, target
  std::vector<const std::pair<std::string, std::string> *> in_place;
  bool ok = true;
  for (const auto &file : files_) {
    if (file.first == "-")
      continue;
    std::string path = rename_target(file.first);
    if (path.empty()) {
      in_place.push_back(&file);
      continue;
    }
    std::string tmp = write_temporary(path, file.second);
    if (tmp.empty()) {
      ok = diag.report(SrcLoc{}, DiagKind::OutputUnwritable, file.first, "the file could not be written");
      break;
    }
    written.push_back({tmp, path});
  }
  for (const auto &[tmp, path] : written) {
    std::error_code ec;
    if (ok)
      fs::rename(tmp, path, ec);
    if (ok && ec)
      ok = diag.report(SrcLoc{}, DiagKind::OutputUnwritable, path, ec.message());
    if (!ok)
      std::remove(tmp.c_str());
  }
  for (const auto *file : in_place)
    if (ok && !write_in_place(file->first, file->second))
      ok = diag.report(SrcLoc{}, DiagKind::OutputUnwritable, file->first, "the file could not be written");
  if (!ok) {
    remove_stale();
    return false;
  }
  // Standard output last, once every file is in place.
  for (const auto &[path, text] : files_)
    if (path == "-")
      std::cout << text;
  std::cout.flush();
  return true;
}

void Outputs::remove_stale() const {
  for (const std::string &t : targets_) {
    std::error_code ec;
    if (fs::is_regular_file(fs::symlink_status(t, ec)))
      fs::remove(t, ec);
  }
}

} // namespace exgc
