// cursor_test.cpp - cursors belong to their proc and forward along lineages --//
// A cursor is made on one proc; a primitive given another proc forwards it
// there: by the ids of what `find` gave, then its navigation replayed. These
// tests run small scripts and look at the results, the lineage the
// interpreter records, and forward_cursor itself.
#include <gtest/gtest.h>

#include "compiler/schedule/cursor.h"
#include "test/unit/schedule/run_script.h"

namespace exgc::schedule {
namespace {

const char *kProc = "proc f(n: size, x: f32[n]):\n"
                    "    for i in seq(0, n):\n"
                    "        x[i] = 1.0\n"
                    "\n";

/// Checks that `r` failed with exactly one diagnostic, of kind `k` at `line`.
const Diagnostic *only_error(const Run &r, DiagKind k, uint32_t line) {
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.diag.diagnostics().size(), 1u) << r.messages();
  const Diagnostic *d = r.first(k);
  EXPECT_TRUE(d) << r.messages();
  if (d) {
    EXPECT_EQ(d->loc.line, line);
  }
  return d;
}

// The issue-12 script: `c.parent()` is the guard around the store in the
// proc it is used with, whether or not an unrelated proc was derived from p
// in between (before, cursors navigated in the proc derived last).
TEST(Cursor, NavigationIsReplayedInTheProcTheCursorIsUsedWith) {
  std::string with_rename = std::string(kProc) + "schedule g from f:\n"
                            "    c = p.find(\"x[_] = _\")\n"
                            "    a = divide_loop(p, \"i\", 4, [\"io\", \"ii\"])\n"
                            "    b = rename(p, \"h\")\n"
                            "    p = add_if(a, c.parent(), \"n > 0\")\n";
  std::string without = std::string(kProc) + "schedule g from f:\n"
                        "    c = p.find(\"x[_] = _\")\n"
                        "    a = divide_loop(p, \"i\", 4, [\"io\", \"ii\"])\n"
                        "    p = add_if(a, c.parent(), \"n > 0\")\n";
  auto r1 = run(with_rename);
  auto r2 = run(without);
  ASSERT_TRUE(r1->ok) << r1->messages();
  ASSERT_TRUE(r2->ok) << r2->messages();
  const std::string expected = "proc g(n: size, x: f32[n]):\n"
                               "    for io in seq(0, (n + 3) / 4):\n"
                               "        for ii in seq(0, 4):\n"
                               "            if n > 0:\n"
                               "                if 4 * io + ii < n:\n"
                               "                    x[4 * io + ii] = 1.0\n";
  EXPECT_EQ(r1->result("g"), expected);
  EXPECT_EQ(r2->result("g"), expected);
}

/// Runs schedule `g` of kProc with `script` and checks that its result holds
/// `expected` (a few printed lines).
void expect_result_holds(const std::string &script, const std::string &expected) {
  auto r = run(std::string(kProc) + "schedule g from f:\n" + script);
  ASSERT_TRUE(r->ok) << r->messages();
  EXPECT_NE(r->result("g").find(expected), std::string::npos) << r->result("g");
}

TEST(Cursor, ForwardsAlongAChainOfSteps) {
  expect_result_holds("    c = p.find(\"x[_] = _\")\n"
                      "    p = divide_loop(p, \"i\", 4, [\"io\", \"ii\"], perfect=False)\n"
                      "    p = rename(p, \"f2\")\n"
                      "    p = insert_pass(p, c.after())\n",
                      "x[4 * io + ii] = 1.0\n                pass\n");
}

// Two procs derived from one: a cursor made on one names, in the other, the
// statement both kept from their common ancestor.
TEST(Cursor, BranchesShareTheStatementsOfTheirAncestor) {
  expect_result_holds("    a = rename(p, \"a\")\n"
                      "    b = divide_loop(p, \"i\", 4, [\"io\", \"ii\"])\n"
                      "    c = a.find(\"x[_] = _\")\n"
                      "    p = insert_pass(b, c.before())\n",
                      "pass\n                x[4 * io + ii] = 1.0");
}

TEST(Cursor, DeletedStatementNamesTheStepThatDeletedIt) {
  auto r = run("proc f(n: size, x: f32[n]):\n"
               "    pass\n"
               "    for i in seq(0, n):\n"
               "        x[i] = 1.0\n"
               "\n"
               "schedule g from f:\n"
               "    c = p.find(\"pass\")\n"
               "    p = rename(p, \"f2\")\n"
               "    p = delete_pass(p)\n"
               "    p = rename(p, \"f3\")\n"
               "    p = insert_pass(p, c.after())\n");
  const Diagnostic *d = only_error(*r, DiagKind::CursorDeleted, 11);
  ASSERT_TRUE(d);
  ASSERT_EQ(d->notes.size(), 1u) << r->messages();
  EXPECT_EQ(d->notes[0].loc.line, 9u);
  EXPECT_EQ(d->notes[0].message, "'delete_pass' deleted it here");
}

TEST(Cursor, ProcNotDerivedFromTheCursorsProcAndSharingNothingIsRefused) {
  auto r = run(std::string(kProc) + "proc other(n: size, y: f32[n]):\n"
                                    "    for j in seq(0, n):\n"
                                    "        y[j] = 1.0\n"
                                    "\n"
                                    "schedule g from f:\n"
                                    "    c = other.find(\"j\")\n"
                                    "    p = set_loop_mode(p, c, seq)\n");
  const Diagnostic *d = only_error(*r, DiagKind::CursorGone, 11);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->message, "a cursor made on 'other' cannot be used with 'f': 'f' is not derived "
                        "from it and does not hold its statement");
}

