// exg_syncbench.cpp - time the sync checker on the Hopper GEMM -------------//
//
// exg-syncbench [--sizes=1024,2048,...] [--mutate] [--mutate-size=N] [--repeat=N]
//               [--shape=I] [--verbose] [--engine=fast|oracle] [--no-replay]
//               [--emit=TILE,CLUSTER,SIZE]
//
// For each configuration (CTA tile 128x256 and 256x192, clusters 1x1 and 2x1)
// and size, builds the GEMM's sync program, checks it and prints
//   gemm tile=128x256 cluster=1x1 size=4096 accesses=N hazards=0 seconds=S
// With --mutate it also seeds each bug of the set (every sync statement
// deleted in turn, each Await's N one too large, a ring slot off by one, no
// final arrive, wrong fence and await timelines, split-K overlap) into every
// configuration at --mutate-size and prints `mutations caught=K total=T`.
// --no-replay runs every task in full (no task replay, see
// compiler/sync/task_replay.h): the engine's own cost per operation.
// Exit codes: 0 when the correct GEMMs pass and every mutation is caught,
// 1 otherwise, 2 on bad usage.
#include "gemm_program.h"

#include "compiler/sync/check.h"
#include "compiler/sync/text_format.h"

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

using namespace exgc;
using namespace exgc::sync;
using exgc::bench::GemmConfig;

namespace {

struct Shape {
  int tile_m, tile_n, cluster_m;
};
const Shape kShapes[] = {{128, 256, 1}, {128, 256, 2}, {256, 192, 1}, {256, 192, 2}};

std::vector<int64_t> parse_sizes(const std::string &s) {
  std::vector<int64_t> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    v.push_back(std::stoll(item));
  return v;
}

struct Outcome {
  CheckResult res;
  double seconds;
};

bool g_replay = true;

Outcome run(const GemmConfig &cfg, EngineKind engine) {
  bench::GemmProgram g = bench::build_gemm_program(cfg);
  CheckOptions opts;
  opts.engine = engine;
  opts.replay_tasks = g_replay;
  opts.explain = false;
  // CPU time of this thread: the machine is shared, and the target is "one core".
  auto cpu = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
  };
  double t0 = cpu();
  CheckResult r = check_program(g.program, opts);
  double t1 = cpu();
  return {std::move(r), t1 - t0};
}

