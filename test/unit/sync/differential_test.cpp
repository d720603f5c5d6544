// differential_test.cpp - fast engine vs element-by-element oracle ---------//
//
// Generates 10,000+ random programs (racy ones included) and requires the
// region-based fast engine and the plain oracle to reach the same verdict
// with the same first hazard: kind, statement, element, prior access, the
// prior record's thread and the threads that lacked visibility. The corpus
// must also be varied enough to mean something: some programs pass, several
// hazard kinds occur, and the fast engine's task replay happens in many
// (the oracle never replays, so replay is checked against full runs).
#include "compiler/sync/fast_engine.h"
#include "compiler/sync/interpreter.h"
#include "compiler/sync/oracle_engine.h"
#include "compiler/sync/text_format.h"
#include "random_array_program.h"
#include "random_loop_program.h"
#include "random_program.h"
#include "random_scalar_program.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>

namespace exgc::sync {
namespace {

struct Verdict {
  bool ok;
  Hazard hazard;
  RunStats stats;
};

Verdict run_with(const Program &p, Machine &m) {
  Verdict v;
  v.ok = run_program(p, m, v.hazard, &v.stats);
  return v;
}

// How many programs a random test runs: `dflt`, or EXGC_SYNC_DIFF_SCALE
// times as many (a longer hunt: EXGC_SYNC_DIFF_SCALE=20 exgc_sync_tests).
int programs(int dflt) {
  const char *scale = std::getenv("EXGC_SYNC_DIFF_SCALE");
  return scale ? dflt * std::max(1, std::atoi(scale)) : dflt;
}

// What a corpus of generated programs exercised.
struct Corpus {
  int programs = 0, passed = 0, replayed = 0, replayed_failed = 0;
  int skipped = 0, skipped_failed = 0; // programs where loop iterations were skipped
  int merged = 0, merged_failed = 0;   // where replays put back merged regions
  std::map<HazardKind, int> kinds;
  void print() const {
    for (auto &[k, n] : kinds)
      std::printf("  %-20s %d\n", hazard_kind_tag(k), n);
    std::printf("  %-20s %d\n", "passed", passed);
    std::printf("  %-20s %d (%d with a hazard)\n", "replayed tasks in", replayed, replayed_failed);
    std::printf("  %-20s %d (%d with a hazard)\n", "skipped loops in", skipped, skipped_failed);
    std::printf("  %-20s %d (%d with a hazard)\n", "merged regions in", merged, merged_failed);
  }
};

// Runs one generated program on both engines: the same verdict, the same
// first hazard, and (when it passes) the same event and element counts.
void compare_engines(const std::string &text, int seed, Corpus &corpus) {
  Program prog;
  std::vector<ParseError> errs;
  ASSERT_TRUE(parse_program(text, "random.sync", prog, errs))
      << "seed " << seed << ": " << errs[0].loc.str() << ": " << errs[0].message << "\n"
      << text;
  FastEngine fast;
  OracleEngine oracle;
  Verdict f = run_with(prog, fast);
  Verdict o = run_with(prog, oracle);
  ASSERT_EQ(f.ok, o.ok) << "seed " << seed << "\nfast:   " << (f.ok ? "ok" : f.hazard.summary())
                        << "\noracle: " << (o.ok ? "ok" : o.hazard.summary()) << "\n"
                        << text;
  // A replayed task counts its events as if it had run.
  if (f.stats.replayed_tasks) {
    ++corpus.replayed;
    corpus.replayed_failed += !f.ok;
  }
  // A replay may merge a tile's regions (their origins deferred).
  if (fast.stats().merged_regions) {
    ++corpus.merged;
    corpus.merged_failed += !f.ok;
  }
  // So does a skipped loop iteration (compiler/sync/loop_replay.h).
  if (f.stats.replayed_iterations) {
    ++corpus.skipped;
    corpus.skipped_failed += !f.ok;
  }
  if (f.ok) {
    ASSERT_EQ(f.stats.events, o.stats.events) << "seed " << seed << "\n" << text;
    ASSERT_EQ(f.stats.elements, o.stats.elements) << "seed " << seed << "\n" << text;
    ++corpus.passed;
    return;
  }
  ASSERT_TRUE(f.hazard.same_as(o.hazard))
      << "seed " << seed << "\nfast:   " << f.hazard.summary() << "\noracle: " << o.hazard.summary()
      << "\n"
      << text;
  ++corpus.kinds[f.hazard.kind];
}

// A focused generator's corpus means something: one program in 20 passes,
// several hazard kinds occur, and some tasks are replayed.
void expect_varied(const Corpus &corpus) {
  EXPECT_GT(corpus.passed, corpus.programs / 20);
  EXPECT_GE(corpus.kinds.size(), 3u);
  EXPECT_GT(corpus.replayed, 0);
  corpus.print();
}

// Runs the first `n` programs of generator Gen (seeds 1..n) on both engines.
template <typename Gen> Corpus run_corpus(int n) {
  Corpus corpus;
  corpus.programs = n;
  for (int seed = 1; seed <= n && !::testing::Test::HasFatalFailure(); ++seed)
    compare_engines(Gen(static_cast<uint32_t>(seed)).generate(), seed, corpus);
  return corpus;
}

TEST(SyncDifferential, FastEngineAgreesWithOracleOnRandomPrograms) {
  const int kPrograms = programs(12000);
  const Corpus corpus = run_corpus<testing::RandomProgram>(kPrograms);
  // The corpus exercises both verdicts and many kinds of hazard.
  EXPECT_GT(corpus.passed, kPrograms / 40);
  EXPECT_GE(corpus.kinds.size(), 7u);
  // Task replay is exercised, also where a hazard comes after replayed tasks.
  EXPECT_GT(corpus.replayed, kPrograms / 40);
  EXPECT_GT(corpus.replayed_failed, 0);
  corpus.print();
}

// Per-thread scalar programs (random_scalar_program.h): the fast engine's
// per-element paths (entries per record, in-place assignment records, the
// exact box index, shared fresh contents) against the oracle.
TEST(SyncDifferential, ScalarProgramsAgreeWithOracle) {
  expect_varied(run_corpus<testing::RandomScalarProgram>(programs(3000)));
}

// K-loops (random_loop_program.h): the fast engine skips the iterations of a
// loop once they repeat (compiler/sync/loop_replay.h); the verdicts, the
// event counts and the first hazard -- inside the loop, and after it against
// an entry whose event the skip moved -- must be the oracle's, which runs
// every iteration.
TEST(SyncDifferential, LoopProgramsAgreeWithOracle) {
  const int kPrograms = programs(3000);
  const Corpus corpus = run_corpus<testing::RandomLoopProgram>(kPrograms);
  expect_varied(corpus);
  EXPECT_GT(corpus.skipped, kPrograms / 5);
  EXPECT_GT(corpus.skipped_failed, kPrograms / 100);
}

// Loops over long barrier arrays (random_array_program.h): records that an
// Arrive's collective saw in full take later Arrives' elements implicitly
// (compiler/sync/arrive_streams.h); their Awaits, counts and frees against
// the oracle's explicit entries.
TEST(SyncDifferential, BarrierArrayProgramsAgreeWithOracle) {
  expect_varied(run_corpus<testing::RandomArrayProgram>(programs(500)));
}

// Many small tasks (GEMV-shaped, bench/sync/gen_sync_scaling.py): replay
// decides per task from the largest thread a live record reaches
// (FastEngine::reaches), which must agree with a full run as the live
// records pile up, with or without a hazard after the last task.
std::string many_tasks(int tasks, bool racy) {
  std::string t = "data A[" + std::to_string(4 * tasks) + ", 16]\ndata y[" +
                  std::to_string(4 * tasks) + "]\ndevice [1, 32] {\n  tasks t in 0.." +
                  std::to_string(tasks) + " {\n";
  t += "    data a_smem[4, 16]\n    barrier full[1] mbarrier\n"
       "    threads p in 0..1 dim=1 width=32 {\n"
       "      read A[4 * t:4 * t + 4, :] q=tmaS ext={tmaS,async} @ g.exg:1:1\n"
       "      write a_smem[:, :] q=tmaS ext={tmaS,async} ooo >> full[0] @ g.exg:1:1\n"
       "      arrive cuda_temporal >> full[0] @ g.exg:1:1\n    }\n"
       "    await full[0] -> cuda_generic_and_async_proxy 0 @ g.exg:2:1\n"
       "    threads r in 0..4 dim=1 width=8 {\n"
       "      read a_smem[r, :] q=cuda1 @ g.exg:3:1\n"
       "      write y[4 * t + r] q=cuda1 @ g.exg:4:1\n    }\n"
       "    fence cuda_in_order -> cuda_in_order @ g.exg:5:1\n"
       "    free full\n    free a_smem check={cuda1} @ g.exg:6:1\n  }\n";
  // Racy: the first threads read every row with no sync after the tasks.
  if (racy)
    t += "  threads p in 0..1 dim=1 width=8 {\n    read y[:] q=cuda1 @ g.exg:7:1\n  }\n";
  return t + "}\njoin\nfence cuda_stream_sync -> cuda_stream_sync\n";
}

// Runs `text` on both engines; both must pass (or both fail, with the same
// hazard, when `racy`). Returns the fast engine's run counters.
RunStats expect_agree(const std::string &text, bool racy) {
  Program prog;
  std::vector<ParseError> errs;
  EXPECT_TRUE(parse_program(text, "generated.sync", prog, errs));
  FastEngine fast;
  OracleEngine oracle;
  Verdict f = run_with(prog, fast);
  Verdict o = run_with(prog, oracle);
  EXPECT_EQ(f.ok, !racy);
  EXPECT_EQ(o.ok, !racy);
  if (racy)
    EXPECT_TRUE(f.hazard.same_as(o.hazard)) << f.hazard.summary() << "\n" << o.hazard.summary();
  else
    EXPECT_EQ(f.stats.events, o.stats.events);
  return f.stats;
}

TEST(SyncDifferential, ManyTasksReplayAgreesWithOracle) {
  const int tasks = 100;
  for (bool racy : {false, true})
    EXPECT_EQ(expect_agree(many_tasks(tasks, racy), racy).replayed_tasks, uint64_t(tasks - 1));
}

// Output tiles written element by element (gemm_sm80's epilogue): after
// each task's join its tile's records are alike, so a replay puts the tile
// back as one region whose origins are deferred (fast_replay.cpp). A read
// of one element after the tasks, unordered, must name the access of that
// element's thread and event, as the oracle does, for any element.
std::string tiled_output(int tasks, int row, int col, bool update, bool racy) {
  std::string t = "data C[" + std::to_string(4 * tasks) + ", 8]\ndevice [1, 32] {\n" +
                  "  tasks t in 0.." + std::to_string(tasks) + " {\n" +
                  "    threads i in 0..32 dim=1 width=1 {\n      " +
                  (update ? "update" : "write") +
                  " C[4 * t + i / 8, i % 8] q=cuda2 conv @ o.exg:1:1\n    }\n  }\n";
  if (racy)
    t += "  threads p in 0..1 dim=1 width=1 offset=" + std::to_string((row + col) % 32) +
         " {\n    write C[" + std::to_string(row) + ", " + std::to_string(col) +
         "] q=cuda2 conv @ o.exg:3:1\n  }\n";
  return t + "}\njoin\nfence cuda_stream_sync -> cuda_stream_sync\n";
}

TEST(SyncDifferential, MergedReplayedTilesNameTheRightAccess) {
  std::mt19937 rng(5);
  int merged = 0;
  for (int n = 0; n < 200; ++n) {
    const int tasks = 2 + static_cast<int>(rng() % 5);
    const int row = static_cast<int>(rng() % (4 * tasks)), col = static_cast<int>(rng() % 8);
    const bool update = rng() % 2, racy = rng() % 4 != 0;
    const std::string text = tiled_output(tasks, row, col, update, racy);
    Program prog;
    std::vector<ParseError> errs;
    ASSERT_TRUE(parse_program(text, "tiles.sync", prog, errs)) << text;
    FastEngine fast;
    OracleEngine oracle;
    Verdict f = run_with(prog, fast), o = run_with(prog, oracle);
    ASSERT_EQ(f.ok, !racy) << text;
    ASSERT_EQ(o.ok, !racy) << text;
    if (racy)
      ASSERT_TRUE(f.hazard.same_as(o.hazard))
          << "fast:   " << f.hazard.summary() << "\noracle: " << o.hazard.summary() << "\n"
          << text;
    merged += fast.stats().merged_regions > 0;
  }
  EXPECT_GT(merged, 150);
}

// Long mbarrier and commit-group arrays (bench/sync/gen_sync_scaling.py):
// every record collects pending entries for many elements, and freeing the
// arrays drops them all at once (FastEngine::barriers_freed). Racy: one
// element is read without its await.
std::string long_barrier_arrays(int n, bool racy) {
  const std::string ns = std::to_string(n);
  std::string t = "device [1, 64] {\n  data buf[" + ns + ", 8]\n  data acc[8]\n  barrier raw[" +
                  ns + "] mbarrier\n  barrier cg[" + ns + "] commit_group\n";
  t += "  threads c in 0..1 dim=1 width=32 offset=32 {\n"
       "    write acc[:] q=cuda1 conv @ b.exg:1:1\n  }\n  seq k in 0.." + ns + " {\n"
       "    threads p in 0..1 dim=1 width=32 {\n"
       "      write buf[k, :] q=tmaS ext={tmaS,async} ooo >> raw[k] @ b.exg:2:1\n"
       "      arrive cuda_temporal >> raw[k] @ b.exg:2:1\n    }\n"
       "    threads c in 0..1 dim=1 width=32 offset=32 {\n";
  t += racy ? "      if k != " + std::to_string(n / 2) + " {\n" : "      if k >= 0 {\n";
  t += "        await raw[k] -> cuda_generic_and_async_proxy 0 @ b.exg:3:1\n      }\n"
       "      fence wgmma_fence_1 -> wgmma_fence_2 @ b.exg:4:1\n"
       "      update acc[:] q=wgD ext={wgD,wg0} conv @ b.exg:5:1\n"
       "      read buf[k, :] q=wgS ext={wgS,async} ooo @ b.exg:5:1\n"
       "      arrive wgmma_async >> cg[k] @ b.exg:6:1\n"
       "      if k >= 1 {\n        await cg[k - 1] -> cuda_in_order 0 @ b.exg:7:1\n      }\n"
       "    }\n  }\n  threads c in 0..1 dim=1 width=32 offset=32 {\n"
       "    await cg[" + ns + " - 1] -> cuda_in_order 0 @ b.exg:8:1\n"
       "    read acc[:] q=cuda1 conv @ b.exg:9:1\n  }\n"
       "  fence cuda_in_order -> cuda_in_order @ b.exg:10:1\n  free raw\n  free cg\n"
       "  free buf check={cuda1} @ b.exg:11:1\n  free acc\n}\njoin\n"
       "fence cuda_stream_sync -> cuda_stream_sync\n";
  return t;
}

TEST(SyncDifferential, LongBarrierArraysAgreeWithOracle) {
  for (bool racy : {false, true})
    expect_agree(long_barrier_arrays(64, racy), racy);
}

// The fast engine's work per element of a long array must not grow with the
// array (arrive streams and change-log scans); a quadratic engine fails this.
TEST(SyncDifferential, LongBarrierArraysCostTheSamePerElement) {
  auto run = [](int n) {
    Program prog;
    std::vector<ParseError> errs;
    EXPECT_TRUE(parse_program(long_barrier_arrays(n, false), "arrays.sync", prog, errs));
    FastEngine fast;
    EXPECT_TRUE(run_with(prog, fast).ok);
    return fast.stats();
  };
  const FastEngineStats small = run(200), large = run(1600);
  // 8x the elements: scan visits, waiter and subscriber visits grow 8x, not 64x.
  EXPECT_LT(large.visited, 10 * small.visited);
  EXPECT_LT(large.waiters_visited + large.subscribers_visited,
            10 * (small.waiters_visited + small.subscribers_visited));
  // The records the Arrives saw in full are ordered through their streams.
  EXPECT_GT(large.subscribers_visited, 1600u);
}

} // namespace
} // namespace exgc::sync
