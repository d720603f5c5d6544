// program_writer.h - what the random sync program generators share ------//
//
// A seeded choice and an indented text writer for the .sync text form; the
// generators (random_program.h, random_scalar_program.h) derive from it.
#ifndef EXGC_TEST_UNIT_SYNC_PROGRAM_WRITER_H
#define EXGC_TEST_UNIT_SYNC_PROGRAM_WRITER_H

#include <random>
#include <sstream>
#include <string>

namespace exgc::sync::testing {

class ProgramWriter {
protected:
  explicit ProgramWriter(uint32_t seed) : rng_(seed) {}

  std::mt19937 rng_;
  std::ostringstream os_;
  int depth_ = 0;

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void line(const std::string &s) { os_ << std::string(2 * depth_, ' ') << s << "\n"; }
  void open(const std::string &s) {
    line(s + " {");
    ++depth_;
  }
  void close() {
    --depth_;
    line("}");
  }
};

} // namespace exgc::sync::testing

#endif
