// sarif.cpp - diagnostics as SARIF 2.1.0, for code-scanning tools ----------//
// One run whose tool lists, as rules, the registered kinds that occur (id =
// the kind's name, the format as its description, the registered severity as
// its default level); each diagnostic is a result pointing at its rule, with
// a physical location (file, 1-based line and column) when it has one and
// its notes as related locations. File names are kept as exgc read them, so
// relative paths stay relative to where exgc ran (the repository root in CI).
#include <algorithm>
#include <map>

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
    json_string(os, info.format);
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
