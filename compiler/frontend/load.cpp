// load.cpp - module search, loading, cycles and name scopes ----------------//
#include "compiler/frontend/load.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "compiler/frontend/build.h"
#include "compiler/support/byte_size.h"
#include "compiler/support/install_paths.h"

namespace exgc {

namespace fs = std::filesystem;

namespace {

std::string canonical(const std::string &path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(path), ec);
  return ec ? path : p.string();
}

bool is_file(const std::string &path) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(path), ec);
}

class Loader {
public:
  Loader(const LoadOptions &opts, SourceManager &sources, DiagEngine &diag)
      : opts_(opts), sources_(sources), diag_(diag) {
    dirs_ = opts.include_dirs;
    dirs_.push_back(opts.stdlib_dir.empty() ? default_stdlib_dir() : opts.stdlib_dir);
  }

  std::unique_ptr<Program> run(const std::string &path) {
    prog_ = std::make_unique<Program>();
    if (load(path, "", SrcLoc{}) < 0)
      return nullptr;
    for (size_t i = 0; i < prog_->modules.size(); ++i)
      fill_scope(i);
    for (size_t i = 0; i < prog_->modules.size(); ++i)
      check_proc_names(*prog_->modules[i]);
    if (failed_)
      return nullptr;
    return std::move(prog_);
  }

private:
  /// Loads, parses and builds one file, then its imports (depth first, so a
  /// cycle shows as a module still on the stack). Returns its index, or -1.
  int load(const std::string &path, const std::string &dotted, SrcLoc import_loc) {
    std::error_code ec;
    uint64_t size = fs::file_size(fs::path(path), ec);
    if (!ec && opts_.max_file_bytes && size > opts_.max_file_bytes) {
      char mib[32];
      std::snprintf(mib, sizeof mib, "%.1f MiB", static_cast<double>(size) / (1 << 20));
      diag_.report(import_loc, DiagKind::InputTooLarge, path, mib,
                   byte_size_string(opts_.max_file_bytes));
      failed_ = true;
      return -1;
    }
    std::string err;
    auto unsaved = opts_.unsaved.find(canonical(path));
    uint32_t file = unsaved != opts_.unsaved.end() ? sources_.add(path, unsaved->second)
                                                   : sources_.load(path, err);
    if (file == 0) {
      diag_.report(import_loc, DiagKind::FileUnreadable, err);
      failed_ = true;
      return -1;
    }
    std::optional<Module> m = parse_module(file, sources_, diag_);
    if (!m) {
      failed_ = true;
      return -1;
    }
    int index = static_cast<int>(prog_->modules.size());
    auto lm = std::make_unique<LoadedModule>();
    lm->module = std::move(*m);
    lm->dotted_name = dotted;
    prog_->modules.push_back(std::move(lm));
    by_path_[canonical(path)] = index;
    resolved_.emplace_back();
    stack_.push_back(index);
    // Iterate by index: loading an import appends to prog_->modules.
    const std::vector<Decl> &decls = prog_->modules[index]->module.decls;
    for (size_t d = 0; d < decls.size(); ++d)
      if (const auto *imp = std::get_if<ImportDecl>(&decls[d])) {
        int target = import(*imp); // may grow resolved_: index it afterwards
        resolved_[index].push_back({*imp, target});
      }
    stack_.pop_back();
    return index;
  }

  int import(const ImportDecl &imp) {
    std::string rel;
    for (size_t i = 0; i < imp.path.size(); ++i)
      rel += (i ? "/" : "") + imp.path[i];
    rel += ".exg";
    std::string found;
    for (const std::string &dir : dirs_) {
      std::string candidate = (fs::path(dir) / rel).string();
      if (is_file(candidate)) {
        found = candidate;
        break;
      }
    }
    if (found.empty()) {
      DiagBuilder d = diag_.report(imp.loc, DiagKind::ModuleNotFound, imp.dotted());
      for (const std::string &dir : dirs_)
        d.note(imp.loc, "looked for '" + (fs::path(dir) / rel).string() + "'");
      failed_ = true;
      return -1;
    }
    auto it = by_path_.find(canonical(found));
    if (it == by_path_.end())
      return load(found, imp.dotted(), imp.loc);
    for (size_t k = 0; k < stack_.size(); ++k) {
      if (stack_[k] != it->second)
        continue;
      // A cycle through thousands of modules shows its two ends only.
      constexpr size_t kShown = 4;
      const size_t n = stack_.size() - k;
      std::string chain;
      for (size_t j = k; j < stack_.size(); ++j) {
        if (n > 2 * kShown && j == k + kShown) {
          chain += "... (" + std::to_string(n - 2 * kShown) + " more) -> ";
          j = stack_.size() - kShown - 1;
          continue;
        }
        chain += display_name(stack_[j]) + " -> ";
      }
      chain += display_name(it->second);
      diag_.report(imp.loc, DiagKind::ImportCycle, chain);
      failed_ = true;
      return -1;
    }
    return it->second;
  }

