// source_manager.cpp - file buffers and line lookup -----------------------//
#include "compiler/support/source_manager.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace exgc {

uint32_t SourceManager::add(std::string name, std::string text) {
  File f;
  f.name = std::move(name);
  f.text = std::move(text);
  f.line_starts.push_back(0);
  for (size_t i = 0; i < f.text.size(); ++i)
    if (f.text[i] == '\n')
      f.line_starts.push_back(i + 1);
  files_.push_back(std::move(f));
  return static_cast<uint32_t>(files_.size());
}

uint32_t SourceManager::load(const std::string &path, std::string &error) {
  // A directory opens as an empty stream on Linux: it would read as an empty module.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "'" + path + "' is a directory, not a .exg file";
    return 0;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return 0;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return 0;
  }
  return add(path, ss.str());
}

const std::string &SourceManager::name(uint32_t file) const {
  static const std::string none = "<unknown>";
  return file >= 1 && file <= files_.size() ? files_[file - 1].name : none;
}

const std::string &SourceManager::text(uint32_t file) const {
  static const std::string none;
  return file >= 1 && file <= files_.size() ? files_[file - 1].text : none;
}

std::string SourceManager::line_text(uint32_t file, uint32_t line) const {
  if (file < 1 || file > files_.size())
    return "";
  const File &f = files_[file - 1];
  if (line < 1 || line > f.line_starts.size())
    return "";
  size_t begin = f.line_starts[line - 1];
  size_t end = f.text.find('\n', begin);
  if (end == std::string::npos)
    end = f.text.size();
  std::string s = f.text.substr(begin, end - begin);
  if (!s.empty() && s.back() == '\r')
    s.pop_back();
  return s;
}

} // namespace exgc
