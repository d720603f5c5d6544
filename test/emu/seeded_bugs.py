#!/usr/bin/env python3
"""seeded_bugs.py - does exg-emu catch synchronization bugs? (issue 24, item 6a)

Each mutant is one of exgc's generated kernels (or a scratch copy of the
runtime header exg/sm90.h or exg/runtime.h that only the mutant sees) with one
synchronization bug seeded by regular expressions: a wait, fence, commit,
arrive or cluster barrier removed, a parity flipped, a count or byte total
changed, a ring slot released early. The mutant .cu is compiled with nvcc and
the emulator's flags, linked into the emu_kernels test in place of the
example's own object, and run under `exg-emu --seed S` for S = 1..N, until a
seed reports: a hazard (exit codes 101-108, emu/support/report.h) or a wrong
result (exit 1: the kernel's output differs from the CPU reference). Every
edit asserts how often its pattern matches, so a change in exgc's output
fails the campaign instead of silently seeding nothing.

Before the mutants, every (case, size) they use runs unmutated for the same
seeds and must pass: a detection then means the bug, not the setup.

Usage: seeded_bugs.py BUILD_DIR [--seeds N] [--jobs J] [--set quick|full]
                      [--only NAME,...] [--markdown] [--check] [--work DIR]
The full set (the default) takes about 4 minutes on 2 idle cores (8 when
they are busy) and leaves its table as markdown in WORK/table.md; ctest runs
--check (every pattern, no build) and --set quick (one or two mutants of each
hazard class, about a minute). Exit status: 0 when every mutant marked
must-catch was reported, 1 otherwise (or when a control fails).
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))

HAZARDS = {
    1: "wrong result",
    101: "out-of-bounds",
    102: "deadlock",
    103: "barrier misuse",
    104: "async hazard",
    105: "register pool",
    106: "unsupported",
    107: "bad program",
    108: "internal error",
}
# Exit codes that mean the emulator reported the bug. 106 (an instruction it
# does not implement) and 108 (its own assertion) are not detections.
DETECTED = {1, 101, 102, 103, 104, 105, 107}


@dataclass(frozen=True)
class Edit:
    """Replace `pattern` (a Python regex, MULTILINE) by `repl`; it must match
    exactly `count` times, inside kernel `scope`'s body when given."""
    pattern: str
    repl: str
    count: int = 1
    scope: str = ""


@dataclass(frozen=True)
class Mutant:
    name: str
    example: str          # the generated .cu that is recompiled (build/test/emu/generated)
    case: str             # emu_kernels --only=
    what: str             # the bug, in words
    expect: str           # the hazard class a correct emulator should report
    edits: tuple          # Edit, ...
    header: str = ""      # "sm90.h" / "runtime.h": the edits apply to a scratch copy of it
    size: str = ""        # emu_kernels --size=MxNxK ("" = the test's ragged sizes)
    must_catch: bool = True
    note: str = ""        # why a miss is expected (for must_catch=False)
    quick: bool = False   # in the quick set (ctest)


# Sizes long enough in K for the shared-memory rings to wrap within one tile
# (4 stages of 32 for TF32, 6 of 64 for BF16/FP16): only then does a
# producer ever wait on a free slot, so only then can a write-after-read bug
# on the ring show.
LONG_TF32 = "130x256x320"
LONG_TF32_CLUSTER = "260x256x320"
LONG_BF16 = "130x128x576"

RAW_WAIT = (r"exg::sm90::mbarrier_wait_parity\(exg_raw_bar [^;]*"
            r"\(\(static_cast<int64_t>\(({k})\) \+ exg_raw_used - 0\)[^;]*;")
WAR_WAIT = (r"exg::sm90::mbarrier_wait_parity\(exg_war_bar [^;]*"
            r"\(\(static_cast<int64_t>\(({k})\) \+ exg_war_used - \d\)[^;]*;")
REMOVED = "/* seeded bug: removed */;"
# A warp's arrivals on both CTAs of a 2-CTA cluster (lane 0 on CTA 0, lane 1 on CTA 1), and
# the mutant that sends both to CTA 0 instead.
ARRIVE_BOTH = r"exg::sm90::mbarrier_arrive_cluster_warp_ranks\(({bar} [^;]*), 0, 2\);"
ARRIVE_CTA0_TWICE = (r"exg::sm90::mbarrier_arrive_cluster_warp(\1, 0); "
                     r"exg::sm90::mbarrier_arrive_cluster_warp(\1, 0);")
