// diag_coverage_test.cpp - every registered diagnostic is shown by a test ---//
// Lit runs exgc with --show-diag-kind, so a test that shows kind K contains
// "[K]" in a CHECK line. A kind no test shows is a message nobody has read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/support/diag_kinds.h"

namespace fs = std::filesystem;

namespace {

// Kinds that no input file can trigger; each says why.
const std::set<std::string> kExempt = {
    "InternalFailure", // reports our own bugs; there is no input that should cause one
};

std::string all_lit_text() {
  std::string text;
  fs::path root = fs::path(EXGC_SOURCE_DIR) / "test" / "lit";
  for (const auto &entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file())
      continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    text += ss.str();
  }
  return text;
}

TEST(DiagCoverage, EveryKindHasALitTest) {
  std::string text = all_lit_text();
  for (size_t i = 0; i < exgc::num_diag_kinds(); ++i) {
    std::string name = exgc::diag_info(exgc::diag_kind_at(i)).name;
    if (kExempt.count(name))
      continue;
    EXPECT_NE(text.find("[" + name + "]"), std::string::npos)
        << "no lit test shows diagnostic kind " << name;
  }
}

TEST(DiagCoverage, MessagesFollowTheWordingRules) {
  for (size_t i = 0; i < exgc::num_diag_kinds(); ++i) {
    const exgc::DiagInfo &info = exgc::diag_info(exgc::diag_kind_at(i));
    std::string f = info.format;
    ASSERT_FALSE(f.empty()) << info.name;
    // Lower-case start (a quoted name or a placeholder may start it), no final period.
    EXPECT_FALSE(f[0] >= 'A' && f[0] <= 'Z') << info.name << ": " << f;
    EXPECT_NE(f.back(), '.') << info.name << ": " << f;
  }
}

} // namespace
