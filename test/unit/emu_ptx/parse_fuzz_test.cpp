// parse_fuzz_test.cpp - damaged PTX never crashes or hangs the parser -------------//
// Seeded mutations of the nvcc data files: each either parses or fails with a
// position inside the damaged text. A crash, a hang or an error pointing
// nowhere would leave an emulator user without a line to look at.
#include "ptx_test_util.h"

#include <random>

namespace emu::ptx::test {
namespace {

std::string mutate(const std::string &s, std::mt19937 &rng) {
  auto pick = [&](size_t n) { return n == 0 ? 0 : size_t(rng() % n); };
  static const std::string kBits = "{}[]()<>;:,.|!@-+_%$\"/*\n 0123456789xfdU";
  std::string t = s;
  int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits && !t.empty(); ++e) {
    switch (rng() % 7) {
    case 0: // truncate
      t.resize(pick(t.size()));
      break;
    case 1: { // delete a span
      size_t at = pick(t.size());
      t.erase(at, 1 + pick(40));
      break;
    }
    case 2: // insert punctuation or digits
      t.insert(pick(t.size()), 1 + pick(3), kBits[pick(kBits.size())]);
      break;
    case 3: // overwrite a byte with anything
      t[pick(t.size())] = char(rng() & 0xff);
      break;
    case 4: { // duplicate a span (declarations, labels, blocks)
      size_t at = pick(t.size());
      t.insert(pick(t.size()), t.substr(at, 1 + pick(200)));
      break;
    }
    case 5: // a huge number
      t.insert(pick(t.size()), "99999999999999999999999");
      break;
    default: { // swap two spans' first characters
      size_t a = pick(t.size()), b = pick(t.size());
      std::swap(t[a], t[b]);
      break;
    }
    }
  }
  return t;
}

void fuzz(const std::string &name, uint32_t seed, int rounds) {
  std::string text = read_data(name);
  ASSERT_FALSE(text.empty());
  std::mt19937 rng(seed);
  int failed = 0;
  for (int i = 0; i < rounds; ++i) {
    std::string t = mutate(text, rng);
    uint32_t lines = 1;
    for (char c : t)
      lines += c == '\n';
    Module m;
    ParseError e;
    if (parse_module(t, name, m, e))
      continue;
    ++failed;
    ASSERT_GE(e.line, 1u) << "round " << i << ": " << e.message;
    ASSERT_LE(e.line, lines) << "round " << i << ": " << e.message;
    ASSERT_GE(e.col, 1u) << "round " << i;
    ASSERT_FALSE(e.message.empty()) << "round " << i;
  }
  EXPECT_GT(failed, rounds / 4); // the mutations do damage
}

TEST(ParseFuzz, HopperKernel) { fuzz("tma_wgmma.ptx", 24, 2000); }
TEST(ParseFuzz, MiscKernel) { fuzz("misc.ptx", 90, 2000); }

} // namespace
} // namespace emu::ptx::test