MUTANTS = [
    # ---- gemm_tf32_sm90a: TMA ring (raw: full, war: free) + wgmma ------------
    Mutant("raw_wait_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "consumer's wait on the full-slot mbarrier removed (steady loop)",
           "wrong result (wgmma reads a slot before its TMA lands)",
           (Edit(RAW_WAIT.format(k="k_3"), REMOVED),), quick=True),
    Mutant("war_wait_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "producer's wait on the free-slot mbarrier removed (steady loop)",
           "barrier misuse (the producer's next arrive lands on a phase still pending) or "
           "wrong result (TMA overwrites a slot a wgmma still reads)",
           (Edit(WAR_WAIT.format(k="k_1"), REMOVED),), size=LONG_TF32, quick=True),
    Mutant("raw_parity_flipped", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "consumer's full-slot wait with the parity flipped",
           "wrong result (the wait passes before the data lands) or deadlock (the phase "
           "completed first, and the flipped parity waits for the next one)",
           (Edit(r"exg::sm90::ring_parity_nonneg\(\((static_cast<int64_t>\(k_[23]\)) "
                 r"\+ exg_raw_used - 0\), 4\)",
                 r"(1u ^ exg::sm90::ring_parity_nonneg((\1 + exg_raw_used - 0), 4))", 2),)),
    Mutant("war_parity_flipped", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "producer's free-slot wait with the parity flipped",
           "wrong result or deadlock",
           (Edit(r"exg::sm90::ring_parity\(\((static_cast<int64_t>\((?:k|k_1)\)) "
                 r"\+ exg_war_used - 4\), 4\)",
                 r"(1u ^ exg::sm90::ring_parity((\1 + exg_war_used - 4), 4))", 2),),
           size=LONG_TF32),
    Mutant("wgmma_wait_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "wgmma.wait_group 1 removed (the slot is released while its wgmma reads it)",
           "wrong result (slot overwritten under an in-flight wgmma)",
           (Edit(r"exg::sm90::wgmma_wait_group<1>\(\);", REMOVED),), size=LONG_TF32),
    Mutant("wgmma_wait_raised", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "wgmma.wait_group 1 raised to 2",
           "wrong result (slot overwritten under an in-flight wgmma)",
           (Edit(r"exg::sm90::wgmma_wait_group<1>\(\);", "exg::sm90::wgmma_wait_group<2>();"),),
           size=LONG_TF32),
    Mutant("final_wgmma_wait_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "final wgmma.wait_group 0 removed (accumulator stored while in flight)",
           "wrong result (in-flight accumulator reads as NaN) or async hazard",
           (Edit(r"exg::sm90::wgmma_wait_group<0>\(\);", REMOVED),), quick=True),
    Mutant("wgmma_fence_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "every wgmma.fence removed (each task's first and the k-steps')",
           "async hazard (no wgmma.fence before the first wgmma.mma_async)",
           (Edit(r"exg::sm90::wgmma_fence\(\);", REMOVED, 4),)),
    Mutant("wgmma_commit_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "wgmma.commit_group removed in the steady loop (the waits count no group)",
           "wrong result (accumulator stored while in flight)",
           (Edit(r"exg::sm90::wgmma_commit_group\(\);(?=[^\n]*\n\s*exg::sm90::wgmma_wait_group<1>)",
                 REMOVED),), quick=True),
    Mutant("raw_arrive_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "producer's arrive on the full-slot mbarrier removed (steady loop)",
           "deadlock",
           (Edit(r"exg::sm90::mbarrier_arrive_warp\(exg_raw_bar [^;]*k_1[^;]*;", REMOVED),), quick=True),
    Mutant("war_arrive_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "consumer's arrive on the free-slot mbarrier removed (steady loop)",
           "deadlock",
           (Edit(r"exg::sm90::mbarrier_arrive_warp\(exg_war_bar [^;]*k_3[^;]*;", REMOVED),),
           size=LONG_TF32),
    Mutant("raw_arrive_per_lane", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "every producer lane arrives on the full-slot mbarrier counted per warp (count 1)",
           "barrier misuse (over-arrival)",
           (Edit(r"exg::sm90::mbarrier_arrive_warp\((exg_raw_bar [^;]*k_1)", r"exg::sm90::mbarrier_arrive(\1"),)),
    Mutant("raw_count_high", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "full-slot mbarrier initialized with count 2 instead of 1 (one producer warp)",
           "deadlock",
           (Edit(r"mbarrier_init\(exg_raw_bar \+ 8 \* s, 1\)", "mbarrier_init(exg_raw_bar + 8 * s, 2)"),)),
    Mutant("war_count_low", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "free-slot mbarrier initialized with count 4 instead of 8 (one warpgroup's warps free the slot)",
           "wrong result (slot overwritten while the other warpgroup reads it)",
           (Edit(r"mbarrier_init\(exg_war_bar \+ 8 \* s, 8\)", "mbarrier_init(exg_war_bar + 8 * s, 4)"),),
           size=LONG_TF32),
    Mutant("expect_tx_high", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "expect_tx 128 bytes more than the TMA box (scratch sm90.h)",
           "deadlock",
           (Edit(r"mbarrier_expect_tx\(bar, uint32_t\(Rows \* Cols \* sizeof\(T\)\)\);",
                 "mbarrier_expect_tx(bar, uint32_t(Rows * Cols * sizeof(T)) + 128u);", 2),),
           header="sm90.h", quick=True),
    Mutant("expect_tx_low", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "expect_tx 128 bytes less than the TMA box (scratch sm90.h)",
           "barrier misuse (tx-count underflow) or wrong result",
           (Edit(r"mbarrier_expect_tx\(bar, uint32_t\(Rows \* Cols \* sizeof\(T\)\)\);",
                 "mbarrier_expect_tx(bar, uint32_t(Rows * Cols * sizeof(T)) - 128u);", 2),),
           header="sm90.h"),
    Mutant("fence_mbarrier_init_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "fence.mbarrier_init removed after the mbarrier inits",
           "barrier misuse (async proxy completes tx on an unfenced init)",
           (Edit(r"exg::sm90::fence_mbarrier_init\(\);", REMOVED),), must_catch=False,
           note="benign here: no other CTA uses these mbarriers, and the __syncthreads after the "
                "inits orders them before every use in the CTA (CUTLASS fences inits only "
                "for clusters); the emulator checks the cluster case"),
    Mutant("init_syncthreads_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "__syncthreads after the mbarrier inits removed",
           "barrier misuse (uninitialized mbarrier)",
           (Edit(r"^  __syncthreads\(\);\n(?=  const int exg_warp)", ""),), quick=True),
    Mutant("war_slot_off_by_one", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "consumer frees ring element k+4 instead of k+3 (the slot it is still reading)",
           "wrong result or deadlock",
           (Edit(r"(static_cast<int64_t>\(k_3\)|\(static_cast<int64_t>\(K\) \+ 31\) / 32) "
                 r"\+ 3 \+ exg_war_used - 4",
                 r"\1 + 4 + exg_war_used - 4", 2),), size=LONG_TF32),
    Mutant("setmaxnreg_past_pool", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "consumer's setmaxnreg.inc raised from 232 to 256 (pool: 256*256 + 128*40 > 64K)",
           "register pool",
           (Edit(r"exg::sm90::setmaxnreg_inc<232>\(\);", "exg::sm90::setmaxnreg_inc<256>();"),), quick=True),
    Mutant("setmaxnreg_dec_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "producer's setmaxnreg.dec removed (the consumers' .inc cannot fit)",
           "register pool",
           (Edit(r"exg::sm90::setmaxnreg_dec<40>\(\);", REMOVED),)),
    Mutant("cluster_arrive_removed", "gemm_tf32_sm90a", "gemm_tf32_sm90a",
           "consumer's end-of-tile barrier.cluster.arrive removed",
           "barrier misuse (wait without arrive) or deadlock",
           (Edit(r"exg::sm90::cluster_arrive\(\);(?= // Arrive\(cuda_in_order\) >> cluster_sync\n"
                 r"\s*// CudaWarps\(name=\"consumer\"\): warps 4 to 12\n)", REMOVED),)),

    # ---- gemm_tf32_sm90a_tmastore: TMA store epilogue --------------------------
    Mutant("proxy_fence_removed", "gemm_tf32_sm90a_tmastore", "gemm_tf32_sm90a_tmastore",
           "fence.proxy.async removed before the TMA store of the epilogue tile",
           "async hazard (async proxy reads generic writes without fence.proxy.async)",
           (Edit(r"exg::sm90::fence_proxy_async\(\);", REMOVED),)),
    Mutant("bulk_wait_read_removed", "gemm_tf32_sm90a_tmastore", "gemm_tf32_sm90a_tmastore",
           "cp.async.bulk.wait_group.read removed (the tile is rewritten while the store reads it)",
           "async hazard (TMA-store source changed before it was read)",
           (Edit(r"exg::sm90::bulk_wait_group_read<0>\(\);", REMOVED),), quick=True),
    Mutant("store_barrier_removed", "gemm_tf32_sm90a_tmastore", "gemm_tf32_sm90a_tmastore",
           "warpgroup barrier between the tile writes and the TMA store removed",
           "async hazard (TMA-store source changed after issue)",
           (Edit(r"exg::cuda::warpgroup_sync<\d+, \d+>\(\);(?= // Fence\(cuda_in_order, cuda_generic_and_async_proxy\))",
                 REMOVED),)),
    Mutant("store_release_barrier_removed", "gemm_tf32_sm90a_tmastore", "gemm_tf32_sm90a_tmastore",
           "warpgroup barrier after the store's wait removed (next tile written too early)",
           "async hazard (TMA-store source changed before it was read)",
           (Edit(r"exg::cuda::warpgroup_sync<\d+, \d+>\(\);(?= // Fence\(cuda_in_order, cuda_in_order\))",
                 REMOVED),)),

    # ---- gemm_tf32_sm90a_cluster: 2-CTA cluster, multicast B, remote arrives --
    Mutant("remote_arrive_removed", "gemm_tf32_sm90a_cluster", "gemm_tf32_sm90a_cluster",
           "producer's remote arrive on CTA 1's full-slot mbarrier removed",
           "deadlock",
           (Edit(r"(exg::sm90::mbarrier_arrive_cluster_warp_ranks\(exg_raw_bar [^;]*), 0, 2\);", r"\1, 0, 1);",
                 2),), quick=True),
    Mutant("remote_arrive_wrong_cta", "gemm_tf32_sm90a_cluster", "gemm_tf32_sm90a_cluster",
           "producer's arrive meant for CTA 1 sent to CTA 0",
           "barrier misuse (over-arrival) or deadlock",
           (Edit(ARRIVE_BOTH.format(bar="exg_raw_bar"), ARRIVE_CTA0_TWICE, 2),), quick=True),
    Mutant("multicast_mask_self", "gemm_tf32_sm90a_cluster", "gemm_tf32_sm90a_cluster",
           "B's multicast mask narrowed to the issuing CTA",
           "deadlock (the peer's half of B never lands)",
           (Edit(r"exg::sm90::multicast_mask\(exg::sm90::cluster_ctarank\(\), 2, 1\)",
                 "uint16_t(1u << exg::sm90::cluster_ctarank())", 2),)),
    Mutant("cluster_init_sync_removed", "gemm_tf32_sm90a_cluster", "gemm_tf32_sm90a_cluster",
           "cluster barrier after the mbarrier inits removed (the peer may signal them first)",
           "barrier misuse (uninitialized mbarrier)",
           (Edit(r"^  exg::sm90::cluster_arrive\(\);\n  exg::sm90::cluster_wait\(\);\n", ""),)),
    Mutant("cluster_fence_mbarrier_init_removed", "gemm_tf32_sm90a_cluster", "gemm_tf32_sm90a_cluster",
           "fence.mbarrier_init removed (inits not released to the cluster)",
           "barrier misuse (remote arrive on an unfenced init)",
           (Edit(r"exg::sm90::fence_mbarrier_init\(\);", REMOVED),), must_catch=False,
           note="benign: the barrier.cluster.arrive.release that follows the inits releases "
                "them at cluster scope before any peer uses them, which the emulator's rule "
                "accepts as it accepts fence.mbarrier_init"),
    Mutant("cluster_tile_sync_removed", "gemm_tf32_sm90a_cluster", "gemm_tf32_sm90a_cluster",
           "end-of-tile cluster barrier removed in both roles (a CTA may exit while its peer "
           "still arrives on its mbarriers)",
           "out-of-bounds (distributed shared memory of an exited CTA)",
           (Edit(r"exg::sm90::cluster_arrive\(\);(?= // Arrive\(cuda_in_order\) >> cluster_sync)", REMOVED, 2),
            Edit(r"exg::sm90::cluster_wait\(\);(?= // Await\(cluster_sync, cuda_in_order, 0\))", REMOVED, 2)),
           ),
    Mutant("remote_war_arrive_removed", "gemm_tf32_sm90a_cluster", "gemm_tf32_sm90a_cluster",
           "consumer's remote arrive on CTA 1's free-slot mbarrier removed (steady loop)",
           "deadlock",
           (Edit(r"(exg::sm90::mbarrier_arrive_cluster_warp_ranks\(exg_war_bar [^;]*k_3[^;]*), 0, 2\);",
                 r"\1, 0, 1);"),),
           size=LONG_TF32_CLUSTER),

    # ---- gemm_hopper: other tiles and element types ---------------------------
    Mutant("bf16_raw_wait_removed", "gemm_hopper", "gemm_bf16_128x128",
           "bf16 128x128 (6-stage ring): consumer's full-slot wait removed",
           "wrong result",
           (Edit(RAW_WAIT.format(k="k_3"), REMOVED, scope="gemm_bf16_128x128_kernel0"),)),
    Mutant("bf16_war_wait_removed", "gemm_hopper", "gemm_bf16_128x128",
           "bf16 128x128 (6-stage ring): producer's free-slot wait removed",
           "barrier misuse (over-arrival) or wrong result",
           (Edit(WAR_WAIT.format(k="k_1"), REMOVED, scope="gemm_bf16_128x128_kernel0"),),
           size=LONG_BF16),
    Mutant("f16_final_wait_removed", "gemm_hopper", "gemm_f16_128x256",
           "f16 128x256: final wgmma.wait_group 0 removed",
           "wrong result (in-flight accumulator)",
           (Edit(r"exg::sm90::wgmma_wait_group<0>\(\);", REMOVED, scope="gemm_f16_128x256_kernel0"),)),
    Mutant("tf32_2x1_multicast_wrong", "gemm_hopper", "gemm_tf32_128x256_2x1",
           "tf32 128x256 2x1 cluster: multicast mask sent to the peer only",
           "deadlock or wrong result",
           (Edit(r"exg::sm90::multicast_mask\(exg::sm90::cluster_ctarank\(\), 2, 1\)",
                 "uint16_t(1u << (exg::sm90::cluster_ctarank() ^ 1u))", 2,
                 scope="gemm_tf32_128x256_2x1_kernel0"),)),
    Mutant("tf32_2x1_war_arrive_wrong_cta", "gemm_hopper", "gemm_tf32_128x256_2x1",
           "tf32 128x256 2x1 cluster: consumer's free-slot arrive for CTA 1 sent to CTA 0",
           "barrier misuse (over-arrival) or deadlock",
           (Edit(ARRIVE_BOTH.format(bar="exg_war_bar"), ARRIVE_CTA0_TWICE, 2,
                 scope="gemm_tf32_128x256_2x1_kernel0"),), size=LONG_TF32_CLUSTER),

    # ---- gemm_sm80: __syncthreads around the shared tiles ---------------------
    Mutant("sm80_load_barrier_removed", "gemm_sm80", "gemm_sm80",
           "__syncthreads between the tile loads and their reads removed",
           "wrong result (tile read before another warp wrote it)",
           (Edit(r"__syncthreads\(\);(?= // Fence\(cuda_in_order, cuda_in_order\)\n\s*// for mt)", REMOVED),),
           quick=True),
    Mutant("sm80_reuse_barrier_removed", "gemm_sm80", "gemm_sm80",
           "__syncthreads at the end of the k-step removed (next tile overwrites one still read)",
           "wrong result",
           (Edit(r"__syncthreads\(\);(?= // Fence\(cuda_in_order, cuda_in_order\)\n\s*\}\n)", REMOVED),)),

    # ---- gemv_f32: warp shuffles (scratch runtime.h) --------------------------
    Mutant("shfl_mask_one_lane", "gemv_f32", "gemv_f32",
           "butterfly shuffle mask narrowed to the calling lane (its partner is not in the mask)",
           "barrier misuse (source lane outside the mask) or wrong result",
           (Edit(r"return \(1u \| 1u << l\) << \(lane & \(31u & ~l\)\);", "return 1u << lane;"),),
           header="runtime.h"),
    Mutant("shfl_mask_half_warp", "gemv_f32", "gemv_f32",
           "shuffle mask narrowed to lanes 0-15 while all 32 lanes shuffle",
           "barrier misuse (a lane outside its own mask)",
           (Edit(r"return \(1u \| 1u << l\) << \(lane & \(31u & ~l\)\);", "return 0x0000ffffu;"),),
           header="runtime.h"),

    # ---- gemv_f32x4: the 16-byte load (scratch runtime.h) ---------------------
    Mutant("load_f32x4_misaligned", "gemv_f32", "gemv_f32x4",
           "the vector load starts one float past the window (not 16-byte aligned)",
           "misaligned access",
           (Edit(r"reinterpret_cast<const float4 \*>\(src\.data\)", "reinterpret_cast<const float4 *>(src.data + 1)"),),
           header="runtime.h", quick=True),
    Mutant("load_f32x4_lane_repeated", "gemv_f32", "gemv_f32x4",
           "the vector load's second register gets the first lane's value",
           "wrong result",
           (Edit(r"dst\.data\[1\] = v\.y;", "dst.data[1] = v.x;"),),
           header="runtime.h"),
]


