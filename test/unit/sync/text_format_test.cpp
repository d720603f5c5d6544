// text_format_test.cpp - print/parse round trip and parse errors ----------//
#include "compiler/sync/text_format.h"
#include "random_program.h"

#include <gtest/gtest.h>

namespace exgc::sync {
namespace {

// print(parse(text)) is a fixed point: printing the reparsed program gives
// the same text, on random programs and on every construct.
TEST(SyncText, PrintParseRoundTrip) {
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    std::string text = testing::RandomProgram(seed).generate();
    Program p1, p2;
    std::vector<ParseError> errs;
    ASSERT_TRUE(parse_program(text, "a.sync", p1, errs)) << errs[0].message << "\n" << text;
    std::string printed = print_program(p1);
    ASSERT_TRUE(parse_program(printed, "b.sync", p2, errs)) << errs[0].message << "\n" << printed;
    EXPECT_EQ(print_program(p2), printed);
  }
}

TEST(SyncText, EveryConstructRoundTrips) {
  const char *text = R"(# comment
let K = 4 * (3 + 1) / 2 % 5 - -1
data A[2, K] ring(1, 2) guard(z, 0)
barrier z[2, K + 2] one_shot_arrive checked ring(1, 2) pre_arrive(2)
barrier cs[] one_shot_arrive one_shot_await
device [2, 64] {
  tasks t in 0..2 {
    reshape 1 -> [2, 32] {
      threads w in 0..2 dim=2 width=16 stride=16 offset=0 @ k.exg:3:5 {
        update A[0, 1:3][1, :] q=tmaS ext={tmaS,async} ooo conv clip atomic={tmaG} >> z[0, t] >> z[:, t] @ k.exg:4:9
      }
    }
    if t < 1 and not t == 3 or t >= 2 {
      fence {cuda2}~{async} -> cuda_in_order
    } else {
      arrive cuda_temporal >> z[0, 1] >> z[:, 1]
      await z[1, 1] -> wgmma_async 1
    }
    join
  }
}
free A check={cuda2}
)";
  Program p1, p2;
  std::vector<ParseError> errs;
  ASSERT_TRUE(parse_program(text, "all.sync", p1, errs)) << errs[0].loc.str() << ": " << errs[0].message;
  std::string printed = print_program(p1);
  ASSERT_TRUE(parse_program(printed, "b.sync", p2, errs)) << errs[0].message << "\n" << printed;
  EXPECT_EQ(print_program(p2), printed);
  EXPECT_NE(printed.find("update A[0, 1:3][1, :] q=tmaS ext={tmaS,async} ooo conv clip "
                         "atomic={tmaG} >> z[0, t] >> z[:, t] @ k.exg:4:9"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("fence {cuda2}~{async} -> cuda_in_order"), std::string::npos);
  // Locations and .sync positions are kept.
  const Stmt &dev = *p1.body[4];
  EXPECT_EQ(dev.text_loc.line, 6);
  const Stmt &thr = *dev.body[0]->body[0]->body[0];
  EXPECT_EQ(thr.loc.str(), "k.exg:3:5");
}

struct BadCase {
  const char *text;
  int line, col;
  const char *message;
};

TEST(SyncText, ParseErrorsPointAtTheProblem) {
  const BadCase cases[] = {
      {"data x[4]\nread x[0] q=cuda9\n", 2, 13, "unknown qual 'cuda9'"},
      {"fence cuda_in_ordr -> cuda_in_order\n", 1, 7, "unknown sync-timeline 'cuda_in_ordr'"},
      {"seq i in 0..4 {\n  join\n", 3, 1, "missing '}' at end of file"},
      {"read x[0]\n", 1, 10, "access needs 'q=QUAL'"},
      {"}\n", 1, 1, "unmatched '}'"},
      {"frob x\n", 1, 1, "unknown statement 'frob'"},
      {"join @ nowhere\n", 1, 6, "expected a location 'file:line:col' after '@'"},
      {"data x[4] ring(3, 2)\n", 1, 21, "ring dimension 3 is not a dimension of 'x'"},
      {"threads w in 0..2 dim=0 {\n}\n", 1, 25, "threads loop needs 'dim=' and 'width='"},
  };
  for (const BadCase &c : cases) {
    Program p;
    std::vector<ParseError> errs;
    EXPECT_FALSE(parse_program(c.text, "bad.sync", p, errs)) << c.text;
    ASSERT_FALSE(errs.empty());
    EXPECT_EQ(errs[0].message, c.message) << c.text;
    EXPECT_EQ(errs[0].loc.line, c.line) << c.text;
    EXPECT_EQ(errs[0].loc.col, c.col) << c.text;
  }
}

} // namespace
} // namespace exgc::sync
