// random_program.h - random sync programs for the differential test -------//
//
// Generates small programs in the text form: one or two CTAs of 16 or 32
// threads (sometimes followed by a second kernel of the other width), a few tasks, data tensors, a guarded ring buffer, an mbarrier ring
// and a commit group, and a random mix of accesses (all qual kinds, windows,
// multicast, out-of-order, convergent, atomic, trailing barriers), fences,
// arrives, awaits and seq loops over random thread boxes. Many are racy on
// purpose; what matters is that both engines say the same thing.
#ifndef EXGC_TEST_UNIT_SYNC_RANDOM_PROGRAM_H
#define EXGC_TEST_UNIT_SYNC_RANDOM_PROGRAM_H

#include "program_writer.h"

namespace exgc::sync::testing {

class RandomProgram : ProgramWriter {
public:
  explicit RandomProgram(uint32_t seed) : ProgramWriter(seed) {}

  std::string generate() {
    os_.str("");
    ncta_ = pick(1, 2);
    block_ = pick(0, 1) ? 16 : 32;
    // Two thirds of the programs are disciplined: a plain (not one-shot, not
    // ring) barrier and often a whole-task fence between statements, so that
    // many run to the end and the deep paths (frees, joins, long histories)
    // are compared too. The rest are wild: rings, one-shot barriers, races.
    disciplined_ = pick(0, 2) != 0;
    bool ring = !disciplined_ && pick(0, 1);
    // Tiled programs give each task its own rows of g (as a GEMM gives each
    // task its own C tile), so that tasks repeat each other and are replayed
    // (compiler/sync/task_replay.h) by the fast engine, never by the oracle.
    tiled_ = pick(0, 1) == 0;
    line("data g[8, 4]");
    if (!tiled_ && pick(0, 3) == 0)
      line("write g[0:8, :] q=cpu ext={cpu} conv");
    line("fence cpu_in_order -> cuda_stream_sync");
    open("device [" + std::to_string(ncta_) + ", " + std::to_string(block_) + "]");
    open("tasks t in 0.." + std::to_string(pick(tiled_ ? 2 : 1, 3)));
    line("data x[4, 8]");
    if (disciplined_)
      line("barrier z[2, 6] checked");
    else
      line(std::string("barrier z[2, 6] mbarrier ring(1, 2)") + (pick(0, 1) ? " pre_arrive(2)" : ""));
    line("barrier cg[2] commit_group");
    if (ring)
      line("data r[2, 6, 4] ring(1, 2) guard(z" + std::string(pick(0, 1) ? ", 0" : "") + ")");
    int n = pick(4, 18);
    for (int i = 0; i < n; ++i) {
      stmt(ring, 0);
      if (disciplined_ && pick(0, 9) < 7)
        line(pick(0, 3) ? "fence cuda_stream_sync -> cuda_stream_sync"
                        : "fence cuda_stream_sync -> cuda_generic_and_async_proxy");
    }
    // Frees in a random order, with or without the SMEM check.
    std::string frees[] = {"free x", "free cg", "free z", ring ? "free r" : ""};
    for (int i = 3; i > 0; --i)
      std::swap(frees[i], frees[pick(0, i)]);
    for (auto &f : frees) {
      if (f.empty())
        continue;
      if (f == "free x" && pick(0, 1))
        f += " check={cuda2}";
      line(f);
    }
    close();
    // After the tasks, the device's threads read task 1's tile unordered:
    // a hazard whose prior access is a replayed task's.
    if (tiled_ && pick(0, 1))
      line("read g[2:4, 0:4] q=cuda2 ext={cuda2}" + std::string(pick(0, 1) ? " conv" : ""));
    close();
    line("join");
    // Sometimes a second kernel of another width reads g, ordered after the
    // first by a stream fence or not: its threads must not alias the first
    // kernel's (they once did, and the race was missed by both engines).
    if (pick(0, 3) == 0) {
      if (pick(0, 1))
        line("fence cuda_stream_sync -> cuda_stream_sync");
      open("device [1, " + std::to_string(block_ == 16 ? 32 : 16) + "]");
      line("read g[0:8, 0:4] q=cuda2 ext={cuda2} conv");
      close();
      line("join");
    }
    // Tiled programs sometimes read a later task's tile without the fence:
    // the hazard then names a replayed task's access.
    if (!tiled_ || pick(0, 1))
      line("fence cuda_stream_sync -> cuda_stream_sync");
    if (tiled_ && pick(0, 1))
      line("read g[2:4, 0:4] q=cpu ext={cpu,strm,cuda2} conv");
    else if (pick(0, 1))
      line("read g[0:8, 0:4] q=cpu ext={cpu,strm,cuda2} conv");
    return os_.str();
  }

private:
  int ncta_ = 1, block_ = 16, loops_ = 0;
  bool disciplined_ = false, tiled_ = false;


