// help.cpp - the option list of `exgc --help` ---------------------------------//
// LLVM's own printer shows `-I=<dir>` and `--MD`, forms exgc accepts but no
// user types; this one prints the GNU forms and keeps LLVM's table.
#include "tools/exgc/help.h"

#include <algorithm>

namespace exgc {

namespace cl = llvm::cl;

namespace {

constexpr size_t kFormWidth = 28, kLineWidth = 100;

/// Short options (one letter, or upper case like MD) take one dash and a
/// separate value, as in cc.
bool is_short(llvm::StringRef name) {
  return name.size() == 1 || std::all_of(name.begin(), name.end(), [](char c) {
           return c >= 'A' && c <= 'Z';
         });
}

/// `name=value` -> `<name>=<value>` (two lower-case words); `dir` -> `<dir>`,
/// `NAME:M=1` -> `<NAME:M=1>`.
std::string placeholder(llvm::StringRef desc) {
  auto [name, value] = desc.split('=');
  auto word = [](llvm::StringRef w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  };
  if (word(name) && word(value))
    return "<" + name.str() + ">=<" + value.str() + ">";
  return "<" + desc.str() + ">";
}

std::string form_of(const cl::Option &o, const std::vector<EnumOption> &enums) {
  std::string name = o.ArgStr.str();
  if (o.getFormattingFlag() == cl::AlwaysPrefix)
    return "-" + name + o.ValueStr.str();
  bool enum_valued = std::any_of(enums.begin(), enums.end(),
                                 [&](const EnumOption &e) { return e.option == &o; });
  std::string value;
  if (!o.ValueStr.empty())
    value = placeholder(o.ValueStr);
  else if (enum_valued || o.getValueExpectedFlag() == cl::ValueRequired)
    value = "<value>";
  if (is_short(name))
    return "-" + name + (value.empty() ? "" : " " + value);
  return "--" + name + (value.empty() ? "" : "=" + value);
}

/// `form`, then `help` from column kFormWidth, wrapped at word boundaries.
void print_entry(std::ostream &os, const std::string &form, const std::string &help,
                 size_t indent) {
  std::string line = std::string(indent, ' ') + form;
  size_t column = kFormWidth + indent;
  if (line.size() + 1 > column) {
    os << line << "\n";
    line.clear();
  }
  line.resize(column, ' ');
  size_t start = 0;
  while (start < help.size()) {
    size_t room = kLineWidth - column, end = help.size();
    if (end - start > room) {
      end = help.rfind(' ', start + room);
      if (end == std::string::npos || end <= start)
        end = std::min(help.size(), start + room);
    }
    os << line << help.substr(start, end - start) << "\n";
    line.assign(column, ' ');
    start = end + (end < help.size() && help[end] == ' ');
  }
  if (help.empty())
    os << line << "\n";
}

} // namespace

void print_help(std::ostream &os, const cl::OptionCategory &category,
                const std::vector<EnumOption> &enums,
                const std::vector<std::pair<std::string, std::string>> &extra) {
  std::vector<const cl::Option *> options;
  for (const auto &entry : cl::getRegisteredOptions()) {
    const cl::Option *o = entry.second;
    bool in_category = std::find(o->Categories.begin(), o->Categories.end(), &category) !=
                       o->Categories.end();
    if (in_category && !o->ArgStr.empty() && o->getOptionHiddenFlag() == cl::NotHidden &&
        std::find(options.begin(), options.end(), o) == options.end())
      options.push_back(o);
  }
  // Short options first, as cc lists them; each group by name.
  std::sort(options.begin(), options.end(), [](const cl::Option *a, const cl::Option *b) {
    bool sa = is_short(a->ArgStr), sb = is_short(b->ArgStr);
    if (sa != sb)
      return sa;
    return a->ArgStr.compare_insensitive(b->ArgStr) < 0;
  });
  os << "OVERVIEW: exgc: compile .exg GPU kernels\n\n"
     << "USAGE: exgc [options] <input.exg>\n\n"
     << "OPTIONS:\n";
  for (const cl::Option *o : options) {
    print_entry(os, form_of(*o, enums), o->HelpStr.str(), 2);
    for (const EnumOption &e : enums)
      if (e.option == o)
        for (unsigned i = 0; i < e.values->getNumOptions(); ++i)
          print_entry(os, e.values->getOption(i).str(), e.values->getDescription(i).str(), 4);
  }
  for (const auto &[form, help] : extra)
    print_entry(os, form, help, 2);
}

} // namespace exgc