// A navigation that made sense where the cursor was made but not in the proc
// it is used with fails at the use: after fission the store has no next
// statement in its loop.
TEST(Cursor, ReplayedNavigationFailsAtTheUse) {
  auto r = run("proc f(n: size, x: f32[n]):\n"
               "    for i in seq(0, n):\n"
               "        x[i] = 1.0\n"
               "        x[i] += 2.0\n"
               "\n"
               "schedule g from f:\n"
               "    c = p.find(\"x[_] = _\")\n"
               "    n = c.next()\n"
               "    p = fission(p, c.after())\n"
               "    p = insert_pass(p, n.after())\n");
  only_error(*r, DiagKind::CursorNoSibling, 10);
}

TEST(Cursor, LineageEndsAtTheProgramsProcAndSkipsUnchangedSteps) {
  auto r = run(std::string(kProc) + "schedule g from f:\n"
                                    "    p = simplify(p)\n"
                                    "    p = divide_loop(p, \"i\", 4, [\"io\", \"ii\"])\n"
                                    "    p = rename(p, \"f2\")\n"
                                    "schedule h from g:\n"
                                    "    p = rename(p, \"h2\")\n");
  ASSERT_TRUE(r->ok) << r->messages();
  auto chain = r->interp()->lineage(r->interp()->result("h"));
  std::vector<std::string> made_by;
  for (const auto &[proc, step] : chain)
    made_by.push_back(proc->name + ":" + (step ? step->primitive : "-"));
  // h <- h2 (rename) <- g (result of g) <- f2 (rename) <- f (divide_loop) <- f.
  EXPECT_EQ(made_by, (std::vector<std::string>{"h:-", "h2:rename", "g:-", "f2:rename",
                                               "f:divide_loop", "f:-"}));
  EXPECT_EQ(chain.back().first.get(), r->prog()->main().find_proc("f").get());
  EXPECT_EQ(r->interp()->origin(r->interp()->result("h")).get(), chain.back().first.get());
}

TEST(Cursor, PrintShowsTheStatementInTheProcTheCursorWasMadeFrom) {
  auto r = run(std::string(kProc) + "schedule g from f:\n"
                                    "    c = p.find(\"i\")\n"
                                    "    p = rename(p, \"f2\")\n"
                                    "    p = divide_loop(p, c, 4, [\"io\", \"ii\"])\n"
                                    "    print(c)\n");
  const Diagnostic *d = r->first(DiagKind::ScriptPrint);
  ASSERT_TRUE(d) << r->messages();
  EXPECT_EQ(d->message, "<cursor in f: for i in seq(0, n):>");
}

} // namespace
} // namespace exgc::schedule
