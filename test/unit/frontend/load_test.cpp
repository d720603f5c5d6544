// load_test.cpp - module search, load-once, cycles and name scopes ---------//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compiler/frontend/load.h"

using namespace exgc;
namespace fs = std::filesystem;

namespace {

/// A scratch directory of .exg files, removed at the end of the test.
class Tree {
public:
  Tree() {
    root_ = fs::temp_directory_path() /
            ("exgc_load_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~Tree() { fs::remove_all(root_); }
  std::string add(const std::string &rel, const std::string &text) {
    fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string dir(const std::string &rel) const { return (root_ / rel).string(); }

private:
  fs::path root_;
};

std::string proc(const std::string &name) {
  return "proc " + name + "(n: size):\n    pass\n";
}

struct Loaded {
  SourceManager sm;
  DiagEngine diag{sm};
  std::unique_ptr<Program> prog;
  std::string messages() const {
    std::string s;
    for (const Diagnostic &d : diag.diagnostics())
      s += d.message + "\n";
    return s;
  }
};

std::unique_ptr<Loaded> load(const std::string &path, const LoadOptions &opts) {
  auto l = std::make_unique<Loaded>();
  l->prog = load_program(path, opts, l->sm, l->diag);
  return l;
}

} // namespace

TEST(Load, SearchesIncludeDirsBeforeTheStdlibAndLoadsEachModuleOnce) {
  Tree t;
  t.add("inc/m/shared.exg", proc("from_inc"));
  t.add("std/m/shared.exg", proc("from_std"));
  t.add("std/m/a.exg", "import m.shared\n" + proc("a_proc"));
  t.add("std/m/b.exg", "import m.shared\n" + proc("b_proc"));
  std::string main = t.add("main.exg", "import m.a\nimport m.b\nimport m.shared\n" + proc("f"));
  LoadOptions opts;
  opts.include_dirs = {t.dir("inc")};
  opts.stdlib_dir = t.dir("std");
  auto l = load(main, opts);
  ASSERT_TRUE(l->prog) << l->messages();
  // main, m.a, m.shared (once, from inc), m.b.
  ASSERT_EQ(l->prog->modules.size(), 4u);
  EXPECT_EQ(l->prog->modules[1]->dotted_name, "m.a");
  EXPECT_EQ(l->prog->modules[2]->dotted_name, "m.shared");
  EXPECT_EQ(l->prog->modules[3]->dotted_name, "m.b");
  const LoadedModule &m = l->prog->main_loaded();
  EXPECT_TRUE(m.scope.count("from_inc"));
  EXPECT_FALSE(m.scope.count("from_std"));
  // Public names are a module's own: m.a's import of m.shared is not re-exported...
  EXPECT_TRUE(l->prog->modules[1]->scope.count("from_inc"));
  // ...and the diamond import is not ambiguous.
  EXPECT_TRUE(m.ambiguous.empty());
}

TEST(Load, OwnNamesShadowImportsAliasesQualifyConflictsAreAmbiguous) {
  Tree t;
  t.add("std/one.exg", proc("zero") + proc("only_one") + proc("mine"));
  t.add("std/two.exg", proc("zero") + proc("only_two"));
  std::string main =
      t.add("main.exg", "import one\nimport two\nimport two as t2\n" + proc("mine"));
  LoadOptions opts;
  opts.stdlib_dir = t.dir("std");
  auto l = load(main, opts);
  ASSERT_TRUE(l->prog) << l->messages();
  const Program &p = *l->prog;
  const LoadedModule &m = *p.modules[0];
  Proc own = p.main().find_proc("mine");
  ASSERT_TRUE(own);
  EXPECT_EQ(p.lookup(m, "mine"), own);
  EXPECT_EQ(p.lookup_from(own.get(), "mine"), own);
  EXPECT_EQ(p.lookup(m, "only_one"), p.modules[1]->module.find_proc("only_one"));
  EXPECT_EQ(p.lookup(m, "t2.zero"), p.modules[2]->module.find_proc("zero"));
  EXPECT_EQ(p.lookup(m, "zero"), nullptr);
  ASSERT_TRUE(m.ambiguous.count("zero"));
  EXPECT_EQ(m.ambiguous.at("zero"), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(p.lookup(m, "nothing"), nullptr);
  // Names resolve in the scope of the module that declares the caller.
  Proc only_two = p.modules[2]->module.find_proc("only_two");
  EXPECT_EQ(p.owner(only_two.get()), p.modules[2].get());
  EXPECT_EQ(p.lookup_from(only_two.get(), "mine"), nullptr);
  EXPECT_EQ(p.lookup_from(only_two.get(), "zero"), p.modules[2]->module.find_proc("zero"));
}

TEST(Load, MissingModulesCyclesAndUnreadableFiles) {
  Tree t;
  t.add("std/c/a.exg", "import c.b\n" + proc("a"));
  t.add("std/c/b.exg", "import c.a\n" + proc("b"));
  std::string main = t.add("main.exg", "import c.a\nimport nope\n" + proc("f"));
  LoadOptions opts;
  opts.include_dirs = {t.dir("inc")};
  opts.stdlib_dir = t.dir("std");
  auto l = load(main, opts);
  EXPECT_FALSE(l->prog);
  EXPECT_EQ(l->messages(), "import cycle: 'c.a' -> 'c.b' -> 'c.a'\ncannot find module 'nope'\n");
  ASSERT_EQ(l->diag.diagnostics()[1].notes.size(), 2u);
  EXPECT_EQ(l->diag.diagnostics()[1].notes[0].message,
            "looked for '" + t.dir("inc") + "/nope.exg'");

  auto missing = load(t.dir("no_such_file.exg"), opts);
  EXPECT_FALSE(missing->prog);
  EXPECT_EQ(missing->diag.diagnostics()[0].kind, DiagKind::FileUnreadable);
}

TEST(Load, ErrorsInAnImportedModuleFailTheLoad) {
  Tree t;
  t.add("std/bad.exg", "proc f(n: size):\n    for i in seq(0, n)\n        pass\n");
  std::string main = t.add("main.exg", "import bad\n" + proc("g"));
  LoadOptions opts;
  opts.stdlib_dir = t.dir("std");
  auto l = load(main, opts);
  EXPECT_FALSE(l->prog);
  ASSERT_EQ(l->diag.diagnostics().size(), 1u);
  EXPECT_EQ(l->diag.diagnostics()[0].loc.line, 2u);
  EXPECT_EQ(l->sm.name(l->diag.diagnostics()[0].loc.file), t.dir("std/bad.exg"));
}

TEST(Load, TheSourceStdlibParsesAndBuilds) {
  std::string main;
  Tree t;
  main = t.add("main.exg", "import cuda\nimport cuda.sm90a\n" + proc("f"));
  auto l = load(main, LoadOptions{});
  ASSERT_TRUE(l->prog) << l->messages();
  const LoadedModule &m = l->prog->main_loaded();
  EXPECT_TRUE(m.scope.count("shfl_xor_sum_f32"));
  EXPECT_TRUE(m.scope.count("wgmma_tf32_m64nNk8"));
  EXPECT_TRUE(m.scope.count("tma_load_2d_sw128"));
}
