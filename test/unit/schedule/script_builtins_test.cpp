// script_builtins_test.cpp - the builtin functions of schedule scripts ------//
#include <gtest/gtest.h>

#include "test/unit/schedule/run_script.h"

namespace exgc::schedule {
namespace {

const char *kProc = "proc f(n: size, x: f32[n]):\n"
                    "    for i in seq(0, n):\n"
                    "        x[i] = 0.0\n";

// str() writes a def's integers into the text primitives take.
TEST(ScriptBuiltins, StrWritesAnIntsDecimalDigits) {
  auto r = run(std::string(kProc) + "schedule g from f:\n"
                                    "    t = 128\n"
                                    "    print(\"A[\" + str(t) + \" * i]\" + str(-7) + str(t / 2))\n");
  const Diagnostic *d = r->first(DiagKind::ScriptPrint);
  ASSERT_TRUE(d) << r->messages();
  EXPECT_EQ(d->message, "A[128 * i]-764");
}

TEST(ScriptBuiltins, StrTakesOneInt) {
  auto r = run(std::string(kProc) + "schedule g from f:\n"
                                    "    print(str(\"8\"))\n");
  const Diagnostic *d = r->first(DiagKind::ScriptArgType);
  ASSERT_TRUE(d) << r->messages();
  EXPECT_NE(d->message.find("argument 1, 'x' to str: expected int, got "), std::string::npos)
      << d->message;
  auto none = run(std::string(kProc) + "schedule g from f:\n"
                                       "    print(str())\n");
  EXPECT_TRUE(none->first(DiagKind::ScriptArgType)) << none->messages();
}

} // namespace
} // namespace exgc::schedule
