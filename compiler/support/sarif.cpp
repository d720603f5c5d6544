// sarif.cpp - diagnostics as SARIF 2.1.0, for code-scanning tools ----------//
// One run whose tool lists, as rules, the registered kinds that occur (id =
// the kind's name; short description the name in words, full description the
// message format with its arguments written "..."; the registered severity
// as its default level); each diagnostic is a result pointing at its rule, with
// a physical location (file, 1-based line and column) when it has one and
// its notes as related locations. File names are kept as exgc read them, so
// relative paths stay relative to where exgc ran (the repository root in CI).
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "compiler/support/diagnostics.h"
#include "compiler/support/file_uri.h"

namespace exgc {

namespace {

const char *sarif_level(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note:
  case Severity::Remark: return "note";
  }
  return "error";
}

void physical_location(std::ostream &os, const SourceManager &sm, SrcLoc loc) {
  os << "\"physicalLocation\": {\"artifactLocation\": {\"uri\": ";
  json_string(os, file_uri(sm.name(loc.file)));
  os << "}";
  if (loc.valid())
    os << ", \"region\": {\"startLine\": " << loc.line << ", \"startColumn\": " << std::max(1u, loc.col)
       << "}";
  os << "}";
}

/// "HostAccessesDeviceMemory" -> "Host accesses device memory": a rule's
/// short description (code-scanning tools show it as the alert's title).
std::string name_in_words(const std::string &name) {
  static const std::map<std::string, std::string> kAcronyms = {
      {"Gpu", "GPU"}, {"Tma", "TMA"}, {"Wgmma", "wgmma"}, {"Smem", "SMEM"}};
  std::vector<std::string> words;
  for (size_t i = 0; i < name.size(); ++i) {
    if (i == 0 || std::isupper(static_cast<unsigned char>(name[i])))
      words.emplace_back();
    words.back() += name[i];
  }
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    if (auto a = kAcronyms.find(w); a != kAcronyms.end())
      w = a->second;
    else if (i > 0)
      w[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(w[0])));
    out += (i ? " " : "") + w;
  }
  return out;
}

/// The message format with each argument hole (`{0}`, `{1}`, ...) written
/// "...": the text every result of the rule shares.
std::string format_without_holes(const std::string &format) {
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    size_t j = i + 1;
    while (format[i] == '{' && j < format.size() && std::isdigit(static_cast<unsigned char>(format[j])))
      ++j;
    if (format[i] == '{' && j > i + 1 && j < format.size() && format[j] == '}') {
      out += "...";
      i = j;
      continue;
    }
    out += format[i];
  }
  return out;
}

void message(std::ostream &os, const std::string &text) {
  os << "\"message\": {\"text\": ";
  json_string(os, text);
  os << "}";
}

} // namespace

void DiagEngine::render_sarif(std::ostream &os, const std::string &version) const {
  std::map<DiagKind, size_t> rule_index;
  std::vector<DiagKind> rules;
  for (const Diagnostic &d : diags_)
    if (rule_index.emplace(d.kind, rules.size()).second)
      rules.push_back(d.kind);

  os << "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
        "  \"version\": \"2.1.0\",\n  \"runs\": [{\n    \"tool\": {\"driver\": {"
        "\"name\": \"exgc\", \"version\": ";
  json_string(os, version);
  os << ", \"rules\": [";
  for (size_t i = 0; i < rules.size(); ++i) {
    const DiagInfo &info = diag_info(rules[i]);
    os << (i ? ",\n      " : "\n      ") << "{\"id\": \"" << info.name
       << "\", \"shortDescription\": {\"text\": ";
    json_string(os, name_in_words(info.name));
    os << "}, \"fullDescription\": {\"text\": ";
    json_string(os, format_without_holes(info.format));
    os << "}, \"defaultConfiguration\": {\"level\": \"" << sarif_level(info.severity) << "\"}}";
  }
  os << "]}},\n    \"results\": [";
  for (size_t i = 0; i < diags_.size(); ++i) {
    const Diagnostic &d = diags_[i];
    os << (i ? ",\n      " : "\n      ") << "{\"ruleId\": \"" << diag_info(d.kind).name
       << "\", \"ruleIndex\": " << rule_index.at(d.kind) << ", \"level\": \""
       << sarif_level(d.severity) << "\", ";
    // A note without a place has no related location to live in: its text
    // follows the message.
    std::string text = d.message;
    for (const DiagNote &n : d.notes)
      if (!n.loc.file)
        text += "\nnote: " + n.message;
    message(os, text);
    os << ", \"locations\": [";
    if (d.loc.file) {
      os << "{";
      physical_location(os, sources_, d.loc);
      os << "}";
    }
    os << "], \"relatedLocations\": [";
    bool first = true;
    for (size_t j = 0; j < d.notes.size(); ++j) {
      if (!d.notes[j].loc.file)
        continue;
      os << (first ? "" : ", ") << "{\"id\": " << j << ", ";
      physical_location(os, sources_, d.notes[j].loc);
      os << ", ";
      message(os, d.notes[j].message);
      os << "}";
      first = false;
    }
    os << "]}";
  }
  os << "\n    ]\n  }]\n}\n";
}

} // namespace exgc