# ---- Applying edits ---------------------------------------------------------------

def scope_span(text, kernel):
    """The body of __global__ `kernel`: from its name to the first '}' in column 0."""
    m = re.search(r"^" + re.escape(kernel) + r"\(", text, re.M)
    if not m:
        raise ValueError("kernel %s not found" % kernel)
    end = text.find("\n}\n", m.end())
    if end < 0:
        raise ValueError("end of kernel %s not found" % kernel)
    return m.start(), end + 2


def apply_edits(text, edits, what):
    for e in edits:
        lo, hi = scope_span(text, e.scope) if e.scope else (0, len(text))
        part = text[lo:hi]
        found = len(re.findall(e.pattern, part, re.M))
        if found != e.count:
            raise ValueError("%s: /%s/ matches %d time(s)%s, expected %d" %
                             (what, e.pattern, found, " in " + e.scope if e.scope else "", e.count))
        text = text[:lo] + re.sub(e.pattern, e.repl, part, flags=re.M) + text[hi:]
    return text


# ---- Building and running ---------------------------------------------------------

@dataclass
class Setup:
    build: str
    exg_emu: str
    nvcc: str
    nvcc_flags: list
    gen: str
    objects: list          # every object of emu_kernels
    link: list             # linker arguments after the objects
    cxx: str
    keep: bool
    work: str
    seeds: int
    timeout: int


