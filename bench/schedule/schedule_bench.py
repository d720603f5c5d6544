#!/usr/bin/env python3
# schedule_bench.py - how long exgc takes to run a schedule and emit its .cu.
#
# usage: schedule_bench.py EXGC [--repeat=N] [FILE.exg ...]
# For each file (default: examples/gemm_sm80.exg, and the same module with its
# schedule run a second time under another name, written to a temporary
# folder: twice the steps and two kernels), runs `exgc --print-stats FILE -o TMP.cu` N times (default 5) and prints
# one line with the fastest run's wall time of the whole process, the
# schedule stage's share, the primitive steps and the solver queries (all
# from `exgc --print-stats`, docs/cli.md). Not a timed test: the numbers go in
# bench/README.md by hand.
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(ROOT, "examples", "gemm_sm80.exg")
STAGE = re.compile(r"^\s+(.+?)\s+([0-9.]+) s\s+(\d+) queries\s+(\d+) cached(?: \((\d+) primitive steps\))?")


def twice(example, tmp):
    """The example with a second copy of its schedule, `gemm_sm80_again`."""
    text = open(example).read()
    sched = text[text.index("schedule gemm_sm80 from"):]
    text = text.replace("export gemm_sm80\n", "export gemm_sm80, gemm_sm80_again\n")
    text += "\n" + sched.replace("schedule gemm_sm80 from", "schedule gemm_sm80_again from", 1)
    path = os.path.join(tmp, "gemm_sm80_twice.exg")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_once(exgc, path, out):
    start = time.perf_counter()
    r = subprocess.run([exgc, "--print-stats", path, "-o", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    wall = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit("exgc failed on %s:\n%s" % (path, r.stderr))
    stages = {}
    steps = 0
    for line in r.stderr.splitlines():
        m = STAGE.match(line)
        if m:
            stages[m.group(1)] = (float(m.group(2)), int(m.group(3)), int(m.group(4)))
            if m.group(5):
                steps = int(m.group(5))
    return wall, stages, steps


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit("usage: schedule_bench.py EXGC [--repeat=N] [FILE.exg ...]")
    exgc, rest = args[0], args[1:]
    repeat = 5
    files = []
    for a in rest:
        if a.startswith("--repeat="):
            repeat = int(a.split("=", 1)[1])
        else:
            files.append(a)
    print("%-24s %6s %9s %10s %10s %9s %8s" % ("file", "steps", "process", "exgc total",
                                              "schedules", "queries", "to Z3"))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.cu")
        files = files or [EXAMPLE, twice(EXAMPLE, tmp)]
        for f in files:
            best = None
            for _ in range(repeat):
                r = run_once(exgc, f, out)
                if best is None or r[0] < best[0]:
                    best = r
            wall, stages, steps = best
            total, queries, cached = stages["total"]
            print("%-24s %6d %8.3fs %9.3fs %9.3fs %9d %8d" % (
                os.path.basename(f), steps, wall, total, stages.get("schedules", (0,))[0],
                queries, queries - cached))


if __name__ == "__main__":
    main()
