// random_scalar_program.h - random per-thread scalar programs -------------//
//
// Generates programs shaped like a scalar CUDA kernel (examples/gemm_sm80.exg
// lowered): thread loops of one thread per iteration, seq loops inside them,
// and single-element accesses whose indices mix the thread, the loops and the
// task, to per-thread registers, a shared tile and a tiled output, with
// whole-CTA fences between phases that are sometimes left out. They aim at
// the fast engine's per-element paths: an element read again by the thread
// that read it (one entry per record), a region whose assignment record only
// it holds (changed in place), buckets of many one-element regions (the exact
// box index) and many threads' equal contents (shared while fresh).
#ifndef EXGC_TEST_UNIT_SYNC_RANDOM_SCALAR_PROGRAM_H
#define EXGC_TEST_UNIT_SYNC_RANDOM_SCALAR_PROGRAM_H

#include "program_writer.h"

namespace exgc::sync::testing {

class RandomScalarProgram : ProgramWriter {
public:
  explicit RandomScalarProgram(uint32_t seed) : ProgramWriter(seed) {}

  std::string generate() {
    os_.str("");
    block_ = pick(0, 1) ? 16 : 32;
    const int tasks = pick(1, 3);
    line("data g[" + std::to_string(2 * tasks) + ", 16]");
    open("device [1, " + std::to_string(block_) + "]");
    open("tasks t in 0.." + std::to_string(tasks));
    line("data acc[" + std::to_string(block_) + ", 4]");
    line("data s[8, 16]");
    for (int i = pick(1, 4); i > 0; --i) {
      phase();
      const int c = pick(0, 9);
      if (c < 7)
        line("fence cuda_in_order -> cuda_in_order");
      else if (c == 7)
        line("join");
    }
    line("free acc");
    line(pick(0, 3) ? "free s check={cuda2}" : "free s");
    close();
    if (pick(0, 2) == 0) // unordered after the tasks: a hazard on a replayed tile
      line("read g[1, 0:16] q=cuda2 ext={cuda2}" + std::string(pick(0, 1) ? " conv" : ""));
    close();
    line("join");
    line("fence cuda_stream_sync -> cuda_stream_sync");
    if (pick(0, 1))
      line("read g[:, :] q=cpu ext={cpu,strm,cuda2} conv");
    return os_.str();
  }

private:
  int block_ = 16;


  // One thread per iteration over all threads or a run of them, seq loops a
  // and b inside, one to three scalar accesses in the innermost body.
  void phase() {
    const int count = pick(0, 2) ? block_ : pick(1, block_);
    const int offset = pick(0, block_ - count);
    open("threads i in 0.." + std::to_string(count) + " dim=1 width=1 offset=" +
         std::to_string(offset));
    open("seq a in 0.." + std::to_string(pick(1, 4)));
    open("seq b in 0.." + std::to_string(pick(1, 4)));
    for (int n = pick(1, 3); n > 0; --n)
      access();
    close();
    close();
    close();
  }

  // An index into an extent: the thread, a loop or a constant, combined.
  std::string index(int extent) {
    static const char *const terms[] = {"i", "a", "b", "a + i", "b + 2 * i", "a * 4 + b",
                                        "i + 3", "2 * a + b + i", "5"};
    return "(" + std::string(terms[pick(0, 8)]) + ") % " + std::to_string(extent);
  }

  void access() {
    static const char *const kinds[] = {"read", "read", "write", "update"};
    std::string target, q;
    const int t = pick(0, 5);
    if (t < 2) {
      // The thread's own registers, or (rarely) another thread's.
      target = "acc[" + std::string(pick(0, 7) ? "i" : index(block_)) + ", " + index(4) + "]";
      q = "cuda1";
    } else if (t < 5) {
      target = "s[" + index(8) + ", " + index(16) + "]";
      q = "cuda2";
    } else {
      // The task's own row of g, or (rarely) another task's.
      target = "g[" + std::string(pick(0, 5) ? "2 * t + a % 2" : "a % 2") + ", " + index(16) + "]";
      q = "cuda2";
    }
    if (pick(0, 11) == 0)
      q = q == "cuda1" ? "cuda2" : "cuda1";
    std::string ext = "{" + q + "}";
    if (pick(0, 7) == 0)
      ext = "{" + std::string(q == "cuda1" ? "cuda2" : "cuda1") + "}"; // misses its own qual
    else if (pick(0, 5) == 0)
      ext = "{" + q + ",async}";
    std::string s = std::string(kinds[pick(0, 3)]) + " " + target + " q=" + q + " ext=" + ext;
    if (pick(0, 5))
      s += " conv";
    if (pick(0, 15) == 0)
      s += " ooo";
    if (pick(0, 19) == 0)
      s += " atomic={" + q + "}";
    line(s);
  }
};

} // namespace exgc::sync::testing

#endif