  std::string qual() {
    static const char *const q[] = {"cuda2", "cuda2", "tmaS", "wgS", "cuda1", "async", "tmaG", "wgD", "sm80"};
    return q[pick(0, 8)];
  }
  std::string quals(const std::string &first) {
    std::string s = "{" + first;
    static const char *const extra[] = {"async", "cuda2", "wg0", "tmaS", "sm80"};
    for (int i = pick(0, 2); i > 0; --i) {
      std::string e = extra[pick(0, 4)];
      if (s.find(e) == std::string::npos)
        s += "," + e;
    }
    return s + "}";
  }
  std::string sync_tl() {
    static const char *const t[] = {"cuda_in_order", "cuda_temporal", "cuda_generic_and_async_proxy",
                                    "wgmma_async", "tma_to_smem_async", "Sm80_generic",
                                    "wgmma_fence_1", "cuda_in_order", "empty_sync_tl"};
    return t[pick(0, 8)];
  }
  std::string idx(int extent) {
    int c = pick(0, 3);
    std::string loopv = loops_ ? "s" + std::to_string(pick(0, loops_ - 1)) : "";
    if (c == 0)
      return ":";
    if (c == 1 && !loopv.empty())
      return "(" + loopv + " + " + std::to_string(pick(0, extent - 1)) + ") % " + std::to_string(extent);
    int lo = pick(0, extent - 1), hi = pick(lo + 1, extent);
    if (c == 2)
      return std::to_string(lo);
    return std::to_string(lo) + ":" + std::to_string(hi);
  }
  // Rows of the task's own tile of g: [2t, 2t + 2), or part of it.
  std::string tile_rows() {
    int lo = pick(0, 1), hi = pick(lo + 1, 2);
    if (hi == lo + 1 && pick(0, 1))
      return "2 * t + " + std::to_string(lo);
    return "2 * t + " + std::to_string(lo) + ":2 * t + " + std::to_string(hi);
  }
  std::string bar(bool point_only) {
    std::string a = point_only || pick(0, 2) ? std::to_string(pick(0, 1)) : ":";
    return "z[" + a + ", " + std::to_string(pick(0, 5)) + "]";
  }

  void access(bool ring) {
    static const char *const kinds[] = {"read", "write", "update"};
    int t = pick(0, ring ? 3 : 2);
    std::string target;
    if (t == 0 || t == 1)
      target = "x[" + idx(4) + ", " + idx(8) + "]";
    else if (t == 2 && tiled_ && pick(0, 5) != 0)
      target = "g[" + tile_rows() + ", " + idx(4) + "]";
    else if (t == 2)
      target = "g[" + idx(8) + ", " + idx(4) + "]";
    else
      target = "r[" + idx(2) + ", " + std::to_string(pick(0, 5)) + ", " + idx(4) + "]";
    if (pick(0, 7) == 0 && t < 2)
      target += "[" + idx(4) + ", " + idx(8) + "]"; // multicast: a second window
    std::string q = qual();
    std::string s = std::string(kinds[pick(0, 2)]) + " " + target + " q=" + q + " ext=" + quals(q);
    if (pick(0, 3) == 0)
      s += " ooo";
    if (disciplined_ ? pick(0, 3) != 0 : pick(0, 2) == 0)
      s += " conv";
    if (pick(0, 11) == 0)
      s += " atomic={" + std::string(pick(0, 1) ? "tmaG" : "cuda2") + "}";
    if (pick(0, 9) == 0)
      s += " >> " + bar(false);
    line(s);
  }

  void stmt(bool ring, int nest) {
    int c = pick(0, 19);
    if (c < 8 || nest > 2) {
      // Something run by a thread box.
      bool cta = ncta_ > 1 && pick(0, 1);
      if (cta)
        open("threads c in 0.." + std::to_string(pick(1, ncta_)) + " dim=0 width=1");
      int width = pick(0, 3) == 0 ? block_ : (1 << pick(0, 3));
      int count = disciplined_ && pick(0, 3) ? 1 : std::max(1, pick(1, block_ / width));
      int offset = pick(0, 1) ? 0 : width * pick(0, block_ / width - count);
      if (width < block_)
        open("threads w in 0.." + std::to_string(count) + " dim=1 width=" + std::to_string(width) +
             " offset=" + std::to_string(offset));
      int m = pick(1, 3);
      for (int i = 0; i < m; ++i)
        inner(ring);
      if (width < block_)
        close();
      if (cta)
        close();
      return;
    }
    if (c < 10) {
      std::string v = "s" + std::to_string(loops_);
      open("seq " + v + " in 0.." + std::to_string(pick(1, 3)));
      ++loops_;
      int m = pick(1, 4);
      for (int i = 0; i < m; ++i)
        stmt(ring, nest + 1);
      --loops_;
      close();
      return;
    }
    inner(ring);
  }

  void inner(bool ring) {
    int c = pick(0, 9);
    if (c < 5)
      return access(ring);
    if (c == 5)
      return line("fence " + sync_tl() + " -> " + sync_tl());
    if (c == 6) {
      if (pick(0, 2) == 0)
        return line("arrive " + sync_tl() + " >> cg[" + std::to_string(pick(0, 1)) + "]");
      std::string i = std::to_string(pick(0, 1)), j = std::to_string(pick(0, 5));
      std::string s = "arrive " + sync_tl() + " >> z[" + i + ", " + j + "]";
      if (pick(0, 2) == 0)
        s += " >> z[:, " + j + "]"; // multicast to both rows
      return line(s);
    }
    if (c == 7) {
      if (pick(0, 2) == 0)
        return line("await cg[" + std::to_string(pick(0, 1)) + "] -> " + sync_tl() + " " +
                    std::to_string(pick(0, 2)));
      return line("await " + bar(true) + " -> " + sync_tl() + " 0");
    }
    if (c == 8)
      return line("join");
    access(ring);
  }
};

} // namespace exgc::sync::testing

#endif
