// diagnostics.cpp - formatting and rendering of diagnostics ---------------//
#include "compiler/support/diagnostics.h"

#include <algorithm>
#include <cstdio>

namespace exgc {

DiagBuilder &DiagBuilder::note(SrcLoc loc, std::string message) {
  if (index_ != kDropped)
    engine_.at(index_).notes.push_back({loc, std::move(message)});
  return *this;
}

std::string DiagEngine::format(DiagKind kind, const std::vector<std::string> &args) {
  std::string out;
  const char *f = diag_info(kind).format;
  for (size_t i = 0; f[i]; ++i) {
    if (f[i] == '{' && f[i + 1] >= '0' && f[i + 1] <= '9' && f[i + 2] == '}') {
      size_t k = static_cast<size_t>(f[i + 1] - '0');
      out += k < args.size() ? args[k] : "?";
      i += 2;
      continue;
    }
    out += f[i];
  }
  return out;
}

DiagBuilder DiagEngine::report_args(SrcLoc loc, DiagKind kind, std::vector<std::string> args) {
  Severity severity = diag_info(kind).severity;
  if (severity == Severity::Warning && policy_.ignored.count(kind))
    return DiagBuilder(*this, DiagBuilder::kDropped);
  if (severity == Severity::Warning && policy_.as_errors)
    severity = Severity::Error;
  diags_.push_back({kind, severity, loc, format(kind, args), {}, {}});
  if (!current_proc_.empty())
    diags_.back().procs.push_back(current_proc_);
  if (severity == Severity::Error)
    ++num_errors_;
  return DiagBuilder(*this, diags_.size() - 1);
}

/// The length of the well-formed UTF-8 sequence at `s[i]`: 1 for ASCII, 2
/// to 4 for a multi-byte character, 0 when the bytes there are not UTF-8.
static size_t utf8_length(const std::string &s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80)
    return 1;
  size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (len == 0 || i + len > s.size())
    return 0;
  for (size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
      return 0;
  // Overlong three- and four-byte forms, surrogates and code points past U+10FFFF.
  unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
  if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
      (c == 0xF4 && c1 >= 0x90))
    return 0;
  return len;
}

void DiagEngine::drop_duplicates(size_t first) {
  std::vector<Diagnostic> kept(diags_.begin(), diags_.begin() + static_cast<long>(first));
  for (size_t i = first; i < diags_.size(); ++i) {
    const Diagnostic &d = diags_[i];
    auto repeat = std::find_if(kept.begin() + static_cast<long>(first), kept.end(),
                               [&](const Diagnostic &k) {
                                 return k.kind == d.kind && k.loc == d.loc && k.message == d.message;
                               });
    if (repeat == kept.end()) {
      kept.push_back(d);
      continue;
    }
    for (const std::string &p : d.procs)
      if (std::find(repeat->procs.begin(), repeat->procs.end(), p) == repeat->procs.end())
        repeat->procs.push_back(p);
    if (d.severity == Severity::Error)
      --num_errors_;
  }
  diags_ = std::move(kept);
}

static const char *severity_name(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  case Severity::Remark: return "remark";
  }
  return "error";
}

namespace {

// Clang's colours (ANSI escapes): bold places and messages, the severity in
// its colour, a green caret.
const char *const kBold = "\033[1m", *const kReset = "\033[0m";

const char *severity_color(Severity s) {
  switch (s) {
  case Severity::Error: return "\033[1;31m";
  case Severity::Warning: return "\033[1;35m";
  case Severity::Note: return "\033[1;30m";
  case Severity::Remark: return "\033[1;34m";
  }
  return kBold;
}

} // namespace

