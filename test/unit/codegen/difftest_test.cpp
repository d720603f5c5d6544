// difftest_test.cpp - the differential test program, compiled and run -----//
// A step that changes a result must make the generated program fail and name
// the step's line; a step that keeps the meaning must pass. Schedules cannot
// produce a wrong step (every primitive is checked), so the wrong one is
// built here in C++.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "compiler/codegen/difftest.h"

namespace exgc {
namespace {

SrcLoc at(uint32_t line) { return SrcLoc{1, line, 5}; }

/// fill(n, x): assert n % 4 == 0; for i in seq(0, n): x[i] = value + i.
std::shared_ptr<ProcNode> fill(const char *name, double value) {
  Sym n = Sym::fresh("n"), x = Sym::fresh("x"), i = Sym::fresh("i");
  auto p = std::make_shared<ProcNode>();
  p->name = name;
  p->args.push_back(Arg{n, Type::control(ValueType::Size, at(1)), at(1)});
  p->args.push_back(
      Arg{x, Type::data(ValueType::F32, {Var::make(n, ValueType::Size)}, Expr(), false, at(1)), at(1)});
  p->preds.push_back(BinOp::make(
      BinOpKind::Eq, BinOp::make(BinOpKind::Mod, Var::make(n, ValueType::Size), IntImm::make(4)),
      IntImm::make(0)));
  Stmt body = Assign::make(x, {Var::make(i, ValueType::Index)},
                           BinOp::make(BinOpKind::Add, FloatImm::make(value),
                                       Var::make(i, ValueType::Index)),
                           at(3));
  p->body.push_back(For::make(i, IntImm::make(0), Var::make(n, ValueType::Size), LoopMode{},
                              {body}, at(2)));
  return p;
}

std::string run(const std::string &cmd, int &rc) {
  std::string out;
  FILE *f = popen(cmd.c_str(), "r");
  if (!f) {
    rc = -1;
    return out;
  }
  char buf[512];
  while (fgets(buf, sizeof buf, f))
    out += buf;
  rc = pclose(f);
  return out;
}

TEST(Difftest, FailsAWrongStepAndPassesARightOne) {
  SourceManager sources;
  uint32_t file = sources.add("sched.exg", "\n\n\n\n\n\n\n\n\n\n");
  DiagEngine diag(sources);
  Program program;
  program.modules.push_back(std::make_unique<LoadedModule>());
  Proc f = fill("f", 1.0), same = fill("f2", 1.0), wrong = fill("f3", 2.0);
  std::vector<DiffCase> cases = {
      {"step 'good' of schedule 'g'", SrcLoc{file, 7, 9}, f, same},
      {"step 'bad' of schedule 'g'", SrcLoc{file, 9, 9}, f, wrong},
  };
  std::ostringstream os;
  ASSERT_TRUE(emit_difftest(program, cases, os, diag));
  std::string dir = ::testing::TempDir();
  std::string src = dir + "/exgc_difftest_test.cpp", bin = dir + "/exgc_difftest_test";
  std::ofstream(src) << os.str();
  int rc = 0;
  std::string log = run("c++ -std=c++17 -O1 -o " + bin + " " + src + " 2>&1", rc);
  ASSERT_EQ(rc, 0) << log;
  std::string out = run(bin, rc);
  EXPECT_NE(rc, 0) << out;
  EXPECT_NE(out.find("sched.exg:7: step 'good' of schedule 'g': ok"), std::string::npos) << out;
  EXPECT_NE(out.find("sched.exg:9: step 'bad' of schedule 'g': FAILED: element [0] of 'x' is 2, "
                     "its input computes 1 (n=4); 32 of 32 runs differ"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("1 passed, 1 failed"), std::string::npos) << out;
}

} // namespace
} // namespace exgc
