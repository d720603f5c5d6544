// completion.cpp - completion candidates by place ---------------------------//
#include "tools/exgc-lsp/completion.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "compiler/analysis/memories.h"
#include "compiler/schedule/primitives.h"

namespace exgc::lsp {

namespace {

// LSP's CompletionItemKind numbers.
enum ItemKind {
  kFunction = 3,
  kVariable = 6,
  kModule = 9,
  kKeyword = 14,
  kEnumMember = 20,
  kConstant = 21,
  kStruct = 22,
  kEvent = 23,
};

enum class Where { Nothing, TopLevel, Proc, Script, ProcName };

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t indent_of(const std::string &l) {
  size_t n = 0;
  while (n < l.size() && l[n] == ' ')
    ++n;
  return n;
}

bool blank_or_comment(const std::string &l) {
  size_t i = l.find_first_not_of(" \t\r");
  return i == std::string::npos || l[i] == '#';
}

std::vector<std::string> words_of(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

/// The identifier at the start of `l` after its indentation.
std::string first_word(const std::string &l) {
  size_t b = indent_of(l), e = b;
  while (e < l.size() && is_ident(l[e]))
    ++e;
  return l.substr(b, e - b);
}

/// Whether the end of `before` (a line up to the cursor) is in a comment
/// or an unterminated string.
bool in_comment_or_string(const std::string &before) {
  char quote = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    char c = before[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return true;
    }
  }
  return quote != 0;
}

/// The document's lines 0 .. `last` (fewer when it is shorter).
std::vector<std::string> lines_up_to(const std::string &text, uint32_t last) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (out.size() <= last) {
    size_t nl = text.find('\n', begin);
    std::string l = text.substr(begin, nl == std::string::npos ? std::string::npos : nl - begin);
    if (!l.empty() && l.back() == '\r')
      l.pop_back();
    out.push_back(std::move(l));
    if (nl == std::string::npos)
      break;
    begin = nl + 1;
  }
  return out;
}

/// `name = ...` and `for name in ...` at the start of `line`, and the
/// parameters of a `def` header: the names a script line binds.
void script_names(const std::string &line, std::set<std::string> &out) {
  std::string w = first_word(line);
  if (w.empty())
    return;
  size_t after = indent_of(line) + w.size();
  if (w == "def") {
    size_t open = line.find('('), close = line.find(')');
    if (open == std::string::npos)
      return;
    std::string params = line.substr(open + 1, close == std::string::npos ? std::string::npos
                                                                          : close - open - 1);
    std::replace(params.begin(), params.end(), ',', ' ');
    for (const std::string &p : words_of(params))
      out.insert(p);
    return;
  }
  if (w == "for") {
    std::vector<std::string> ws = words_of(line.substr(after));
    if (!ws.empty() && std::all_of(ws[0].begin(), ws[0].end(), is_ident))
      out.insert(ws[0]);
    return;
  }
  size_t eq = line.find_first_not_of(' ', after);
  if (eq != std::string::npos && line[eq] == '=' && line.compare(eq, 2, "==") != 0)
    out.insert(w);
}

struct Out {
  std::vector<Completion> items;
  std::set<std::string> seen;
  void add(const std::string &label, const std::string &detail, int kind) {
    if (!label.empty() && seen.insert(label).second)
      items.push_back({label, detail, kind});
  }
  void keywords(std::initializer_list<const char *> ks) {
    for (const char *k : ks)
      add(k, "keyword", kKeyword);
  }
};

void memories(Out &out) {
  for (const analysis::MemoryInfo &m : analysis::all_memories())
    out.add(m.name, memory_description(m.name), kConstant);
}

void loop_modes(Out &out) {
  // The modes of analysis::is_loop_mode (compiler/analysis/gpu_names.cpp).
  out.add("seq", "loop mode: sequential (seq(lo, hi, unroll=k))", kEnumMember);
  out.add("cuda_tasks", "loop mode: one task per iteration, over the grid", kEnumMember);
  out.add("cuda_threads", "loop mode: threads of a collective (cuda_threads(lo, hi, unit=U))",
          kEnumMember);
}

void contexts(Out &out) {
  out.add("CudaDeviceFunction", "context: a kernel (blockDim, clusterDim, blocks_per_sm, warps)",
          kStruct);
  out.add("CudaWarps", "context: warps lo..hi of the CTA (name=)", kStruct);
}

/// Module-level names of `kinds` from the index.
void globals(Out &out, const SymbolIndex *index, std::initializer_list<Definition::Kind> kinds) {
  if (!index)
    return;
  for (const Definition &d : index->globals())
    if (std::find(kinds.begin(), kinds.end(), d.kind) != kinds.end()) {
      std::string detail = d.kind == Definition::Kind::Proc       ? "proc"
                           : d.kind == Definition::Kind::Instr    ? "instr"
                           : d.kind == Definition::Kind::Schedule ? "schedule"
                           : d.kind == Definition::Kind::Def      ? "def"
                                                                  : "module";
      out.add(d.name, detail,
              d.kind == Definition::Kind::Schedule ? kEvent
              : d.kind == Definition::Kind::Module ? kModule
                                                   : kFunction);
    }
}

} // namespace

