// symbol_index.cpp - definitions, hover texts and the outline of a document -//
#include "tools/exgc-lsp/symbol_index.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "compiler/analysis/memories.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/primitives.h"

namespace exgc::lsp {

namespace {

const char *space_text(analysis::MemSpace s) {
  switch (s) {
  case analysis::MemSpace::Host: return "host memory";
  case analysis::MemSpace::DeviceGlobal: return "device global memory";
  case analysis::MemSpace::GridConstant: return "grid constant";
  case analysis::MemSpace::Shared: return "shared memory";
  case analysis::MemSpace::Registers: return "registers";
  case analysis::MemSpace::NoStorage: return "no storage";
  }
  return "memory";
}

std::string memory_text(const analysis::MemoryInfo &m) {
  std::string out = "memory `" + std::string(m.name) + "`: " + space_text(m.space);
  if (m.per_thread)
    out += ", one copy per thread";
  if (m.native_unit)
    out += ", one copy per `" + std::string(analysis::unit_name(*m.native_unit)) + "`";
  return out;
}

/// `x: f32[n] @ CudaGmemLinear` and, below it, what the memory is.
std::string typed_name_hover(const std::string &what, const std::string &name, const Type &t) {
  std::string out = "```exg\n" + name + ": " + print_type(t) + "\n```\n" + what;
  if (t.mem) {
    if (const analysis::MemoryInfo *m = analysis::find_memory(analysis::memory_name(t.mem)))
      out += "\n\n" + memory_text(*m);
  }
  return out;
}

std::string proc_hover(const ProcNode &p) { return "```exg\n" + print_proc_header(p) + "```"; }

Place place_of(const SourceManager &sm, SrcLoc loc) {
  return Place{loc.file ? sm.name(loc.file) : "", loc.line, loc.col};
}

bool same_file(const std::string &a, const std::string &b) {
  std::error_code ec1, ec2;
  return std::filesystem::weakly_canonical(a, ec1) == std::filesystem::weakly_canonical(b, ec2);
}

/// Allocations, windows and loop iterators of a proc body.
struct LocalCollector : IRVisitor {
  std::vector<Definition> *out;
  const SourceManager *sm;
  uint32_t first, last;
  void add(Definition::Kind kind, const std::string &name, SrcLoc loc, std::string hover) {
    out->push_back({kind, name, place_of(*sm, loc), std::move(hover), first, last});
  }
  void visit_node(const Alloc *op) override {
    add(Definition::Kind::Buffer, op->name.name, op->loc,
        typed_name_hover("allocation", op->name.name, op->type));
    IRVisitor::visit_node(op);
  }
  void visit_node(const WindowStmt *op) override {
    add(Definition::Kind::Window, op->name.name, op->loc,
        "```exg\n" + op->name.name + " = " + print_expr(op->rhs) + "\n```\nwindow (a view, no copy)");
    IRVisitor::visit_node(op);
  }
  void visit_node(const For *op) override {
    std::string range = op->mode.name + "(" + print_expr(op->lo) + ", " + print_expr(op->hi);
    for (const KwArg &kw : op->mode.kwargs)
      range += ", " + kw.key + "=" + print_expr(kw.value);
    add(Definition::Kind::Iterator, op->iter.name, op->loc,
        "```exg\nfor " + op->iter.name + " in " + range + ")\n```\nloop iterator `" +
            op->iter.name + ": index`");
    IRVisitor::visit_node(op);
  }
};

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

} // namespace

std::string word_at(const std::string &line_text, uint32_t col) {
  size_t at = col ? col - 1 : 0;
  if (at >= line_text.size() || !is_word_char(line_text[at])) {
    if (at == 0 || at > line_text.size() || !is_word_char(line_text[at - 1]))
      return "";
    --at; // just after a word: the editor's cursor sits there
  }
  size_t begin = at, end = at;
  while (begin > 0 && is_word_char(line_text[begin - 1]))
    --begin;
  while (end < line_text.size() && is_word_char(line_text[end]))
    ++end;
  return line_text.substr(begin, end - begin);
}

SymbolIndex::SymbolIndex(const Program &prog, const SourceManager &sm, const std::string &path) {
  if (prog.modules.empty())
    return;
  const LoadedModule &main = *prog.modules.front();
  if (!same_file(sm.name(main.module.file), path))
    return;

  for (const auto &[name, proc] : main.scope)
    if (proc)
      globals_.push_back({proc->is_instr ? Definition::Kind::Instr : Definition::Kind::Proc, name,
                          place_of(sm, proc->loc), proc_hover(*proc)});
  for (const auto &m : prog.modules)
    if (!m->dotted_name.empty())
      globals_.push_back({Definition::Kind::Module, m->dotted_name, Place{sm.name(m->module.file), 1, 1},
                          "module `" + m->dotted_name + "`: " + sm.name(m->module.file)});

  // Declaration lines in order: each proc's locals are visible up to the next one.
  std::vector<uint32_t> starts;
  for (const Decl &d : main.module.decls)
    std::visit([&](const auto &x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, Proc>)
        starts.push_back(x->loc.file == main.module.file ? x->loc.line : 0);
      else
        starts.push_back(x.loc.line);
    }, d);
  std::sort(starts.begin(), starts.end());
  auto last_line_of = [&](uint32_t first) {
    auto next = std::upper_bound(starts.begin(), starts.end(), first);
    return next == starts.end() ? UINT32_MAX : *next - 1;
  };