def find_setup(args):
    build = os.path.abspath(args.build_dir)
    exg_emu = os.path.join(build, "bin", "exg-emu")
    gen = os.path.join(build, "test", "emu", "generated")
    objdir = os.path.join(build, "test", "emu", "CMakeFiles", "emu_kernels.dir")
    for p in (exg_emu, gen, objdir):
        if not os.path.exists(p):
            sys.exit("seeded_bugs: %s is missing: build exg-emu and emu_kernels first" % p)
    nvcc = args.nvcc or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not os.path.exists(nvcc):
        sys.exit("seeded_bugs: no nvcc (give --nvcc)")
    cuda_lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))), "lib64")
    flags = subprocess.run([exg_emu, "--nvcc-flags"], check=True, capture_output=True,
                           text=True).stdout.split()
    objects = []
    for root, _, files in os.walk(objdir):
        objects += [os.path.join(root, f) for f in files if f.endswith(".o")]
    objects += [os.path.join(gen, f) for f in os.listdir(gen) if f.endswith(".o")]
    if args.emu_kernels_object:
        objects = [o for o in objects if not o.endswith(os.sep + "emu_kernels.cpp.o")]
        objects.append(os.path.abspath(args.emu_kernels_object))
    work = os.path.abspath(args.work or os.path.join(build, "test", "emu", "seeded_bugs"))
    os.makedirs(work, exist_ok=True)
    return Setup(build, exg_emu, nvcc, flags, gen, sorted(objects),
                 ["-Wl,-rpath," + cuda_lib, os.path.join(cuda_lib, "libcudart.so")],
                 args.cxx, args.keep, work, args.seeds, args.timeout)


