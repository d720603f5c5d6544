// random_array_program.h - random programs walking long barrier arrays ---//
//
// Generates programs shaped like a pipelined kernel's main loop
// (bench/sync/gen_sync_scaling.py barriers N, randomized): a seq loop over
// the elements of barrier arrays of 6 to 16 elements, in which a few roles
// (thread boxes) access a buffer row per element and shared tiles, arrive on
// the loop's element, on later ones or on the whole array (multicast, so that
// an element's counts can go down), several times per element, and await
// elements a few steps back with random counts. They aim at the fast
// engine's arrive streams (compiler/sync/arrive_streams.h): records seen in
// full by a role's Arrives, awaited element by element, by several roles and
// sync-tls, in and out of order, with arrays freed or left alive at the end
// of a task that may be replayed.
#ifndef EXGC_TEST_UNIT_SYNC_RANDOM_ARRAY_PROGRAM_H
#define EXGC_TEST_UNIT_SYNC_RANDOM_ARRAY_PROGRAM_H

#include "program_writer.h"

#include <algorithm>
#include <string>
#include <vector>

namespace exgc::sync::testing {

class RandomArrayProgram : ProgramWriter {
public:
  explicit RandomArrayProgram(uint32_t seed) : ProgramWriter(seed) {}

  std::string generate() {
    os_.str("");
    n_ = pick(6, 16); // the oracle pays per element and per pending entry
    // Two thirds are disciplined: the whole task fences between most
    // statements, so that many run to the end (frees, replays, the drain).
    disciplined_ = pick(0, 2) != 0;
    const std::string ns = std::to_string(n_);
    const int tasks = pick(1, 3);
    line("data out[" + std::to_string(2 * tasks) + ", 4]");
    open("device [1, 64]");
    open("tasks t in 0.." + std::to_string(tasks));
    line("data buf[" + ns + ", 4]");
    line("data acc[4]");
    line("barrier a[" + ns + "] checked");
    line("barrier g[" + ns + "] commit_group");
    line("barrier m[" + ns + "] mbarrier");
    line("data pipe[" + ns + ", 4]");
    line("barrier p[" + ns + "] checked");
    // Two to four roles: disjoint or overlapping boxes of the 64 threads.
    roles_.clear();
    for (int r = pick(2, 4); r > 0; --r) {
      const int width = 1 << pick(3, 5);
      roles_.push_back("threads w in 0..1 dim=1 width=" + std::to_string(width) +
                       " offset=" + std::to_string(width * pick(0, 64 / width - 1)));
    }
    in_role(pick(0, 1), [&] { line("write acc[:] q=cuda1 conv"); });
    open("seq k in 0.." + ns);
    // The mbarrier element of the iteration: one producer Arrive, awaited or not.
    const int prod = pick(0, static_cast<int>(roles_.size()) - 1);
    in_role(prod, [&] {
      line("write buf[k, :] q=tmaS ext={tmaS,async} ooo >> m[k]");
      line("arrive cuda_temporal >> m[k]");
    });
    if (pick(0, 1))
      pipeline();
    for (int i = pick(3, 10); i > 0; --i) {
      if (disciplined_ && pick(0, 9) < 6)
        line("fence cuda_stream_sync -> cuda_stream_sync");
      in_role(pick(0, static_cast<int>(roles_.size()) - 1), [&] { body(); });
    }
    if (disciplined_)
      line("fence cuda_stream_sync -> cuda_stream_sync");
    close();
    // Drain: the last elements awaited, the results read.
    in_role(pick(0, static_cast<int>(roles_.size()) - 1), [&] {
      line("await g[" + ns + " - 1] -> " + sync_tl() + " 0");
      line("await a[" + ns + " - 1] -> " + sync_tl() + " 0");
      line("read acc[:] q=cuda1 conv");
    });
    if (pick(0, 3))
      line("fence cuda_in_order -> cuda_in_order");
    in_role(0, [&] { line("write out[2 * t:2 * t + 2, :] q=cuda2 ext={cuda2} conv"); });
    // Frees in a random order; sometimes the arrays stay alive (their
    // pending entries would stop a replay, but a second task could not
    // allocate them again).
    std::vector<std::string> frees = {"free buf check={cuda1}", "free acc", "free pipe"};
    if (tasks > 1 || pick(0, 3))
      frees.insert(frees.end(), {"free a", "free g", "free m", "free p"});
    for (size_t i = frees.size() - 1; i > 0; --i)
      std::swap(frees[i], frees[pick(0, static_cast<int>(i))]);
    for (const std::string &f : frees)
      line(f);
    close();
    close();
    line("join");
    line("fence cuda_stream_sync -> cuda_stream_sync");
    if (pick(0, 1))
      line("read out[:, :] q=cpu ext={cpu,strm,cuda2} conv");
    return os_.str();
  }

private:
  int n_ = 8;
  bool disciplined_ = false;
  std::vector<std::string> roles_;

