// The stages every user of the compiler shares, in one order, each once: the
// driver, the fuzz targets and the schedule tests compile through them.
#include "compiler/pipeline/compilation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace exgc {
namespace {

struct Compiled {
  SourceManager sm;
  DiagEngine diag{sm};
  Compilation comp{sm, diag};
  std::vector<std::string> stages;
  bool scheduled = false;
};

/// Loads, typechecks and schedules the module `text`, each stage's end noted.
std::unique_ptr<Compiled> compile(const std::string &text) {
  auto c = std::make_unique<Compiled>();
  c->comp.on_stage_end = [&s = c->stages](const char *stage) { s.push_back(stage); };
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("exgc_compilation_test_" + test + ".exg");
  std::ofstream(file) << text;
  bool ok = c->comp.load(file.string(), LoadOptions{}) && c->comp.typecheck();
  std::filesystem::remove(file);
  if (ok)
    c->scheduled = c->comp.run_schedules({});
  return c;
}

bool reported(const DiagEngine &diag, DiagKind kind) {
  for (const Diagnostic &d : diag.diagnostics())
    if (d.kind == kind)
      return true;
  return false;
}

TEST(Compilation, ScheduleResultsBecomeProcsOfTheMainModule) {
  auto c = compile("proc f(n: size, x: f32[n]):\n"
                   "    for i in seq(0, n):\n"
                   "        x[i] = 0.0\n"
                   "schedule g from f:\n"
                   "    p = divide_loop(p, \"i\", 4, [\"io\", \"ii\"], tail=\"guard\")\n");
  ASSERT_TRUE(c->scheduled) << c->diag.diagnostics().size();
  EXPECT_EQ(c->stages, (std::vector<std::string>{"load", "typecheck", "schedules",
                                                 "re-check of results"}));
  Proc g = c->comp.program()->main().find_proc("g");
  ASSERT_TRUE(g);
  EXPECT_EQ(g.get(), c->comp.interpreter()->result("g").get());
}

// An unsafe step is warned about, and its result is typechecked whole: the
// bounds check the removed guard made true fails at the re-check, which the
// schedule harness and the fuzz targets once skipped.
TEST(Compilation, ResultsAreRecheckedWhole) {
  auto c = compile("proc f(n: size, x: f32[n]):\n"
                   "    for i in seq(0, 8):\n"
                   "        if i < n:\n"
                   "            x[i] = 0.0\n"
                   "schedule g from f:\n"
                   "    p = unsafe_remove_if(p, \"if _: _\")\n");
  EXPECT_FALSE(c->scheduled);
  EXPECT_TRUE(reported(c->diag, DiagKind::UnsafeStepsApplied));
  EXPECT_TRUE(reported(c->diag, DiagKind::OutOfBounds));
  EXPECT_EQ(c->stages.back(), "re-check of results");
  EXPECT_FALSE(c->comp.program()->main().find_proc("g")) << "a refused result is not a proc";
}

TEST(Compilation, ALoadErrorStopsBeforeTheTypecheck) {
  auto c = compile("proc f(:\n");
  EXPECT_EQ(c->stages, std::vector<std::string>{"load"});
  EXPECT_TRUE(c->diag.has_errors());
  EXPECT_FALSE(c->comp.interpreter());
}

TEST(Compilation, TheGpuStageIsMadeOnceAndRunsEachProcOnce) {
  auto c = compile("proc f(n: size, x: f32[n]):\n"
                   "    for i in seq(0, n):\n"
                   "        x[i] = 0.0\n");
  ASSERT_TRUE(c->scheduled);
  EXPECT_FALSE(c->comp.gpu_stage_runs()) << "not made until asked for";
  Proc f = c->comp.program()->main().find_proc("f");
  const gpu::GpuStage::Result *first = c->comp.gpu_stage().run(f);
  const gpu::GpuStage::Result *again = c->comp.gpu_stage().run(f);
  ASSERT_TRUE(first);
  EXPECT_EQ(first, again);
  EXPECT_EQ(c->comp.gpu_stage_runs(), std::optional<size_t>(1));
}

TEST(Compilation, AReleasedProgramOutlivesTheCompilation) {
  std::unique_ptr<Program> prog;
  {
    auto c = compile("proc f(n: size, x: f32[n]):\n"
                     "    for i in seq(0, n):\n"
                     "        x[i] = 0.0\n"
                     "schedule g from f:\n"
                     "    p = divide_loop(p, \"i\", 4, [\"io\", \"ii\"], tail=\"guard\")\n");
    ASSERT_TRUE(c->scheduled);
    prog = c->comp.release_program();
    EXPECT_FALSE(c->comp.program());
  }
  ASSERT_TRUE(prog);
  EXPECT_TRUE(prog->main().find_proc("g"));
}

} // namespace
} // namespace exgc