def run_quiet(cmd, what, timeout=None, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (what, r.returncode, r.stdout[-2000:], r.stderr[-4000:]))


def build_mutant(s, m):
    """Writes, compiles and links mutant `m`; returns its executable."""
    d = os.path.join(s.work, m.name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    src = os.path.join(s.gen, m.example + ".cu")
    with open(src) as f:
        text = f.read()
    includes = []
    if m.header:
        scratch = os.path.join(d, "include", "exg")
        shutil.copytree(os.path.join(SOURCE_ROOT, "runtime", "include", "exg"), scratch)
        hp = os.path.join(scratch, m.header)
        with open(hp) as f:
            htext = f.read()
        with open(hp, "w") as f:
            f.write(apply_edits(htext, m.edits, m.name + " (" + m.header + ")"))
        includes.append("-I" + os.path.join(d, "include"))
    else:
        text = apply_edits(text, m.edits, m.name)
    cu = os.path.join(d, m.example + ".cu")
    with open(cu, "w") as f:
        f.write(text)
    obj = os.path.join(d, m.example + ".o")
    run_quiet([s.nvcc] + s.nvcc_flags + ["-std=c++17"] + includes +
              ["-I" + os.path.join(SOURCE_ROOT, "runtime", "include"), "-I" + s.gen,
               "-c", cu, "-o", obj], "nvcc " + m.name)
    exe = os.path.join(d, "emu_kernels")
    original = os.path.join(s.gen, m.example + ".o")
    objs = [o for o in s.objects if o != original] + [obj]
    run_quiet([s.cxx, "-o", exe] + objs + s.link, "link " + m.name)
    return exe


def run_seeds(s, exe, case, size):
    """Runs seeds 1..N until one exits nonzero: (seed, rc, report line) or (None, 0, "")."""
    for seed in range(1, s.seeds + 1):
        cmd = [s.exg_emu, "--seed", str(seed), "--", exe, "--only=" + case]
        if size:
            cmd.append("--size=" + size)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=s.timeout)
        except subprocess.TimeoutExpired:
            return seed, -1, "timed out after %d s" % s.timeout
        if r.returncode != 0:
            out = (r.stderr + r.stdout).splitlines()
            lines = [l for l in out if l.startswith("exg-emu:") or l.startswith("FAIL")]
            detail = lines[0] if lines else (r.stderr or r.stdout).strip()[-300:]
            # A deadlock lists every blocked thread: show one that waits on an mbarrier.
            waits = [l.strip() for l in out if l.startswith("    ")]
            if waits:
                detail += " " + next((w for w in waits if "mbarrier" in w), waits[0])
            return seed, r.returncode, detail
    return None, 0, ""


