#!/usr/bin/env python3
"""profile_table.py - the kernel profile table of bench/emu/profile.sh.

usage: profile_table.py --ptxas LOG... --kernels=KERNELS_DEF [--profile=JSONL --profile2=JSONL]

Joins ptxas -v's resources of each kernels.def kernel with its first launch in exg-emu
--profile files (shapes: those profile.sh runs; --profile2 the GEMMs again at K = 4096, so
that the difference is the main loop's) and prints two markdown tables.
"""
import json
import math
import re
import sys

GEMM_M, GEMM_N, GEMM_K, GEMM_K2 = 256, 256, 2048, 4096
GEMV_M, GEMV_K = 1024, 4096
ATT_BH, ATT_S, ATT_ROWS, ATT_KEYS = 1, 1024, 128, 64

# Columns of the dynamic table: (title, classes summed).
COLUMNS = [("tensor", ["tensor"]), ("wgmma ctl", ["tensor_sync"]), ("int32", ["int32"]),
           ("int64", ["int64"]), ("div64", ["div64"]), ("float", ["float"]),
           ("mov/cvt", ["move", "convert"]), ("sync", ["sync"]), ("branch", ["branch"]),
           ("smem ld/st", ["ld_shared", "st_shared"]), ("gmem ld/st", ["ld_global", "st_global"]),
           ("warp", ["warp"])]


def read_kernels(path):
    out = []
    for line in open(path):
        m = re.match(r'EXG_(GEMM|GEMV|ATTENTION)\("[^"]*", (\w+), (\w+), (\w+)', line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3), m.group(4)))
    return out


def read_ptxas(paths):
    """{mangled kernel name: resources}"""
    res, name = {}, None
    for p in paths:
        for line in open(p):
            m = re.search(r"Compiling entry function '([^']+)'", line)
            if m:
                name = m.group(1)
                res[name] = {"regs": 0, "spill": 0, "stack": 0, "smem": 0, "bars": 0}
                continue
            if name is None:
                continue
            m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
            if m:
                res[name]["stack"] = int(m.group(1))
                res[name]["spill"] = int(m.group(2)) + int(m.group(3))
            m = re.search(r"Used (\d+) registers", line)
            if m:
                res[name]["regs"] = int(m.group(1))
                b = re.search(r"used (\d+) barriers", line)
                res[name]["bars"] = int(b.group(1)) if b else 0
                s = re.search(r"(\d+) bytes smem", line)
                res[name]["smem"] = int(s.group(1)) if s else 0
    return res


def kernel_of(proc, names):
    """The mangled names of proc's kernels (PROC_kernelN after the mangling's length)."""
    pat = re.compile(r"(^|\d)" + re.escape(proc) + r"_kernel\d+")
    return sorted(n for n in names if pat.search(n))


def first_launches(path):
    out = {}
    for line in open(path):
        rec = json.loads(line)
        out.setdefault(rec["kernel"], rec)
    return out


def gemm_units(proc, elem, cluster):
    """CTA tiles (a cluster's CTAs split a task's rows: each runs the K loop, rows past M
    or not) x the K steps GEMM_K2 adds to GEMM_K."""
    m = re.search(r"_(\d+)x(\d+)", proc)
    bm, bn = (int(m.group(1)), int(m.group(2))) if m else (128, 256)
    bk = 32 if elem in ("tf32", "f32") else 64
    tiles = math.ceil(GEMM_M / (bm * cluster)) * cluster * math.ceil(GEMM_N / bn)
    return tiles * ((GEMM_K2 - GEMM_K) // bk)


def difference(a, b):
    """Per warpgroup, b's counts minus a's."""
    return [{c: gb.get(c, 0) - ga.get(c, 0) for c in set(ga) | set(gb)}
            for ga, gb in zip(a["warpgroups"], b["warpgroups"])]


def main(argv):
    ptxas, kernels_def, profile, profile2 = [], None, None, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--ptxas":
            while i + 1 < len(argv) and not argv[i + 1].startswith("--"):
                i += 1
                ptxas.append(argv[i])
        elif a.startswith("--kernels="):
            kernels_def = a.split("=", 1)[1]
        elif a.startswith("--profile="):
            profile = a.split("=", 1)[1]
        elif a.startswith("--profile2="):
            profile2 = a.split("=", 1)[1]
        else:
            sys.exit("profile_table.py: unknown argument " + a)
        i += 1
    if not kernels_def or bool(profile) != bool(profile2):
        sys.exit("profile_table.py: --kernels=FILE is required, --profile and --profile2 together")
    kernels = read_kernels(kernels_def)
    res = read_ptxas(ptxas)

    print("\n| kernel | registers | spill B | stack B | static smem B | named barriers |")
    print("|---|---|---|---|---|---|")
    for kind, proc, elem, _ in kernels:
        for n in kernel_of(proc, res) or ["?"]:
            r = res.get(n)
            cells = [str(r[k]) for k in ("regs", "spill", "stack", "smem", "bars")] if r else ["n/a"] * 5
            print("| %s | %s |" % (proc, " | ".join(cells)))
    if not profile:
        return 0
    first, second = first_launches(profile), first_launches(profile2)

    print("\nPer consumer warp: GEMM per K step of the main loop (the counts at %dx%dx%d minus "
          "those at K = %d); attention per 64-key tile, all included, at BH=%d, S=%d; GEMV: "
          "thread instructions per element of A at %dx%d. producer: its warpgroup's per unit "
          "of its CTA." % (GEMM_M, GEMM_N, GEMM_K2, GEMM_K, ATT_BH, ATT_S, GEMV_M, GEMV_K))
    print("\n| kernel | unit | " + " | ".join(c[0] for c in COLUMNS) + " | non-tensor | producer |")
    print("|---|---|" + "---|" * (len(COLUMNS) + 2))
    for kind, proc, elem, _ in kernels:
        names = kernel_of(proc, first)
        if not names or (kind == "GEMM" and names[0] not in second):
            print("| %s | not launched |" % proc)
            continue
        wgs = first[names[0]]["warpgroups"]
        tensor_wg = [bool(g.get("tensor", 0)) for g in wgs]
        if kind == "GEMM":
            wgs = difference(first[names[0]], second[names[0]])
            units, unit = gemm_units(proc, elem, first[names[0]]["cluster"][0]), "K step"
        elif kind == "ATTENTION":
            units = ATT_BH * math.ceil(ATT_S / ATT_ROWS) * (ATT_S // ATT_KEYS)
            unit = "key tile"
        else:  # every warp, as thread instructions per element
            units, unit, tensor_wg = GEMV_M * GEMV_K / 32.0, "element", [True] * len(wgs)
        consumers = [g for g, t in zip(wgs, tensor_wg) if t]
        others = [g for g, t in zip(wgs, tensor_wg) if not t]
        warps = 4 * len(consumers) if kind != "GEMV" else 1

        def per(classes):
            return sum(g.get(c, 0) for g in consumers for c in classes) / (units * warps)
        cells = ["%.1f" % per(cl) for _, cl in COLUMNS]
        total = sum(sum(g.values()) for g in consumers) / (units * warps)
        producer = "%.1f" % (sum(sum(g.values()) for g in others) / units) if others else "-"
        print("| %s | %s | %s | %.1f | %s |" % (proc, unit, " | ".join(cells),
                                              total - per(["tensor"]), producer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
