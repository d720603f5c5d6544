// task_replay_test.cpp - which task bodies repeat, and matching their boxes //
#include "compiler/sync/task_replay.h"
#include "compiler/sync/text_format.h"

#include <gtest/gtest.h>

namespace exgc::sync {
namespace {

// The innermost tasks loop of a program whose device block holds it.
const Stmt *tasks_of(const Program &p) {
  const Stmt *found = nullptr;
  std::vector<const Block *> todo{&p.body};
  while (!todo.empty()) {
    const Block *b = todo.back();
    todo.pop_back();
    for (const StmtP &s : *b) {
      if (s->kind == StmtKind::Tasks)
        found = s.get();
      todo.push_back(&s->body);
    }
  }
  return found;
}

TaskShape shape_of(const std::string &body, Program &p) {
  std::string text = "let KT = 2\ndata C[16, 4]\nbarrier outer[1] checked\n"
                     "device [1, 32] {\n  tasks t in 0..4 {\n" +
                     body + "  }\n}\n";
  std::vector<ParseError> errs;
  EXPECT_TRUE(parse_program(text, "t.sync", p, errs)) << (errs.empty() ? "" : errs[0].message);
  return analyze_task(*tasks_of(p), {"t"});
}

TEST(TaskReplay, OutsideAccessesMayDependOnTheTask) {
  Program p;
  TaskShape s = shape_of("    data acc[4]\n"
                         "    seq k in 0..KT {\n      update acc[:] q=cuda1 conv\n    }\n"
                         "    let row = 2 * t\n"
                         "    write C[row:row + 2, :] q=cuda2 conv\n"
                         "    free acc\n",
                         p);
  EXPECT_TRUE(s.uniform) << s.why_not;
  EXPECT_EQ(s.locals, std::vector<std::string>{"acc"});
  EXPECT_EQ(s.params, std::vector<std::string>{"KT"});
  // The walk takes the let and the outside access, not the loop without them.
  EXPECT_EQ(s.walk.size(), 2u);
}

TEST(TaskReplay, WhatStopsReplay) {
  const std::pair<const char *, const char *> cases[] = {
      {"    if t > 0 {\n      fence cuda_in_order -> cuda_in_order\n    }\n", "condition"},
      {"    data acc[4]\n    write acc[t] q=cuda2 conv\n    free acc\n", "index into 'acc'"},
      {"    arrive cuda_in_order >> outer[0]\n", "barrier is outside"},
      {"    data acc[t + 1]\n    free acc\n", "extent of 'acc'"},
      {"    seq k in 0..t {\n      fence cuda_in_order -> cuda_in_order\n    }\n", "bounds of loop"},
      {"    free C\n", "frees outside"},
      // A let that copies the task index taints the names it steers.
      {"    data acc[4]\n    let u = t % 4\n    write acc[u] q=cuda2 conv\n    free acc\n",
       "index into 'acc'"},
      // Used before the body binds it, a name holds what the last task left.
      {"    data acc[4]\n    write acc[u] q=cuda2 conv\n    let u = 1\n    free acc\n",
       "index into 'acc'"},
  };
  for (const auto &c : cases) {
    Program p;
    TaskShape s = shape_of(c.first, p);
    EXPECT_FALSE(s.uniform) << c.first;
    EXPECT_NE(s.why_not.find(c.second), std::string::npos) << s.why_not;
  }
}

TEST(TaskReplay, LetsAndLoopsThatStayUniform) {
  Program p;
  TaskShape s = shape_of("    data acc[4]\n    let u = t\n    let u = 3\n"
                         "    seq k in 0..2 {\n      write acc[k + u - 3] q=cuda2 conv\n    }\n"
                         "    free acc\n",
                         p);
  EXPECT_TRUE(s.uniform) << s.why_not;
  // A loop iteration sees what the previous one left: `v` is tainted from
  // the second iteration on.
  Program q;
  TaskShape s2 = shape_of("    data acc[4]\n    let v = 0\n"
                          "    seq k in 0..2 {\n      write acc[v] q=cuda2 conv\n      let v = t % 4\n"
                          "    }\n    free acc\n",
                          q);
  EXPECT_FALSE(s2.uniform);
}

Box box(std::initializer_list<int64_t> lo, std::initializer_list<int64_t> hi) {
  Box b;
  b.lo.assign(lo.begin(), lo.end());
  b.hi.assign(hi.begin(), hi.end());
  return b;
}

TEST(TaskReplay, MatchOutsideNeedsOneOffsetPerTensor) {
  Stmt s1, s2;
  std::vector<OutsideAccess> tmpl{{&s1, 0, {box({0, 0}, {2, 4})}}, {&s2, 0, {box({2, 0}, {4, 4})}}};
  std::vector<TensorShift> shifts;
  std::vector<OutsideAccess> now{{&s1, 0, {box({8, 0}, {10, 4})}}, {&s2, 0, {box({10, 0}, {12, 4})}}};
  ASSERT_TRUE(match_outside(tmpl, now, shifts));
  ASSERT_EQ(shifts.size(), 1u);
  EXPECT_EQ(shifts[0].offset[0], 8);
  EXPECT_EQ(shifts[0].offset[1], 0);
  // The second box moved differently (an edge tile, clipped).
  now[1].boxes[0] = box({10, 0}, {11, 4});
  EXPECT_FALSE(match_outside(tmpl, now, shifts));
  // Another statement, or another count of accesses.
  now[1] = {&s1, 0, {box({10, 0}, {12, 4})}};
  EXPECT_FALSE(match_outside(tmpl, now, shifts));
  now.pop_back();
  EXPECT_FALSE(match_outside(tmpl, now, shifts));
}

} // namespace
} // namespace exgc::sync
