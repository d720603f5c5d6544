// loop_replay_test.cpp - which loops repeat, and skipping them exactly ----//
#include "compiler/sync/fast_engine.h"
#include "compiler/sync/interpreter.h"
#include "compiler/sync/loop_replay.h"
#include "compiler/sync/oracle_engine.h"
#include "compiler/sync/text_format.h"

#include <gtest/gtest.h>

namespace exgc::sync {
namespace {

Program parse(const std::string &text) {
  Program p;
  std::vector<ParseError> errs;
  EXPECT_TRUE(parse_program(text, "t.sync", p, errs)) << (errs.empty() ? "" : errs[0].message);
  return p;
}

// The first seq loop named `k`.
const Stmt *loop_k(const Block &b) {
  for (const StmtP &s : b) {
    if (s->kind == StmtKind::Seq && s->name == "k")
      return s.get();
    if (const Stmt *in = loop_k(s->body))
      return in;
  }
  return nullptr;
}

LoopShape shape_of(const std::string &body) {
  Program p = parse("data C[16, 4]\nbarrier bar[8] mbarrier\ndevice [1, 8] {\n  data acc[8]\n"
                    "  seq k in 0..8 {\n" +
                    body + "  }\n  free acc\n}\n");
  return analyze_loop(*loop_k(p.body));
}

TEST(LoopReplay, AStagedKLoopIsPeriodic) {
  LoopShape s = shape_of("    data st[8]\n    let half = 4\n"
                         "    threads i in 0..8 dim=1 width=1 {\n"
                         "      write st[i] q=cuda2 conv\n    }\n"
                         "    fence cuda_in_order -> cuda_in_order\n"
                         "    threads i in 0..8 dim=1 width=1 {\n"
                         "      seq a in 0..half {\n        read st[(i + a) % 8] q=cuda2 conv\n"
                         "        update acc[i] q=cuda1 conv\n      }\n    }\n"
                         "    free st\n");
  EXPECT_TRUE(s.periodic) << s.why_not;
}

TEST(LoopReplay, WhatStopsLoopReplay) {
  const std::pair<const char *, const char *> cases[] = {
      {"    write C[k, 0] q=cuda2 conv\n", "index into 'C'"},
      {"    let r = k % 4\n    write C[r, 0] q=cuda2 conv\n", "'r' differs"},
      // A let read before the body binds it holds the previous iteration's.
      {"    write C[r, 0] q=cuda2 conv\n    let r = 1\n", "index into 'C'"},
      {"    if k > 0 {\n      fence cuda_in_order -> cuda_in_order\n    }\n", "condition"},
      {"    seq a in 0..k {\n      fence cuda_in_order -> cuda_in_order\n    }\n",
       "bounds of loop"},
      {"    arrive cuda_in_order >> bar[0]\n", "barrier operation"},
      {"    write C[0, 0] q=cuda2 conv >> bar[0]\n", "trailing barrier"},
      {"    data st[8]\n", "not freed"},
      {"    free acc\n", "frees outside"},
  };
  for (const auto &[body, why] : cases) {
    LoopShape s = shape_of(body);
    EXPECT_FALSE(s.periodic) << body;
    EXPECT_NE(s.why_not.find(why), std::string::npos) << body << " -> " << s.why_not;
  }
}

struct Outcome {
  bool ok;
  Hazard hazard;
  RunStats stats;
};

Outcome run(const Program &p, Machine &m) {
  Outcome r;
  r.ok = run_program(p, m, r.hazard, &r.stats);
  return r;
}

// gemm_sm80's shape: a stage per iteration, registers across them. The
// second iteration repeats the first, so the other six are skipped; the
// counts are a full run's, and a hazard after the loop names the access of
// the last iteration, as the oracle (which runs them all) does.
std::string staged(bool racy_after) {
  std::string t = "device [1, 8] {\n  data acc[8]\n  seq k in 0..8 {\n    data st[8]\n"
                  "    threads i in 0..8 dim=1 width=1 {\n      write st[i] q=cuda2 conv\n    }\n"
                  "    fence cuda_in_order -> cuda_in_order\n"
                  "    threads i in 0..8 dim=1 width=1 {\n"
                  "      read st[(i + 1) % 8] q=cuda2 conv\n      update acc[i] q=cuda1 conv\n"
                  "    }\n    fence cuda_in_order -> cuda_in_order\n"
                  "    free st check={cuda2}\n  }\n";
  // Racy: thread 0 reads thread 7's register, unordered since its update.
  t += racy_after ? "  threads i in 0..8 dim=1 width=1 {\n    update acc[i] q=cuda1 conv\n  }\n"
                    "  threads i in 0..1 dim=1 width=1 {\n    read acc[7] q=cuda1 conv\n  }\n"
                  : "";
  return t + "  free acc\n}\n";
}

TEST(LoopReplay, SkipsRepeatedIterationsLikeAFullRun) {
  for (bool racy : {false, true}) {
    FastEngine fast;
    OracleEngine oracle;
    const Program p = parse(staged(racy));
    Outcome f = run(p, fast), o = run(p, oracle);
    EXPECT_EQ(f.ok, !racy);
    EXPECT_EQ(o.ok, !racy);
    EXPECT_EQ(f.stats.replayed_iterations, 6u);
    EXPECT_EQ(o.stats.replayed_iterations, 0u);
    if (racy)
      EXPECT_TRUE(f.hazard.same_as(o.hazard)) << f.hazard.summary() << "\n" << o.hazard.summary();
    else
      EXPECT_EQ(f.stats.events, o.stats.events);
  }
}

// A record made before the loop keeps gaining visibility for three
// iterations (a fence by threads 4..7 needs what the join spreads, the join
// what a fence by threads 0..3 adds), while the loop's own tensor repeats
// from the second: the loop must not be skipped while an older record still
// changes, or thread 5 would lack the wgS visibility that the third
// iteration gives it (a false read-after-write).
TEST(LoopReplay, WaitsUntilOlderRecordsStopChanging) {
  const std::string text =
      "data g[1, 4]\ndevice [1, 8] {\n"
      "  threads i in 0..1 dim=1 width=1 {\n    write g[0, 0] q=cuda2 conv\n  }\n"
      "  data acc[8]\n  seq k in 0..8 {\n"
      "    threads i in 0..1 dim=1 width=4 offset=4 {\n      fence {tmaS} -> {wgS}\n    }\n"
      "    join\n"
      "    threads i in 0..1 dim=1 width=4 {\n      fence {cuda2} -> {tmaS}\n    }\n"
      "    threads i in 0..8 dim=1 width=1 {\n      update acc[i] q=cuda1 conv\n    }\n"
      "  }\n"
      "  threads i in 0..1 dim=1 width=1 offset=5 {\n    read g[0, 0] q=wgS ext={wgS} conv\n  }\n"
      "  free acc\n}\n";
  FastEngine fast;
  OracleEngine oracle;
  const Program p = parse(text);
  Outcome f = run(p, fast), o = run(p, oracle);
  EXPECT_TRUE(o.ok) << o.hazard.summary();
  EXPECT_TRUE(f.ok) << f.hazard.summary();
  // Iterations 0, 1 and 2 change g's record, 3 does not, 4 repeats 3, and
  // 5..7 are skipped.
  EXPECT_EQ(f.stats.replayed_iterations, 3u);
}

TEST(LoopReplay, OffRunsEveryIteration) {
  FastEngine fast;
  Program p = parse(staged(false));
  Hazard h;
  RunStats stats;
  RunOptions opts;
  opts.replay_loops = false;
  EXPECT_TRUE(run_program(p, fast, h, &stats, opts));
  EXPECT_EQ(stats.replayed_iterations, 0u);
}

} // namespace
} // namespace exgc::sync