  template <typename Fn> void in_role(int r, Fn fn) {
    open(roles_[static_cast<size_t>(r)]);
    fn();
    close();
  }
  std::string sync_tl() {
    static const char *const t[] = {"cuda_in_order", "cuda_temporal",
                                    "cuda_generic_and_async_proxy", "wgmma_async",
                                    "tma_to_smem_async", "wgmma_fence_1"};
    return t[pick(0, 5)];
  }
  // An element of the loop: this one, a later one (wrapping) or an earlier one.
  std::string elem() {
    const int d = pick(0, 3);
    if (d == 0)
      return "k";
    return pick(0, 1) ? "(k + " + std::to_string(d) + ") % " + std::to_string(n_)
                      : "(k + " + std::to_string(n_ - d) + ") % " + std::to_string(n_);
  }
  std::string arr() { return pick(0, 1) ? "a" : "g"; }

  // A producer writes the element's row in steps, arriving after each (the
  // counts 0, 1, ...); a consumer awaits the element with a count bound that
  // covers all steps or not (a race only the Await's count decides) and reads
  // the row. Each step's record subscribes at the Arrive right after it.
  void pipeline() {
    const int steps = pick(2, 4), prod = pick(0, static_cast<int>(roles_.size()) - 1);
    const std::string tl = pick(0, 3) ? "cuda_in_order" : "cuda_temporal";
    in_role(prod, [&] {
      open("seq j in 0.." + std::to_string(steps));
      line("write pipe[k, j] q=cuda1");
      line("arrive " + tl + " >> p[k]" + (pick(0, 5) ? "" : " >> p[:]"));
      close();
    });
    in_role(pick(0, static_cast<int>(roles_.size()) - 1), [&] {
      line("await p[k] -> cuda_in_order " + std::to_string(pick(0, 3) ? 0 : pick(1, steps)));
      line("read pipe[k, :] q=cuda1");
    });
  }

  void body() {
    const int c = pick(0, 11);
    if (c < 4) {
      static const char *const kinds[] = {"read", "write", "update"};
      static const char *const quals[] = {"{wgS,async}", "{wgD,wg0}", "{cuda1}", "{tmaS,async}"};
      const int q = pick(0, 3);
      const std::string qs = quals[q];
      const std::string kind = disciplined_ && pick(0, 1) ? "read" : kinds[pick(0, 2)];
      std::string s = kind + " " +
                      (pick(0, 2) ? "buf[" + elem() + ", :]" : std::string("acc[:]")) +
                      " q=" + qs.substr(1, qs.find_first_of(",}") - 1) + " ext=" + qs;
      if (pick(0, 2) == 0)
        s += " ooo";
      if (pick(0, 1))
        s += " conv";
      if (pick(0, 3) == 0)
        s += " >> " + arr() + "[" + elem() + "]";
      return line(s);
    }
    if (c < 7) {
      const std::string a = arr();
      std::string s = "arrive " + sync_tl() + " >> " + a + "[" + elem() + "]";
      if (pick(0, 7) == 0)
        s += " >> " + a + "[:]"; // multicast: every element gets the home's count
      if (pick(0, 2) == 0) { // several Arrives per element
        open("seq j in 0.." + std::to_string(pick(2, 3)));
        line(s);
        close();
        return;
      }
      return line(s);
    }
    if (c < 10) {
      const int d = pick(0, 3);
      const std::string e = d == 0 ? "k" : "k - " + std::to_string(d);
      const std::string a = pick(0, 3) ? arr() : "m";
      const std::string s =
          "await " + a + "[" + e + "] -> " + sync_tl() + " " + std::to_string(pick(0, 2));
      if (d == 0 && a != "m")
        return line(s);
      open("if k >= " + std::to_string(std::max(d, 1)));
      line(s);
      close();
      return;
    }
    if (c == 10)
      return line("fence " + sync_tl() + " -> " + sync_tl());
    line(pick(0, 3) ? "fence wgmma_fence_1 -> wgmma_fence_2" : "join");
  }
};

} // namespace exgc::sync::testing

#endif
