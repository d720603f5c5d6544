// random_loop_program.h - random k-loops, periodic or nearly -------------//
//
// Generates scalar kernels with a k-loop in each task (examples/gemm_sm80.exg
// lowered: a stage allocated, filled, fenced, read, fenced and freed per
// iteration, registers accumulated across them), aimed at loop replay
// (compiler/sync/loop_replay.h): most bodies repeat, so the fast engine
// skips their later iterations; fences are sometimes left out, so hazards
// come inside the loop (a later iteration's write against an earlier one's
// read) and after it (an access against an entry the skipped last iteration
// would have made, which names its event); some bodies index by the
// iterator or allocate what they do not free, and must run in full.
#ifndef EXGC_TEST_UNIT_SYNC_RANDOM_LOOP_PROGRAM_H
#define EXGC_TEST_UNIT_SYNC_RANDOM_LOOP_PROGRAM_H

#include "program_writer.h"

namespace exgc::sync::testing {

class RandomLoopProgram : ProgramWriter {
public:
  explicit RandomLoopProgram(uint32_t seed) : ProgramWriter(seed) {}

  std::string generate() {
    os_.str("");
    block_ = pick(0, 1) ? 8 : 16;
    varying_ = pick(0, 5) == 0;
    const int tasks = pick(1, 3);
    line("data g[" + std::to_string(2 * tasks) + ", 16]");
    open("device [1, " + std::to_string(block_) + "]");
    open("tasks t in 0.." + std::to_string(tasks));
    line("data acc[" + std::to_string(block_) + ", 4]");
    line("data s[" + std::to_string(block_) + ", 16]");
    if (pick(0, 1))
      phase(false);
    fence_or_not(8);
    open("seq k in 0.." + std::to_string(pick(0, 3) ? pick(4, 9) : pick(1, 3)));
    const bool stage = pick(0, 3) != 0;
    if (stage)
      line("data st[" + std::to_string(block_) + ", 16]");
    for (int i = pick(1, 3); i > 0; --i) {
      phase(stage);
      fence_or_not(9);
    }
    // Not freed: a second iteration allocates it again (a program error).
    const bool freed = stage && pick(0, 23);
    if (freed)
      line(pick(0, 3) ? "free st check={cuda2}" : "free st");
    close();
    if (stage && !freed)
      line("free st");
    for (int i = pick(0, 2); i > 0; --i) {
      phase(false);
      fence_or_not(4);
    }
    line("free acc");
    line(pick(0, 3) ? "free s check={cuda2}" : "free s");
    close();
    if (pick(0, 2) == 0)
      line("read g[1, 0:16] q=cuda2 ext={cuda2}" + std::string(pick(0, 1) ? " conv" : ""));
    close();
    line("join");
    line("fence cuda_stream_sync -> cuda_stream_sync");
    return os_.str();
  }

private:
  int block_ = 8;
  bool varying_ = false; // some indices use the k-loop's iterator

  // A whole-CTA fence, or (one time in `odds`) none, or a join.
  void fence_or_not(int odds) {
    const int c = pick(0, odds);
    if (c == 0)
      return;
    line(c == 1 ? "join" : "fence cuda_in_order -> cuda_in_order");
  }

  // One thread per iteration over all threads or a run of them, a seq loop
  // inside, one to three scalar accesses in its body.
  void phase(bool stage) {
    const int count = pick(0, 2) ? block_ : pick(1, block_);
    const int offset = pick(0, block_ - count);
    open("threads i in 0.." + std::to_string(count) + " dim=1 width=1 offset=" +
         std::to_string(offset));
    open("seq a in 0.." + std::to_string(pick(1, 3)));
    for (int n = pick(1, 3); n > 0; --n)
      access(stage);
    close();
    close();
  }

  std::string index(int extent) {
    static const char *const terms[] = {"i", "a", "a + i", "2 * a + i", "i + 3", "5", "k"};
    const int n = varying_ ? 6 : 5;
    return "(" + std::string(terms[pick(0, n)]) + ") % " + std::to_string(extent);
  }

  void access(bool stage) {
    static const char *const kinds[] = {"read", "read", "write", "update"};
    const std::string kind = kinds[pick(0, 3)];
    // Mostly the thread's own row; another's races unless phases are fenced.
    const std::string row = pick(0, kind == "read" ? 3 : 11) ? std::string("i") : index(block_);
    std::string target, q = "cuda2";
    const int t = pick(0, 6);
    if (t < 2) {
      target = "acc[" + row + ", " + index(4) + "]";
      q = "cuda1";
    } else if (t < 4 && stage) {
      target = "st[" + row + ", " + index(16) + "]";
    } else if (t < 6) {
      target = "s[" + row + ", " + index(16) + "]";
    } else {
      target = "g[" + std::string(pick(0, 5) ? "2 * t + a % 2" : "a % 2") + ", " + index(16) + "]";
    }
    std::string s = kind + " " + target + " q=" + q + " ext={" + q + "}";
    if (pick(0, 5))
      s += " conv";
    if (pick(0, 19) == 0)
      s += " atomic={" + q + "}";
    line(s);
  }
};

} // namespace exgc::sync::testing

#endif
