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

TEST(Diagnostics, Utf8IsQuotedAsWrittenWithTheCaretPerCharacter) {
  SourceManager sm;
  // "é" is two bytes, "€" three, "😀" four; the column counts bytes (5 + 2 + 3 + 4 + 1).
  uint32_t f = sm.add("u.exg", "x = \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\" + y\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 19}, DiagKind::InvalidCharacter, "y");
  std::ostringstream os;
  diag.render_text(os, false);
  EXPECT_NE(os.str().find("\nx = \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\" + y\n            ^\n"),
            std::string::npos)
      << os.str();
}

TEST(Diagnostics, MalformedUtf8IsQuotedAsQuestionMarks) {
  SourceManager sm;
  // A lone continuation byte, a truncated sequence, an overlong form, a surrogate.
  uint32_t f = sm.add("m.exg", std::string("\x80|\xc3|\xe0\x80\x80|\xed\xa0\x80|\n"));
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 1}, DiagKind::InvalidCharacter, "?");
  std::ostringstream os;
  diag.render_text(os, false);
  EXPECT_NE(os.str().find("\n?|?|???|???|\n^\n"), std::string::npos) << os.str();
}

TEST(Diagnostics, RepeatsFromAnIndexOnAreDropped) {
  SourceManager sm;
  uint32_t f = sm.add("d.exg", "abc\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 1}, DiagKind::InvalidCharacter, "a");
  diag.report(SrcLoc{f, 1, 1}, DiagKind::InvalidCharacter, "a");
  diag.report(SrcLoc{f, 1, 1}, DiagKind::InvalidCharacter, "a");
  diag.report(SrcLoc{f, 1, 2}, DiagKind::InvalidCharacter, "a");
  diag.drop_duplicates(1); // the first stays, even though the second repeats it
  ASSERT_EQ(diag.diagnostics().size(), 3u);
  EXPECT_EQ(diag.num_errors(), 3u);
  EXPECT_EQ(diag.diagnostics()[2].loc.col, 2u);
}

TEST(Diagnostics, InProcSaysWhichProcsCodeItIs) {
  SourceManager sm;
  uint32_t f = sm.add("d.exg", "abc\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 1}, DiagKind::InvalidCharacter, "a");
  {
    DiagEngine::InProc outer(diag, "f");
    {
      DiagEngine::InProc inner(diag, "g");
      diag.report(SrcLoc{f, 1, 2}, DiagKind::InvalidCharacter, "b");
    }
    diag.report(SrcLoc{f, 1, 2}, DiagKind::InvalidCharacter, "b");
  }
  diag.report(SrcLoc{f, 1, 3}, DiagKind::InvalidCharacter, "c");
  EXPECT_TRUE(diag.diagnostics()[0].procs.empty());
  EXPECT_EQ(diag.diagnostics()[1].procs, std::vector<std::string>{"g"});
  EXPECT_EQ(diag.diagnostics()[2].procs, std::vector<std::string>{"f"});
  EXPECT_TRUE(diag.diagnostics()[3].procs.empty());
  // One piece of code reported for two procs is kept once, about both.
  diag.drop_duplicates(1);
  ASSERT_EQ(diag.diagnostics().size(), 3u);
  EXPECT_EQ(diag.diagnostics()[1].procs, (std::vector<std::string>{"g", "f"}));
}

TEST(Diagnostics, LongLinesAreQuotedAroundTheColumn) {
  SourceManager sm;
  std::string line = std::string(500, 'a') + "X" + std::string(500, 'b');
  uint32_t f = sm.add("long.exg", line + "\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 501}, DiagKind::InvalidCharacter, "X");
  std::ostringstream os;
  diag.render_text(os, false);
  std::string text = os.str();
  size_t quote = text.find('\n') + 1;
  std::string shown = text.substr(quote, text.find('\n', quote) - quote);
  std::string caret = text.substr(text.find('\n', quote) + 1);
  EXPECT_EQ(shown.size(), 3 + 120 + 3u) << shown;
  EXPECT_EQ(shown.substr(0, 3), "...");
  EXPECT_EQ(shown[caret.find('^')], 'X');
}

TEST(Diagnostics, CaretPastTheEndOfTheLine) {
  SourceManager sm;
  uint32_t f = sm.add("e.exg", "ab\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 3}, DiagKind::SyntaxError, "expected ':'");
  std::ostringstream os;
  diag.render_text(os, false);
  EXPECT_NE(os.str().find("\nab\n  ^\n"), std::string::npos) << os.str();
}

TEST(Diagnostics, IgnoredWarningsAreDroppedWithTheirNotes) {
  SourceManager sm;
  DiagEngine diag(sm);
  diag.set_warning_policy({{DiagKind::NothingToCompile}, false});
  diag.report(SrcLoc{}, DiagKind::NothingToCompile, "a.exg").note(SrcLoc{}, "dropped too");
  diag.report(SrcLoc{}, DiagKind::SyncNotVerified, "f");
  ASSERT_EQ(diag.diagnostics().size(), 1u);
  EXPECT_EQ(diag.diagnostics()[0].kind, DiagKind::SyncNotVerified);
  EXPECT_FALSE(diag.has_errors());
}

TEST(Diagnostics, WerrorMakesWarningsErrorsButLeavesNotes) {
  SourceManager sm;
  DiagEngine diag(sm);
  diag.set_warning_policy({{}, true});
  diag.report(SrcLoc{}, DiagKind::NothingToCompile, "a.exg");
  diag.report(SrcLoc{}, DiagKind::ScheduleNotRun, "g", "f");
  EXPECT_EQ(diag.num_errors(), 1u);
  EXPECT_EQ(diag.diagnostics()[0].severity, Severity::Error);
  EXPECT_EQ(diag.diagnostics()[1].severity, Severity::Note);
}

TEST(Diagnostics, ColorPaintsLikeClang) {
  SourceManager sm;
  uint32_t f = sm.add("k.exg", "x\n");
  DiagEngine diag(sm);
  diag.report(SrcLoc{f, 1, 1}, DiagKind::SyntaxError, "bad").note(SrcLoc{}, "why");
  diag.report(SrcLoc{}, DiagKind::NothingToCompile, "k.exg");
  std::ostringstream os;
  diag.render_text(os, false, /*color=*/true);
  EXPECT_EQ(os.str(), "\033[1mk.exg:1:1:\033[0m \033[1;31merror:\033[0m \033[1mbad\033[0m\n"
                      "x\n"
                      "\033[1;32m^\033[0m\n"
                      "\033[1mexgc:\033[0m \033[1;30mnote:\033[0m why\n"
                      "\033[1mexgc:\033[0m \033[1;35mwarning:\033[0m \033[1m'k.exg' defines no "
                      "proc to compile\033[0m\n");
}