@dataclass
class Result:
    mutant: Mutant
    seed: object = None
    rc: int = 0
    detail: str = ""
    error: str = ""
    build_s: float = 0.0
    run_s: float = 0.0

    @property
    def caught(self):
        return not self.error and self.seed is not None and self.rc in DETECTED

    def outcome(self):
        if self.error:
            return "ERROR: " + self.error.splitlines()[0]
        if self.seed is None:
            return "MISSED"
        kind = HAZARDS.get(self.rc, "exit %d" % self.rc) if self.rc >= 0 else "timeout"
        tag = "" if self.rc in DETECTED else " (not a detection)"
        if self.caught and not self.mutant.must_catch:
            tag = " (caught, though not required: mark it must-catch)"
        return "seed %d: %s (exit %d)%s" % (self.seed, kind, self.rc, tag)


def run_mutant(s, m):
    t0 = time.time()
    res = Result(m)
    try:
        exe = build_mutant(s, m)
        res.build_s = time.time() - t0
        res.seed, res.rc, res.detail = run_seeds(s, exe, m.case, m.size)
        if not s.keep: # the mutant .cu stays, for reading
            for f in (exe, os.path.join(os.path.dirname(exe), m.example + ".o")):
                os.remove(f)
    except (RuntimeError, ValueError, subprocess.SubprocessError) as e:
        res.error = str(e)
    res.run_s = time.time() - t0 - res.build_s
    return res


