#!/usr/bin/env python3
"""warpspec_random.py - does the sync checker accept only programs that run right?

Each case is a random small warp-specialized kernel in .exg (a fifth of them on
2-CTA clusters with remote arrives and the cluster's split barrier, see
generate_cluster; a fifth pipelined wgmma tile GEMMs, see generate_wgmma):
a producer copies
K rows per task (with its threads, or with TMA into a swizzled tile) into a
ring of S shared-memory slots guarded by a `full` mbarrier ring of depth R
(and, when generated, an `empty` ring the producer awaits, pre-arrived R
times), a consumer copies them on; persistent tasks; the roles as warp roles
or as a warp loop. Random choices drop or keep each Await, the free-slot
Arrive, the task's closing Fence and the empty ring, let the consumer (not
the TMA's issuer) make the full Arrive, await the TMA on the generic proxy
only, and pick R, S, K, the tasks and the declared check size.

The checker's verdict (`exgc --verify`, with its derived sizes) is compared
with an independent judgement: the kernel exgc writes for an accepted case is
compiled with nvcc for the emulator and run under `exg-emu` with 1 and 2 SMs
(every CTA runs several tasks, so barriers and slots carry over) and two
seeds, at the declared sizes and at larger ones. An accepted case must run
clean with the right result on every run (else: UNSOUND). A refused case must
be refused with an error at a line of the kernel (else: UNEXPLAINED).

Usage: warpspec_random.py BUILD_DIR --nvcc NVCC [--count N] [--seed S]
                          [--work DIR] [--verbose] [--gpu DIR]
--gpu DIR also builds every accepted case for sm_90a into DIR/caseNNN and lists
its runs (program, tasks, K) in DIR/runs.txt, for bench/gpu/device.sh to run on
a real H200: the same verdicts judged by the hardware.
Exit status 0 when no case is UNSOUND or UNEXPLAINED. Prints one line per case
and the counts (bench/README.md, "Random warp-specialized programs").
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

HARNESS = r"""
#include "case.h"
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char **argv) {
  const long n = atol(argv[1]), K = atol(argv[2]);
  const size_t count = size_t(n) * K * ROWS * 32;
  std::vector<float> a(count), b(count, -1.0f);
  for (size_t i = 0; i < count; ++i) a[i] = float(i % 1000003);
  float *A, *B;
  if (cudaMalloc(&A, count * 4) || cudaMalloc(&B, count * 4)) return 3;
  cudaMemcpy(A, a.data(), count * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(B, b.data(), count * 4, cudaMemcpyHostToDevice);
#if ROWS == 8
  cudaError_t launched = relay(0, n, A, B);  // K is the kernel's constant
#else
  cudaError_t launched = relay(0, n, K, A, B);
#endif
  if (launched) { printf("launch: %s\n", cudaGetErrorString(launched)); return 3; }
  if (cudaError_t e = cudaDeviceSynchronize()) { printf("sync: %s\n", cudaGetErrorString(e)); return 3; }
  cudaMemcpy(b.data(), B, count * 4, cudaMemcpyDeviceToHost);
  size_t bad = 0;
  for (size_t i = 0; i < count; ++i) bad += b[i] != a[i];
  if (bad) printf("%zu of %zu elements wrong\n", bad, count);
  return bad ? 1 : 0;
}
"""


WGMMA_HARNESS = r"""
#include "case.h"
#include <cstdio>
#include <cstdlib>
#include <vector>
// C = A @ B^T per task of 64 rows; small integer inputs, so TF32 and every
// order of the sums are exact.
int main(int argc, char **argv) {
  const long n = atol(argv[1]), KT = atol(argv[2]);
  std::vector<float> a(64 * n * KT), b(8 * KT), c(64 * n * 8, -1.0f), want(64 * n * 8, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(int((i * 7 + i / 3) % 7) - 3);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(int((i * 3 + i / 7) % 5) - 2);
  for (long m = 0; m < 64 * n; ++m)
    for (long j = 0; j < 8; ++j)
      for (long k = 0; k < KT; ++k) want[m * 8 + j] += a[m * KT + k] * b[j * KT + k];
  float *A, *B, *C;
  if (cudaMalloc(&A, a.size() * 4) || cudaMalloc(&B, b.size() * 4) || cudaMalloc(&C, c.size() * 4))
    return 3;
  cudaMemcpy(A, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(B, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(C, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
  if (cudaError_t e = relay(0, n, A, B, C)) { printf("launch: %s\n", cudaGetErrorString(e)); return 3; }
  if (cudaError_t e = cudaDeviceSynchronize()) { printf("sync: %s\n", cudaGetErrorString(e)); return 3; }
  cudaMemcpy(c.data(), C, c.size() * 4, cudaMemcpyDeviceToHost);
  size_t bad = 0;
  for (size_t i = 0; i < c.size(); ++i) bad += c[i] != want[i];
  if (bad) printf("%zu of %zu elements wrong\n", bad, c.size());
  return bad ? 1 : 0;
}
"""


def generate_wgmma(rng):
    """A pipelined tile GEMM: a producer warpgroup's warp 0 TMA-loads A and B
    tiles into a ring, a consumer warpgroup runs 4 wgmma per K step on them
    (wgmma fence, commit group, wait) and releases the slot, then stores its
    64 x 8 accumulator. Random choices drop the wgmma fence, any Await, wait
    with one group still in flight, release the slot before the wait, await
    the data on the generic proxy only, and drop the task's closing Fence."""
    R = rng.randint(1, 3)
    S = rng.choice([R, R, max(1, R - 1)])
    KK = rng.randint(1, 3 * R)
    keep = {k: rng.random() < 0.85 for k in ("await_empty", "await_full", "proxy_await",
                                             "wgmma_fence", "wait_all", "release_after_wait",
                                             "fence")}
    n_check = rng.randint(1, 3)
    desc = (f"wgmma R={R} S={S} K={KK} check(n={n_check}) "
            + " ".join(f"{k}={int(v)}" for k, v in keep.items()))
    kt = 32 * KK
    consumer = ["Await(full[k], " + ("cuda_generic_and_async_proxy" if keep["proxy_await"]
                                     else "cuda_in_order") + ", 0)"] if keep["await_full"] else []
    if keep["wgmma_fence"]:
        consumer.append("Fence(wgmma_fence_1, wgmma_fence_2)")
    consumer += ["for kk in seq(0, 4):",
                 f"    wgmma_tf32_m64nNk8(acc[:, :], A_s[k % {S}, :, 8 * kk : 8 * kk + 8],",
                 f"                       B_s[k % {S}, :, 8 * kk : 8 * kk + 8], N=8)",
                 "Arrive(wgmma_async) >> cg"]
    release = f"Arrive(cuda_in_order) >> empty[k + {R}]"
    wait = "Await(cg, cuda_in_order, " + ("0" if keep["wait_all"] else "1") + ")"
    consumer += [wait, release] if keep["release_after_wait"] else [release, wait]
    lines = ["import cuda.sm90a", "",
             f"proc relay(n: size, A: f32[64 * n, {kt}] @ CudaGmemLinear, B: f32[8, {kt}] @ CudaGmemLinear,",
             "           C: f32[64 * n, 8] @ CudaGmemLinear):",
             "    A_map = A[:, :] @ Sm90_tensorMap(128, 64, 32)",
             "    B_map = B[:, :] @ Sm90_tensorMap(128, 8, 32)",
             '    with CudaDeviceFunction(warps=[warp_role("producer", 4), warp_role("consumer", 4)]):',
             "        for task in cuda_tasks(0, n):",
             "            acc: f32[64, 8] @ Sm90_RmemMatrixD",
             f"            full: barrier[({KK}) @ ring({R})] @ CudaMbarrier",
             f"            empty: barrier[({KK} + {R}) @ ring({R})] @ CudaMbarrier(pre_arrive={R})",
             "            cg: barrier @ Sm90_WgmmaCommitGroup",
             f"            A_s: f32[{S}, 64, 32] @ Sm90_SmemSwizzled(128)",
             f"            B_s: f32[{S}, 8, 32] @ Sm90_SmemSwizzled(128)",
             '            with CudaWarps(name="consumer"):',
             "                wgmma_zero_scale_d(acc[:, :], N=8)",
             f"            for k in seq(0, {KK}):",
             '                with CudaWarps(0, 1, name="producer"):']
    if keep["await_empty"]:
        lines.append("                    Await(empty[k], cuda_temporal, 0)")
    lines += [f"                    tma_load_2d_sw128(A_s[k % {S}, :, :], A_map[64 * task : 64 * task + 64, 32 * k : 32 * k + 32],",
              "                                      rows=64, cols=32) >> full[k]",
              f"                    tma_load_2d_sw128(B_s[k % {S}, :, :], B_map[0:8, 32 * k : 32 * k + 32],",
              "                                      rows=8, cols=32) >> full[k]",
              "                    Arrive(cuda_temporal) >> full[k]",
              '                with CudaWarps(name="consumer"):']
    lines += ["                    " + l for l in consumer]
    lines += ['            with CudaWarps(name="consumer"):',
              "                Await(cg, cuda_in_order, 0)",
              "                wgmma_store_d_row_major_f32(C[64 * task : 64 * task + 64, 0:8], acc[:, :], 64, 8, N=8)"]
    if keep["fence"]:
        lines.append("            Fence(cuda_in_order, cuda_in_order)")
    lines += ["", f"check relay(n={n_check})", ""]
    return "\n".join(lines), desc, (n_check, kt, R, 0)


def generate_cluster(rng):
    """A relay on a 2-CTA cluster: each CTA's producer fills its own slots and
    arrives on both CTAs' full barriers; each consumer releases the slot on
    both CTAs' empty barriers (remote arrives); the task ends with the
    cluster's split barrier. Random choices drop the remote halves, replace
    the cluster barrier with each CTA's own Fence, or drop it."""
    R = rng.randint(1, 3)
    S = rng.choice([R, R, max(1, R - 1)])
    keep = {k: rng.random() < 0.8 for k in ("remote_full", "remote_empty", "await_full",
                                            "await_empty", "cluster_sync")}
    cta_fence = not keep["cluster_sync"] and rng.random() < 0.5
    n_check = rng.randint(1, 3)
    k_check = rng.randint(1, 2 * R + 1)
    desc = (f"cluster=2 R={R} S={S} check(n={n_check}, K={k_check}) cta_fence={int(cta_fence)} "
            + " ".join(f"{k}={int(v)}" for k, v in keep.items()))
    full_arrive = "Arrive(cuda_in_order) >> full[cta, k]" + (" >> full[:, k]" if keep["remote_full"] else "")
    empty_arrive = (f"Arrive(cuda_in_order) >> empty[cta, k + {R}]"
                    + (f" >> empty[:, k + {R}]" if keep["remote_empty"] else ""))
    lines = ["proc relay(n: size, K: size, A: f32[n, 2, K, 32] @ CudaGmemLinear,",
             "           B: f32[n, 2, K, 32] @ CudaGmemLinear):",
             '    with CudaDeviceFunction(clusterDim=2, warps=[warp_role("producer", 1), warp_role("consumer", 1)]):',
             "        for task in cuda_tasks(0, n):",
             f"            s: f32[2, {S}, 32] @ CudaSmemLinear",
             f"            full: barrier[2, (K) @ ring({R})] @ CudaMbarrier",
             f"            empty: barrier[2, (K + {R}) @ ring({R})] @ CudaMbarrier(pre_arrive={R})",
             "            for k in seq(0, K):",
             '                with CudaWarps(name="producer"):',
             "                    for cta in cuda_threads(0, 2, unit=cuda_cta_in_cluster):"]
    if keep["await_empty"]:
        lines.append("                        Await(empty[cta, k], cuda_temporal, 0)")
    lines += ["                        for t in cuda_threads(0, 32, unit=cuda_thread):",
              f"                            s[cta, k % {S}, t] = A[task, cta, k, t]",
              "                        " + full_arrive,
              '                with CudaWarps(name="consumer"):',
              "                    for cta in cuda_threads(0, 2, unit=cuda_cta_in_cluster):"]
    if keep["await_full"]:
        lines.append("                        Await(full[cta, k], cuda_in_order, 0)")
    lines += ["                        for t in cuda_threads(0, 32, unit=cuda_thread):",
              f"                            B[task, cta, k, t] = s[cta, k % {S}, t]",
              "                        " + empty_arrive]
    if keep["cluster_sync"]:
        lines += ["            cluster_sync: barrier @ CudaClusterSync",
                  "            Arrive(cuda_in_order) >> cluster_sync",
                  "            Await(cluster_sync, cuda_in_order, 0)"]
    elif cta_fence:
        lines += ["            for cta in cuda_threads(0, 2, unit=cuda_cta_in_cluster):",
                  "                Fence(cuda_in_order, cuda_in_order)"]
    lines += ["", f"check relay(n={n_check}, K={k_check})", ""]
    return "\n".join(lines), desc, (n_check, k_check, R, 2)


def generate(rng):
    """One random case: (its .exg text, a one-line description)."""
    pick = rng.random()
    if pick < 0.2:
        return generate_cluster(rng)
    if pick < 0.4:
        return generate_wgmma(rng)
    R = rng.randint(1, 4)
    S = rng.choice([R, R, R, max(1, R - 1), R + 1])
    empty = rng.random() < 0.75
    roles = rng.random() < 0.5
    tma = rng.random() < 0.4
    keep = {k: rng.random() < 0.85 for k in ("await_full", "await_empty", "arrive_empty", "fence",
                                             "issuer_arrives", "proxy_await")}
    n_check = rng.randint(1, 3)
    k_check = rng.randint(1, 2 * R + 1)
    # With TMA, K is a constant of the kernel (the tensor map's rows, n * 8K,
    # must be affine in the sizes); it still ranges over the ring's wraps.
    KK = str(rng.randint(1, 3 * R)) if tma else "K"
    desc = (f"R={R} S={S} empty={int(empty)} roles={int(roles)} tma={int(tma)} "
            f"check(n={n_check}, K={k_check}) "
            + " ".join(f"{k}={int(v)}" for k, v in keep.items()))

    # Both roles inside one k loop: the sequential reading interleaves the
    # steps, as in the flagship GEMM.
    producer = []
    if empty and keep["await_empty"]:
        producer.append("Await(empty[k], cuda_temporal, 0)")
    consumer = []
    if tma:
        # The producer warp's TMA raises full[k]'s transaction count; the
        # Arrive that completes the phase is its own, or (wrong) the consumer's.
        producer.append(f"tma_load_2d(s[k % {S}, :, :], A_map[8 * ({KK} * task + k) : 8 * ({KK} * task + k) + 8, :], "
                        "sw=128, rows=8, cols=32) >> full[k]")
        (producer if keep["issuer_arrives"] else consumer).append("Arrive(cuda_temporal) >> full[k]")
        if keep["await_full"]:
            consumer.append("Await(full[k], " + ("cuda_generic_and_async_proxy" if keep["proxy_await"]
                                                 else "cuda_in_order") + ", 0)")
        consumer += ["for t in cuda_threads(0, 32, unit=cuda_thread):",
                     "    for r in seq(0, 8):",
                     f"        B[task, k, r, t] = s[k % {S}, r, t]"]
    else:
        producer += ["for t in cuda_threads(0, 32, unit=cuda_thread):",
                     f"    s[k % {S}, t] = A[task, k, t]",
                     "Arrive(cuda_in_order) >> full[k]"]
        if keep["await_full"]:
            consumer.append("Await(full[k], cuda_in_order, 0)")
        consumer += ["for t in cuda_threads(0, 32, unit=cuda_thread):",
                     f"    B[task, k, t] = s[k % {S}, t]"]
    if empty and keep["arrive_empty"]:
        consumer.append(f"Arrive(cuda_in_order) >> empty[k + {R}]")
    if tma:
        lines = ["import cuda.sm90a", "",
                 f"proc relay(n: size, A: f32[n * {8 * int(KK)}, 32] @ CudaGmemLinear,",
                 f"           B: f32[n, {KK}, 8, 32] @ CudaGmemLinear):",
                 "    A_map = A[:, :] @ Sm90_tensorMap(128, 8, 32)"]
    else:
        lines = ["proc relay(n: size, K: size, A: f32[n, K, 32] @ CudaGmemLinear,",
                 "           B: f32[n, K, 32] @ CudaGmemLinear):"]
    lines.append('    with CudaDeviceFunction(warps=[warp_role("producer", 1), warp_role("consumer", 1)]):'
                 if roles else "    with CudaDeviceFunction(blockDim=64):")
    lines += ["        for task in cuda_tasks(0, n):",
              f"            s: f32[{S}, 8, 32] @ Sm90_SmemSwizzled(128)" if tma else
              f"            s: f32[{S}, 32] @ CudaSmemLinear",
              f"            full: barrier[({KK}) @ ring({R})] @ CudaMbarrier"]
    if empty:
        lines.append(f"            empty: barrier[({KK} + {R}) @ ring({R})] @ CudaMbarrier(pre_arrive={R})")
    lines.append(f"            for k in seq(0, {KK}):")
    for name, body, lo in (("producer", producer, 0), ("consumer", consumer, 1)):
        if roles:
            lines.append(f'                with CudaWarps(name="{name}"):')
            lines += ["                    " + l for l in body]
        else:
            lines.append("                for w in cuda_threads(0, 2, unit=cuda_warp):")
            lines.append(f"                    if w == {lo}:")
            lines += ["                        " + l for l in body]
    if keep["fence"]:
        lines.append("            Fence(cuda_in_order, cuda_in_order)")
    if tma:
        k_check = int(KK)
        desc = desc.replace("check(n=", f"K={KK} check(n=")
        lines += ["", f"check relay(n={n_check})", ""]
    else:
        lines += ["", f"check relay(n={n_check}, K={k_check})", ""]
    return "\n".join(lines), desc, (n_check, k_check, R, 8 if tma else 1)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def build_for_gpu(args, i, d, cu, harness, rows, include, sizes):
    """The accepted case as an sm_90a program, and its runs on a real GPU: the
    sizes the emulator runs, and many more tasks than SMs (every CTA laps)."""
    os.makedirs(args.gpu, exist_ok=True)
    name = f"case{i:03d}"
    b = run([args.nvcc, "-std=c++17", "-O3", "-gencode=arch=compute_90a,code=sm_90a", "-cudart", "shared",
             f"-DROWS={rows}", "-I" + include, "-I" + d, cu, harness,
             "-o", os.path.join(args.gpu, name)])
    if b.returncode != 0:
        print(f"case {i:3d}: the sm_90a build failed:\n{b.stdout}")
        return
    with open(os.path.join(args.gpu, "runs.txt"), "a") as f:
        for n, K in sizes + ((sizes[0][0] + 1000, sizes[0][1]),):
            f.write(f"{name} {n} {K}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--gpu")
    args = ap.parse_args()
    exgc = os.path.join(args.build, "bin", "exgc")
    emu = os.path.join(args.build, "bin", "exg-emu")
    include = run([exgc, "--print-include-dir"]).stdout.strip()
    flags = run([emu, "--nvcc-flags"]).stdout.split()
    work = args.work or tempfile.mkdtemp(prefix="warpspec_random.")
    os.makedirs(work, exist_ok=True)
    for name, text in (("main.cu", HARNESS), ("main_wgmma.cu", WGMMA_HARNESS)):
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
    rng = random.Random(args.seed)
    counts = {"accepted, ran right": 0, "refused at a kernel line": 0, "UNSOUND": 0,
              "UNEXPLAINED": 0}
    for i in range(args.count):
        text, desc, (n_check, k_check, R, rows) = generate(rng)
        d = os.path.join(work, f"case{i:03d}")
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, "case.exg")
        with open(src, "w") as f:
            f.write(text)
        cu = os.path.join(d, "case.cu")
        r = run([exgc, src, "-o", cu])
        if r.returncode != 0:
            explained = re.search(r"case\.exg:(\d+):\d+: error: ", r.stdout)
            verdict = "refused at a kernel line" if explained and r.returncode == 1 else "UNEXPLAINED"
            counts[verdict] += 1
            first = r.stdout.splitlines()[0] if r.stdout else "(no output)"
            print(f"case {i:3d} {desc}: refused: {first}")
            continue
        prog = os.path.join(d, "prog")
        # rows 0: a wgmma case (C = A @ B^T, K columns); else rows per element.
        harness = "main_wgmma.cu" if rows == 0 else "main.cu"
        b = run([args.nvcc] + flags + ["-std=c++17", f"-DROWS={rows}", "-I" + include, "-I" + d, cu,
                                        os.path.join(work, harness), "-o", prog])
        if b.returncode != 0:
            print(b.stdout)
            counts["UNEXPLAINED"] += 1
            continue
        sizes = ((n_check, k_check), (n_check + 5, k_check if rows in (0, 8) else 3 * R + 2))
        if args.gpu:
            build_for_gpu(args, i, d, cu, os.path.join(work, harness), rows, include, sizes)
        failures = []
        for n, K in sizes:
            for sms in ("1", "2"):
                for seed in ("1", "2"):
                    e = run([emu, "--sms", sms, "--seed", seed, "--", prog, str(n), str(K)],
                            timeout=600)
                    if e.returncode != 0:
                        failures.append(f"n={n} K={K} sms={sms} seed={seed}: exit {e.returncode}: "
                                        + (e.stdout.splitlines() or ["?"])[0])
        if failures:
            counts["UNSOUND"] += 1
            print(f"case {i:3d} {desc}: UNSOUND (accepted, failed on the emulator): {failures[0]}")
            print(text)
        else:
            counts["accepted, ran right"] += 1
            print(f"case {i:3d} {desc}: accepted, ran right (8 emulator runs)")
    print(", ".join(f"{k}: {v}" for k, v in counts.items()))
    if not args.work and not args.verbose:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if counts["UNSOUND"] or counts["UNEXPLAINED"] else 0


if __name__ == "__main__":
    sys.exit(main())