std::vector<Completion> complete(const std::string &text, uint32_t line, uint32_t col,
                                 const SymbolIndex *index) {
  using K = Definition::Kind;
  if (line == 0)
    return {};
  std::vector<std::string> lines = lines_up_to(text, line - 1);
  if (lines.size() < line)
    return {};
  const std::string &here = lines[line - 1];
  std::string before = here.substr(0, std::min<size_t>(col ? col - 1 : 0, here.size()));
  if (in_comment_or_string(before))
    return {};
  size_t word_start = before.size();
  while (word_start > 0 && is_ident(before[word_start - 1]))
    --word_start;
  std::string lead = before.substr(0, word_start); // before the word being typed
  std::vector<std::string> lead_words = words_of(lead);
  bool statement_start = lead_words.empty();

  // The enclosing top-level declaration.
  Where where = Where::Nothing;
  size_t header = line - 1;
  std::string decl;
  if (statement_start && indent_of(before) == 0) {
    where = Where::TopLevel;
  } else {
    for (size_t i = line; i-- > 0;) {
      const std::string &l = i == line - 1 ? before : lines[i];
      if (blank_or_comment(l) || indent_of(l) > 0)
        continue;
      header = i;
      decl = first_word(l);
      break;
    }
    if (decl == "proc" || decl == "instr")
      where = Where::Proc;
    else if (decl == "def")
      where = Where::Script;
    else if (decl == "schedule")
      where = header == line - 1 ? Where::ProcName : Where::Script;
    else if (decl == "export" || decl == "check")
      where = Where::ProcName;
  }

  Out out;
  bool after_at = !lead.empty() && lead.find_last_not_of(" \t") != std::string::npos &&
                  lead[lead.find_last_not_of(" \t")] == '@';
  bool for_in = lead_words.size() == 3 && lead_words[0] == "for" && lead_words[2] == "in";
  switch (where) {
  case Where::Nothing:
    break;
  case Where::TopLevel:
    out.keywords({"proc", "instr", "schedule", "def", "import", "export", "check"});
    break;
  case Where::ProcName:
    // `schedule s from NAME`, `export a, b`, `check NAME(...)`.
    if (decl != "schedule" || (lead_words.size() == 3 && lead_words[2] == "from"))
      globals(out, index, {K::Proc, K::Schedule});
    break;
  case Where::Proc:
    if (after_at) {
      memories(out);
    } else if (for_in) {
      loop_modes(out);
    } else if (lead_words.size() == 1 && lead_words[0] == "with") {
      contexts(out);
    } else {
      if (index)
        for (const Definition *d : index->locals_at(line))
          out.add(d->name,
                  d->kind == K::Iterator ? "loop iterator"
                  : d->kind == K::Window ? "window"
                                         : "buffer",
                  kVariable);
      globals(out, index, {K::Proc, K::Instr});
      if (statement_start)
        out.keywords({"for", "if", "elif", "else", "pass", "assert", "with"});
      else
        out.keywords({"in", "and", "or", "not", "True", "False"});
    }
    break;
  case Where::Script:
    if (after_at) {
      memories(out);
    } else if (for_in) {
      out.add("range", "range(stop), range(start, stop): a list of ints", kFunction);
    } else {
      std::set<std::string> vars;
      if (decl == "schedule")
        vars.insert("p"); // the proc being scheduled
      for (size_t i = header; i + 1 < line; ++i)
        script_names(lines[i], vars);
      for (const std::string &v : vars)
        out.add(v, "script variable", kVariable);
      for (const schedule::PrimitiveSpec &p : schedule::all_primitives())
        out.add(p.name, schedule::primitive_signature(p), kFunction);
      out.add("range", "range(stop), range(start, stop): a list of ints", kFunction);
      out.add("len", "len(list)", kFunction);
      out.add("str", "str(int): its decimal text", kFunction);
      out.add("print", "print(...): reports its arguments as a note", kFunction);
      out.add("same_code", "same_code(p, q): whether two procs have the same code", kFunction);
      globals(out, index, {K::Proc, K::Instr, K::Schedule, K::Def});
      loop_modes(out);
      memories(out);
      contexts(out);
      out.add("warp_role", "warp_role(name, warps, ...): a role of CudaDeviceFunction(warps=)", kFunction);
      if (statement_start)
        out.keywords({"for", "if", "elif", "else", "return", "pass"});
      else
        out.keywords({"in", "and", "or", "not", "True", "False"});
    }
    break;
  }
  return std::move(out.items);
}

} // namespace exgc::lsp