void DiagEngine::render_one(std::ostream &os, SrcLoc loc, Severity sev, const std::string &msg,
                            const char *kind_name, bool color) const {
  auto paint = [&](const char *c, const std::string &text) {
    return color && *c ? c + text + kReset : text;
  };
  if (loc.valid())
    os << paint(kBold, sources_.name(loc.file) + ":" + std::to_string(loc.line) + ":" +
                           std::to_string(loc.col) + ":")
       << " ";
  else if (loc.file)
    os << paint(kBold, sources_.name(loc.file) + ":") << " ";
  else
    os << paint(kBold, "exgc:") << " ";
  bool bold_message = sev == Severity::Error || sev == Severity::Warning;
  os << paint(severity_color(sev), std::string(severity_name(sev)) + ":") << " "
     << paint(bold_message ? kBold : "", msg);
  if (kind_name)
    os << " [" << kind_name << "]";
  os << "\n";
  if (!loc.valid())
    return;
  std::string line = sources_.line_text(loc.file, loc.line);
  // A very long line is quoted as a window around the column, as clang does.
  size_t col = loc.col ? loc.col - 1 : 0, begin = 0, end = line.size();
  constexpr size_t kWidth = 120;
  if (line.size() > kWidth) {
    begin = col > kWidth / 2 ? col - kWidth / 2 : 0;
    end = std::min(line.size(), begin + kWidth);
  }
  // The window never cuts a UTF-8 character in two.
  auto continuation = [&](size_t i) { return (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80; };
  while (begin < line.size() && begin > 0 && continuation(begin))
    ++begin;
  while (end < line.size() && continuation(end))
    ++end;
  // Quote printable text and UTF-8 as is, anything else as '?': a binary file
  // must not garble the terminal. The caret advances one column a character.
  std::string shown = begin ? "..." : "", caret(shown.size(), ' ');
  for (size_t i = begin; i < end; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    size_t len = utf8_length(line, i);
    if (len > 1) {
      shown.append(line, i, len);
      if (i < col)
        caret += ' ';
      i += len - 1;
      continue;
    }
    shown += (c == '\t') ? ' ' : (c < 32 || c >= 127) ? '?' : static_cast<char>(c);
    if (i < col)
      caret += ' ';
  }
  if (end < line.size())
    shown += "...";
  if (end <= col)
    caret.append(col - std::max(end, begin), ' ');
  os << shown << "\n" << caret << paint("\033[1;32m", "^") << "\n";
}

void DiagEngine::render_text(std::ostream &os, bool show_kind, bool color) const {
  for (const Diagnostic &d : diags_) {
    render_one(os, d.loc, d.severity, d.message, show_kind ? diag_info(d.kind).name : nullptr,
               color);
    for (const DiagNote &n : d.notes)
      render_one(os, n.loc, Severity::Note, n.message, nullptr, color);
  }
}

void json_string(std::ostream &os, const std::string &s) {
  os << '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\')
      os << '\\' << c;
    else if (c < 32) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      os << buf;
    } else
      os << c;
  }
  os << '"';
}

static void json_loc(std::ostream &os, const SourceManager &sm, SrcLoc loc) {
  os << "\"file\": ";
  json_string(os, loc.file ? sm.name(loc.file) : "");
  os << ", \"line\": " << loc.line << ", \"column\": " << loc.col;
}

void DiagEngine::render_json(std::ostream &os) const {
  os << "[";
  for (size_t i = 0; i < diags_.size(); ++i) {
    const Diagnostic &d = diags_[i];
    os << (i ? ",\n " : "\n ") << "{";
    json_loc(os, sources_, d.loc);
    os << ", \"severity\": \"" << severity_name(d.severity) << "\", \"kind\": \""
       << diag_info(d.kind).name << "\", \"message\": ";
    json_string(os, d.message);
    os << ", \"notes\": [";
    for (size_t j = 0; j < d.notes.size(); ++j) {
      os << (j ? ", " : "") << "{";
      json_loc(os, sources_, d.notes[j].loc);
      os << ", \"message\": ";
      json_string(os, d.notes[j].message);
      os << "}";
    }
    os << "]}";
  }
  os << "\n]\n";
}

} // namespace exgc
