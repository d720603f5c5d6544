// identifier_test.cpp - identifiers, and the keyword list against the lexer.
#include "compiler/support/identifier.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace exgc {
namespace {

TEST(Identifier, NamesAreIdentifiersThatAreNotKeywords) {
  EXPECT_TRUE(is_exg_name("ab"));
  EXPECT_TRUE(is_exg_name("_t1"));
  EXPECT_TRUE(is_exg_name("For")); // keywords are case-sensitive
  EXPECT_FALSE(is_exg_name("for"));
  EXPECT_FALSE(is_exg_name("True"));
  EXPECT_FALSE(is_exg_name("and"));
  EXPECT_FALSE(is_exg_name("t + 1"));
  EXPECT_FALSE(is_exg_name("1t"));
  EXPECT_FALSE(is_exg_name(""));
}

// Every quoted word of grammar/ExgLexer.g4 is a keyword, and nothing else.
TEST(Identifier, KeywordsAreTheLexers) {
  std::ifstream f(std::string(EXGC_SOURCE_DIR) + "/grammar/ExgLexer.g4");
  ASSERT_TRUE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  std::string s = text.str();
  std::set<std::string> words;
  std::regex quoted("'([A-Za-z_]+)'");
  for (std::sregex_iterator it(s.begin(), s.end(), quoted), end; it != end; ++it)
    words.insert((*it)[1]);
  ASSERT_FALSE(words.empty());
  for (const std::string &w : words)
    EXPECT_TRUE(is_exg_keyword(w)) << w;
  for (const char *w : {"False", "True", "and", "as", "assert", "check", "def", "elif", "else",
                        "export", "for", "from", "if", "import", "in", "inf", "instr", "not", "or",
                        "pass", "proc", "return", "schedule", "with"})
    EXPECT_TRUE(words.count(w)) << w << " is no longer a keyword of the lexer";
}

} // namespace
} // namespace exgc
