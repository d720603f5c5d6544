// interpreter_test.cpp - program errors, thread boxes and the checker API --//
#include "compiler/sync/check.h"
#include "compiler/sync/text_format.h"

#include <gtest/gtest.h>

namespace exgc::sync {
namespace {

CheckResult check_text(const std::string &text, EngineKind engine = EngineKind::Fast) {
  Program p;
  std::vector<ParseError> errs;
  EXPECT_TRUE(parse_program(text, "t.sync", p, errs)) << (errs.empty() ? "" : errs[0].message);
  CheckOptions o;
  o.engine = engine;
  CheckResult r = check_program(p, o);
  // Statement pointers die with `p`; the tests below only look at words.
  r.hazard.stmt = nullptr;
  r.hazard.prior.stmt = nullptr;
  return r;
}

struct ErrorCase {
  const char *text;
  const char *message;
};

// Whatever the program says, the checker answers with a located error,
// never a crash: each of these is a program the lowering should not emit.
TEST(SyncInterpreter, ProgramErrorsAreReported) {
  const ErrorCase cases[] = {
      {"data x[n]\n", "'n' is not defined"},
      {"let a = 4 / (2 - 2)\n", "division by zero in '4 / (2 - 2)'"},
      {"let a = 4611686018427387 * 4611686018\n", "overflows 64 bits"},
      {"data x[4]\ndata x[4]\n", "'x' is already allocated"},
      {"free y\n", "'y' is not allocated here"},
      {"data x[4]\nread x[0] q=cuda2\n", "a CPU access must be convergent"},
      {"device [64] {\n  threads w in 0..3 dim=0 width=32 {\n  }\n}\n",
       "threads loop iteration 2 takes threads [64, 96) of dimension 0, outside the current box [0, 64)"},
      {"tasks t in 0..2 {\n}\n", "a tasks loop must be inside a device block"},
      {"device [64] {\n  reshape 0 -> [3, 32] {\n  }\n}\n", "reshape factors do not multiply"},
      {"device [64] {\n  threads w in 0..1 dim=0 width=48 {\n    reshape 0 -> [2, 32] {\n    }\n  }\n}\n",
       "the current thread box is not a box after reshape"},
      {"barrier z[2]\nawait z[0:2] -> cuda_in_order 0\n", "an Await names one barrier element"},
      {"data x[2, 3]\nread x[1] q=cuda2 conv\n", "'x' has 2 dimensions, not 1"},
  };
  for (const ErrorCase &c : cases) {
    CheckResult r = check_text(c.text);
    ASSERT_FALSE(r.ok) << c.text;
    EXPECT_EQ(r.hazard.kind, HazardKind::InvalidProgram) << c.text;
    EXPECT_NE(r.hazard.message.find(c.message), std::string::npos)
        << c.text << "\ngot: " << r.hazard.message;
  }
}

// A window reaching past the tensor is out of bounds unless clipped (TMA).
TEST(SyncInterpreter, ClipOnlyWhenAsked) {
  const char *base = "data x[4, 4]\ndevice [32] {\n  write x[2:6, 0:4] q=tmaS conv%s\n}\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, base, "");
  CheckResult r = check_text(buf);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.hazard.kind, HazardKind::OutOfBounds);
  EXPECT_EQ(r.hazard.message, "accessing x[2:6, 0:4] of allocation x[4, 4]");
  std::snprintf(buf, sizeof buf, base, " clip");
  EXPECT_TRUE(check_text(buf).ok);
}

// Thread ids: task * threads_per_task + C-order index; a box over a 2-D
// domain becomes one run per CTA; every task gets fresh ids.
TEST(SyncInterpreter, ThreadBoxesAndTasks) {
  CheckResult r = check_text(R"(data x[4]
device [2, 64] {
  tasks t in 0..3 {
    threads c in 0..2 dim=0 width=1 {
      threads w in 1..2 dim=1 width=32 {
        write x[0:4] q=cuda2
      }
    }
  }
}
)");
  ASSERT_FALSE(r.ok) << "the second CTA's warp writes what the first wrote";
  EXPECT_EQ(r.hazard.kind, HazardKind::WriteAfterWrite);
  // Task ids: the device block's own code is task 0, the first loop task 1,
  // so its threads are 128..255 (two CTAs of 64).
  EXPECT_EQ(r.hazard.threads->str(), "{224..255}");
  EXPECT_EQ(r.hazard.prior.threads->str(), "{160..191}");
  EXPECT_EQ(r.hazard.prior_thread, 160);
  EXPECT_EQ(r.hazard.missing_threads.str(), "{224..255}");
  ASSERT_EQ(r.hazard.iters.size(), 3u);
  EXPECT_EQ(r.hazard.iters[1].first, "c");
  EXPECT_EQ(r.hazard.iters[1].second, 1);
}

// The fast engine's hazard is confirmed by the one-element replay, which
// also says how far synchronization got.
TEST(SyncCheck, ReplayConfirmsAndExplains) {
  const char *text = R"(data x[64]
device [64] {
  barrier b[1] checked
  threads w in 0..1 dim=0 width=32 {
    write x[0:64] q=cuda2 conv
    arrive cuda_in_order >> b[0]
  }
  threads w in 1..2 dim=0 width=32 {
    await b[0] -> cuda_temporal 0
    read x[8:16] q=cuda2 conv
  }
}
)";
  CheckResult fast = check_text(text);
  CheckResult oracle = check_text(text, EngineKind::Oracle);
  ASSERT_FALSE(fast.ok);
  ASSERT_FALSE(oracle.ok);
  EXPECT_TRUE(fast.replay_agreed);
  EXPECT_EQ(fast.hazard.kind, HazardKind::ReadAfterWrite);
  EXPECT_EQ(fast.hazard.element, std::vector<int64_t>{8});
  EXPECT_EQ(fast.hazard.need_flag, Full);
  ASSERT_EQ(fast.hazard.notes.size(), 2u);
  EXPECT_NE(fast.hazard.notes[0].find("took the access into its barrier token"), std::string::npos);
  EXPECT_NE(fast.hazard.notes[1].find("Await"), std::string::npos);
  EXPECT_EQ(oracle.hazard.summary(), fast.hazard.summary());
}

} // namespace
} // namespace exgc::sync