def base_exe(s):
    exe = os.path.join(s.work, "base_emu_kernels")
    run_quiet([s.cxx, "-o", exe] + s.objects + s.link, "link of the unmutated emu_kernels")
    return exe


def check_patterns(build, chosen):
    gen = os.path.join(build, "test", "emu", "generated")
    bad = 0
    for m in chosen:
        path = (os.path.join(SOURCE_ROOT, "runtime", "include", "exg", m.header) if m.header
                else os.path.join(gen, m.example + ".cu"))
        try:
            with open(path) as f:
                apply_edits(f.read(), m.edits, m.name)
        except (OSError, ValueError) as e:
            print("seeded_bugs: %s" % e)
            bad += 1
    print("%d of %d mutants' edits match as expected" % (len(chosen) - bad, len(chosen)))
    return 1 if bad else 0


# ---- Output ---------------------------------------------------------------------------

def table(results, markdown):
    rows = []
    for r in results:
        m = r.mutant
        where = m.case + (" " + m.size if m.size else "")
        status = r.outcome()
        if not r.caught and not m.must_catch and m.note:
            status += ": " + m.note
        rows.append((m.name, where, m.what, m.expect, "yes" if m.must_catch else "no", status,
                     r.detail, "build %.0f s, run %.0f s" % (r.build_s, r.run_s)))
    if markdown:
        out = ["| # | mutant | kernel (size) | seeded bug | expected | must catch | result | report |",
               "|---|---|---|---|---|---|---|---|"]
        for i, row in enumerate(rows, 1):
            cells = [c.replace("|", "\\|") for c in row[:7]]
            cells[6] = "`" + cells[6][:160] + "`" if cells[6] else ""
            out.append("| %d | %s |" % (i, " | ".join(cells)))
        return "\n".join(out)
    out = []
    for i, row in enumerate(rows, 1):
        out.append("%2d. %-36s %-34s must=%-3s %s" % (i, row[0], row[1], row[4], row[5]))
        out.append("      %s%s" % (row[7], ": " + row[6][:200] if row[6] else ""))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N per mutant (default 5)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants built and run at once (default 2)")
    ap.add_argument("--set", choices=("quick", "full"), default="full",
                    help="quick: the mutants marked quick (ctest); full: all (default)")
    ap.add_argument("--only", default="", help="comma-separated mutant names")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--check", action="store_true",
                    help="only check that every edit matches the generated sources as expected")
    ap.add_argument("--work", default="", help="scratch folder (default BUILD/test/emu/seeded_bugs)")
    ap.add_argument("--keep", action="store_true",
                    help="keep each mutant's object and executable (else only its .cu)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per emulated run")
    ap.add_argument("--nvcc", default="")
    ap.add_argument("--cxx", default="c++", help="the C++ compiler that links (default c++)")
    ap.add_argument("--emu-kernels-object", default="",
                    help="an emu_kernels.cpp.o to link instead of the build's")
    args = ap.parse_args()

    chosen = [m for m in MUTANTS if args.set == "full" or m.quick]
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {m.name for m in MUTANTS}
        if unknown:
            sys.exit("seeded_bugs: no mutant named %s" % ", ".join(sorted(unknown)))
        chosen = [m for m in MUTANTS if m.name in names]
    if args.list:
        for m in chosen:
            print("%-34s %-26s %s" % (m.name, m.case, m.what))
        return 0
    assert len({m.name for m in MUTANTS}) == len(MUTANTS), "mutant names must be unique"

    if args.check:
        return check_patterns(os.path.abspath(args.build_dir), chosen)

    s = find_setup(args)
    t0 = time.time()
    # Controls: the unmutated kernels at the same cases and sizes pass every seed.
    exe = base_exe(s)
    controls = sorted({(m.case, m.size) for m in chosen})
    failed_controls = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for (case, size), (seed, rc, detail) in zip(
                controls, pool.map(lambda cs: run_seeds(s, exe, cs[0], cs[1]), controls)):
            if seed is not None:
                failed_controls.append("%s %s: seed %d exit %d: %s" % (case, size, seed, rc, detail))
    if failed_controls:
        print("seeded_bugs: the unmutated kernels fail, so the table would mean nothing:")
        print("\n".join("  " + f for f in failed_controls))
        return 1

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda m: run_mutant(s, m), chosen))

    print(table(results, args.markdown))
    with open(os.path.join(s.work, "table.md"), "w") as f:
        f.write(table(results, True) + "\n")
    must_missed = [r for r in results if r.mutant.must_catch and not r.caught]
    caught = sum(r.caught for r in results)
    print("\n%d of %d mutants reported within %d seed(s); %d must-catch missed; %d control(s) "
          "passed; %.0f s" % (caught, len(results), s.seeds, len(must_missed), len(controls),
                              time.time() - t0))
    for r in results:
        if r.error:
            print("\n%s: %s" % (r.mutant.name, r.error))
    return 1 if must_missed else 0


if __name__ == "__main__":
    sys.exit(main())