std::string shape_name(const Shape &s) {
  return "tile=" + std::to_string(s.tile_m) + "x" + std::to_string(s.tile_n) +
         " cluster=" + std::to_string(s.cluster_m) + "x1";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<int64_t> sizes{1024, 2048, 4096, 8192};
  bool mutate = false, verbose = false;
  int only_shape = -1; // index into kShapes; -1: all
  int repeat = 1;       // runs per size; the fastest is reported (shared machines)
  int64_t mutate_size = 512;
  EngineKind engine = EngineKind::Fast;
  std::string emit;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--sizes=", 0) == 0)
      sizes = parse_sizes(a.substr(8));
    else if (a.rfind("--shape=", 0) == 0)
      only_shape = std::stoi(a.substr(8));
    else if (a.rfind("--repeat=", 0) == 0)
      repeat = std::max(1, std::stoi(a.substr(9)));
    else if (a == "--verbose")
      verbose = true;
    else if (a == "--mutate")
      mutate = true;
    else if (a.rfind("--mutate-size=", 0) == 0)
      mutate_size = std::stoll(a.substr(14));
    else if (a == "--engine=oracle")
      engine = EngineKind::Oracle;
    else if (a == "--engine=fast")
      engine = EngineKind::Fast;
    else if (a == "--no-replay")
      g_replay = false;
    else if (a.rfind("--emit=", 0) == 0)
      emit = a.substr(7);
    else {
      std::cerr << "exg-syncbench: error: unknown option '" << a << "'\n";
      return 2;
    }
  }
  if (!emit.empty()) {
    GemmConfig cfg;
    if (std::sscanf(emit.c_str(), "%dx%d,%d,%ld", &cfg.tile_m, &cfg.tile_n, &cfg.cluster_m,
                    &cfg.size) != 4) {
      std::cerr << "exg-syncbench: error: --emit=TMxTN,CLUSTER_M,SIZE\n";
      return 2;
    }
    std::cout << print_program(bench::build_gemm_program(cfg).program);
    return 0;
  }

  bool all_ok = true;
  for (const Shape &sh : kShapes) {
    if (only_shape >= 0 && &sh != &kShapes[only_shape])
      continue;
    double first_s = 0, first_events = 0;
    for (int64_t size : sizes) {
      GemmConfig cfg;
      cfg.tile_m = sh.tile_m;
      cfg.tile_n = sh.tile_n;
      cfg.cluster_m = sh.cluster_m;
      cfg.size = size;
      Outcome o = run(cfg, engine);
      for (int r = 1; r < repeat; ++r) {
        Outcome again = run(cfg, engine);
        o.seconds = std::min(o.seconds, again.seconds);
      }
      std::printf("gemm %s size=%ld accesses=%lu hazards=%d seconds=%.3f\n",
                  shape_name(sh).c_str(), static_cast<long>(size),
                  static_cast<unsigned long>(o.res.stats.accesses), o.res.ok ? 0 : 1, o.seconds);
      if (verbose)
        std::printf("  events=%lu elements=%lu records=%lu max_live_records=%lu max_regions=%lu "
                    "scanned=%lu scans=%lu visited=%lu awaits=%lu waiters_visited=%lu "
                    "subscribers_visited=%lu replayed_tasks=%lu\n",
                    (unsigned long)o.res.stats.events, (unsigned long)o.res.stats.elements,
                    (unsigned long)o.res.fast.records_created,
                    (unsigned long)o.res.fast.max_live_records,
                    (unsigned long)o.res.fast.max_regions, (unsigned long)o.res.fast.scanned,
                    (unsigned long)o.res.fast.scans, (unsigned long)o.res.fast.visited,
                    (unsigned long)o.res.fast.awaits, (unsigned long)o.res.fast.waiters_visited,
                    (unsigned long)o.res.fast.subscribers_visited,
                    (unsigned long)o.res.stats.replayed_tasks);
      if (!o.res.ok) {
        all_ok = false;
        std::printf("  unexpected hazard: %s\n", o.res.hazard.summary().c_str());
      }
      if (size == sizes.front()) {
        first_s = o.seconds;
        first_events = static_cast<double>(o.res.stats.events);
      } else if (size == sizes.back()) {
        std::printf("  growth %ld->%ld: time x%.1f, tile-level operations x%.1f\n",
                    static_cast<long>(sizes.front()), static_cast<long>(size),
                    o.seconds / std::max(first_s, 1e-9),
                    static_cast<double>(o.res.stats.events) / std::max(first_events, 1.0));
      }
      std::fflush(stdout);
    }
  }

  if (!mutate)
    return all_ok ? 0 : 1;

  int caught = 0, total = 0;
  for (const Shape &sh : kShapes) {
    GemmConfig base;
    base.tile_m = sh.tile_m;
    base.tile_n = sh.tile_n;
    base.cluster_m = sh.cluster_m;
    base.size = mutate_size;
    bench::GemmProgram g0 = bench::build_gemm_program(base);
    std::vector<std::pair<std::string, GemmConfig>> muts;
    for (int i = 0; i < g0.num_sync; ++i) {
      GemmConfig c = base;
      c.delete_sync = i;
      muts.push_back({"delete " + g0.sync_names[i], c});
    }
    for (int i = 0; i < g0.num_awaits; ++i) {
      GemmConfig c = base;
      c.bump_await = i;
      muts.push_back({"await N+1 #" + std::to_string(i), c});
    }
    auto add = [&](const char *name, bool GemmConfig::*flag) {
      GemmConfig c = base;
      c.*flag = true;
      muts.push_back({name, c});
    };
    add("ring slot off by one", &GemmConfig::ring_off_by_one);
    add("missing final arrive", &GemmConfig::no_final_arrive);
    add("wrong fence timeline", &GemmConfig::wrong_fence_tl);
    add("wrong await timeline", &GemmConfig::wrong_await_tl);
    add("split-K overlap", &GemmConfig::split_k);
    for (auto &[name, cfg] : muts) {
      Outcome o = run(cfg, engine);
      ++total;
      if (!o.res.ok)
        ++caught;
      std::printf("  %s %-28s %s\n", shape_name(sh).c_str(), name.c_str(),
                  o.res.ok ? "MISSED" : o.res.hazard.summary().c_str());
    }
  }
  std::printf("mutations caught=%d total=%d\n", caught, total);
  return all_ok && caught == total ? 0 : 1;
}
