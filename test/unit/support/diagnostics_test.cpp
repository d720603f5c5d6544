// diagnostics_test.cpp - rendering of diagnostics ---------------------------//
#include <gtest/gtest.h>

#include <sstream>

#include "compiler/support/diagnostics.h"

using namespace exgc;

TEST(Diagnostics, RendersLocationLineAndCaret) {
  SourceManager sm;
  uint32_t f = sm.add("k.exg", "proc f(n: size):\n    x[i] = 1\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 2, 5}, DiagKind::NotSupportedYet, "'x'").note(SrcLoc{f, 1, 6}, "declared here");
  std::ostringstream os;
  diag.render_text(os, /*show_kind=*/true);
  EXPECT_EQ(os.str(), "k.exg:2:5: error: 'x' is not supported yet [NotSupportedYet]\n"
                      "    x[i] = 1\n"
                      "    ^\n"
                      "k.exg:1:6: note: declared here\n"
                      "proc f(n: size):\n"
                      "     ^\n");
  EXPECT_EQ(diag.num_errors(), 1u);
}

TEST(Diagnostics, WarningsAreNotErrors) {
  SourceManager sm;
  DiagEngine diag(sm);
  diag.report(SrcLoc{}, DiagKind::NothingToCompile, "a.exg");
  EXPECT_FALSE(diag.has_errors());
}

TEST(Diagnostics, JsonEscapesAndListsNotes) {
  SourceManager sm;
  uint32_t f = sm.add("q\"x.exg", "a\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 1}, DiagKind::SyntaxError, "bad \"token\"\n").note(SrcLoc{f, 1, 1}, "n");
  std::ostringstream os;
  diag.render_json(os);
  EXPECT_EQ(os.str(),
            "[\n {\"file\": \"q\\\"x.exg\", \"line\": 1, \"column\": 1, \"severity\": \"error\", "
            "\"kind\": \"SyntaxError\", \"message\": \"bad \\\"token\\\"\\u000a\", \"notes\": "
            "[{\"file\": \"q\\\"x.exg\", \"line\": 1, \"column\": 1, \"message\": \"n\"}]}\n]\n");
}

TEST(Diagnostics, BinaryLinesAreQuotedSafely) {
  SourceManager sm;
  uint32_t f = sm.add("b.exg", std::string("\x01\xff" "ab\n", 5));
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 3}, DiagKind::InvalidCharacter, "?");
  std::ostringstream os;
  diag.render_text(os, false);
  EXPECT_NE(os.str().find("\n??ab\n  ^\n"), std::string::npos) << os.str();
}