  std::string display_name(int index) const {
    const LoadedModule &m = *prog_->modules[index];
    return m.dotted_name.empty() ? "'" + sources_.name(m.module.file) + "'"
                                 : "'" + m.dotted_name + "'";
  }

  static std::vector<Proc> own_procs(const Module &m) {
    std::vector<Proc> out;
    for (const Decl &d : m.decls)
      if (const Proc *p = std::get_if<Proc>(&d))
        out.push_back(*p);
    return out;
  }

  void fill_scope(size_t index) {
    LoadedModule &lm = *prog_->modules[index];
    for (const Proc &p : own_procs(lm.module))
      lm.scope[p->name] = p;
    std::set<std::string> own;
    for (const auto &[name, p] : lm.scope)
      own.insert(name);
    std::map<std::string, std::string> provider; // name -> the module that gave it
    for (const auto &[imp, target] : resolved_[index]) {
      if (target < 0)
        continue;
      const LoadedModule &from = *prog_->modules[target];
      for (const Proc &p : own_procs(from.module)) {
        if (!imp.alias.empty()) {
          lm.scope[imp.alias + "." + p->name] = p;
          continue;
        }
        if (own.count(p->name))
          continue;
        auto it = lm.scope.find(p->name);
        if (it == lm.scope.end()) {
          lm.scope[p->name] = p;
          provider[p->name] = from.dotted_name;
          continue;
        }
        if (it->second == p)
          continue; // the same module imported twice
        std::vector<std::string> &mods = lm.ambiguous[p->name];
        if (mods.empty())
          mods.push_back(provider[p->name]);
        if (std::find(mods.begin(), mods.end(), from.dotted_name) == mods.end())
          mods.push_back(from.dotted_name);
        it->second = nullptr;
      }
    }
  }

  /// `schedule X from P` and `check P(...)` must name something this module
  /// can see: a proc in scope or one of its schedules.
  void check_proc_names(const LoadedModule &lm) {
    std::set<std::string> schedules;
    for (const Decl &d : lm.module.decls)
      if (const auto *s = std::get_if<ScheduleDecl>(&d))
        schedules.insert(s->name);
    auto check = [&](const std::string &name, SrcLoc loc) {
      auto it = lm.scope.find(name);
      if ((it != lm.scope.end() && it->second) || schedules.count(name))
        return;
      failed_ = true;
      auto amb = lm.ambiguous.find(name);
      if (amb == lm.ambiguous.end()) {
        diag_.report(loc, DiagKind::UnknownProcName, name);
        return;
      }
      std::string mods;
      for (const std::string &m : amb->second)
        mods += (mods.empty() ? "'" : ", '") + m + "'";
      diag_.report(loc, DiagKind::AmbiguousCallee, name, mods);
    };
    for (const Decl &d : lm.module.decls) {
      if (const auto *s = std::get_if<ScheduleDecl>(&d))
        check(s->from, s->from_loc);
      else if (const auto *c = std::get_if<CheckDecl>(&d))
        check(c->proc, c->loc);
    }
  }

  const LoadOptions &opts_;
  SourceManager &sources_;
  DiagEngine &diag_;
  std::vector<std::string> dirs_;
  std::unique_ptr<Program> prog_;
  std::map<std::string, int> by_path_;
  std::vector<std::vector<std::pair<ImportDecl, int>>> resolved_; // per module
  std::vector<int> stack_;
  bool failed_ = false;
};

} // namespace

std::unique_ptr<Program> load_program(const std::string &path, const LoadOptions &opts,
                                      SourceManager &sources, DiagEngine &diag) {
  return Loader(opts, sources, diag).run(path);
}

} // namespace exgc
