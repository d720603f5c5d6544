// gemm_program.h - the sync program of the Hopper TF32 GEMM ---------------//
//
// Builds, in C++, the abstract-machine program of Exo-GPU's Hopper
// TF32 GEMM: per task one cluster tile; a
// producer warp per CTA loads A and B tiles with TMA into a 4-deep mbarrier
// ring (B multicast across a 2x1 cluster); two consumer warpgroups per CTA
// run wgmma with a commit group each, retire the previous group and free its
// slot; a drain, a cluster barrier and the register epilogue. Options seed
// the bugs exg-syncbench --mutate must catch.
#ifndef EXGC_BENCH_SYNC_GEMM_PROGRAM_H
#define EXGC_BENCH_SYNC_GEMM_PROGRAM_H

#include "compiler/sync/program.h"

#include <string>

namespace exgc::bench {

struct GemmConfig {
  int tile_m = 128, tile_n = 256; ///< CTA tile
  int cluster_m = 1;              ///< CTAs per cluster along M (B is multicast)
  int64_t size = 1024;            ///< M = N = K
  int ring = 4;
  int k_tile = 32;

  // Seeded bugs.
  int delete_sync = -1;      ///< delete the i-th sync statement (construction order)
  int bump_await = -1;       ///< make the i-th Await's N one larger
  bool ring_off_by_one = false; ///< producer fills A slot (k + 1) % ring
  bool no_final_arrive = false; ///< drop the drain's Arrive on war
  bool wrong_fence_tl = false;  ///< wgmma fence as cuda_in_order -> cuda_in_order
  bool wrong_await_tl = false;  ///< consumer awaits raw with cuda_in_order
  bool split_k = false;         ///< two tasks per tile, each storing C (non-atomic)
};

struct GemmProgram {
  sync::Program program;
  int num_sync = 0;   ///< sync statements built (for delete_sync)
  int num_awaits = 0; ///< Await statements built (for bump_await)
  std::vector<std::string> sync_names; ///< a short name per sync statement
};

GemmProgram build_gemm_program(const GemmConfig &cfg);

} // namespace exgc::bench

#endif