  // Schedule results are appended to the module as procs with their input's
  // place: they are not declarations of this file.
  std::set<std::string> results;
  for (const Decl &d : main.module.decls)
    if (const auto *s = std::get_if<ScheduleDecl>(&d))
      results.insert(s->name);
  for (const Decl &d : main.module.decls) {
    if (const Proc *p = std::get_if<Proc>(&d)) {
      const ProcNode &proc = **p;
      if (proc.loc.file != main.module.file || results.count(proc.name))
        continue;
      uint32_t last = last_line_of(proc.loc.line);
      outline_.push_back({proc.is_instr ? Definition::Kind::Instr : Definition::Kind::Proc,
                          proc.name, proc.is_instr ? "instr" : "proc", proc.loc.line,
                          last == UINT32_MAX ? proc.loc.line : last});
      for (const Arg &a : proc.args)
        locals_.push_back({Definition::Kind::Buffer, a.name.name, place_of(sm, a.loc),
                           typed_name_hover("argument of `" + proc.name + "`", a.name.name, a.type),
                           proc.loc.line, last});
      LocalCollector c;
      c.out = &locals_;
      c.sm = &sm;
      c.first = proc.loc.line;
      c.last = last;
      c.visit(proc.body);
    } else if (const auto *s = std::get_if<ScheduleDecl>(&d)) {
      Definition def{Definition::Kind::Schedule, s->name, place_of(sm, s->loc),
                     "```exg\nschedule " + s->name + " from " + s->from + "\n```"};
      globals_.insert(globals_.begin(), def); // before the result proc of the same name
      uint32_t last = last_line_of(s->loc.line);
      outline_.push_back({Definition::Kind::Schedule, s->name, "schedule from " + s->from,
                          s->loc.line, last == UINT32_MAX ? s->loc.line : last});
    } else if (const auto *f = std::get_if<DefDecl>(&d)) {
      globals_.insert(globals_.begin(), Definition{Definition::Kind::Def, f->name,
                                                   place_of(sm, f->loc),
                                                   "```exg\ndef " + f->name + "\n```\nschedule function"});
      uint32_t last = last_line_of(f->loc.line);
      outline_.push_back({Definition::Kind::Def, f->name, "def", f->loc.line,
                          last == UINT32_MAX ? f->loc.line : last});
    } else if (const auto *imp = std::get_if<ImportDecl>(&d)) {
      outline_.push_back({Definition::Kind::Module, imp->dotted(), "import", imp->loc.line, imp->loc.line});
    }
  }
}

const Definition *SymbolIndex::find(const std::string &line_text, uint32_t line, uint32_t col) const {
  std::string word = word_at(line_text, col);
  if (word.empty())
    return nullptr;
  const Definition *best = nullptr;
  for (const Definition &d : locals_)
    if (d.name == word && d.scope_first <= line && line <= d.scope_last && d.place.line <= line &&
        (!best || d.place.line >= best->place.line))
      best = &d;
  if (best)
    return best;
  for (const Definition &d : globals_)
    if (d.name == word)
      return &d;
  return nullptr;
}

std::string SymbolIndex::hover(const std::string &line_text, uint32_t line, uint32_t col) const {
  if (const Definition *d = find(line_text, line, col))
    return d->hover;
  std::string word = word_at(line_text, col);
  if (const schedule::PrimitiveSpec *p = schedule::find_primitive(word))
    return "```\n" + schedule::primitive_signature(*p) + "\n```\nscheduling primitive (docs/scheduling.md)";
  if (const analysis::MemoryInfo *m = analysis::find_memory(word))
    return memory_text(*m);
  return "";
}

std::vector<const Definition *> SymbolIndex::locals_at(uint32_t line) const {
  std::vector<const Definition *> out;
  for (const Definition &d : locals_) {
    if (d.scope_first > line || line > d.scope_last || d.place.line > line)
      continue;
    auto same = std::find_if(out.begin(), out.end(),
                             [&](const Definition *o) { return o->name == d.name; });
    if (same == out.end())
      out.push_back(&d);
    else if (d.place.line >= (*same)->place.line)
      *same = &d;
  }
  return out;
}

std::string memory_description(const std::string &name) {
  const analysis::MemoryInfo *m = analysis::find_memory(name);
  return m ? memory_text(*m) : "";
}

} // namespace exgc::lsp
