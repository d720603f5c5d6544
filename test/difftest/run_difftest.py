#!/usr/bin/env python3
# run_difftest.py - every schedule step of every example and positive schedule
# test, run against its input on random data (exgc --emit=difftest).
#
# usage: run_difftest.py EXGC CXX SOURCE_ROOT
# For each examples/*.exg and test/lit/schedule/*.exg not named fail_*:
# exgc writes the test program, CXX compiles it, and it must print
# 'N passed, 0 failed'. Exits 1 when any file fails, naming it and the step.
# Files run in parallel (one per CPU); results print in file order.
import concurrent.futures
import glob
import os
import subprocess
import sys
import tempfile


def run_one(exgc, cxx, root, tmp, f):
    """(ok, report line or failure text) for one .exg file."""
    name = os.path.splitext(os.path.basename(f))[0]
    cpp, exe = os.path.join(tmp, name + ".cpp"), os.path.join(tmp, name)
    steps = [([exgc, f, "--emit=difftest", "-o", cpp], "exgc"),
             ([cxx, "-std=c++17", "-O1", "-o", exe, cpp], "compile"),
             ([exe], "run")]
    for cmd, what in steps:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if r.returncode != 0:
            return False, "FAIL %s (%s):\n%s" % (f, what, r.stdout)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    return True, "ok   %s: %s" % (os.path.relpath(f, root), last)


def main():
    exgc, cxx, root = sys.argv[1:4]
    files = sorted(glob.glob(os.path.join(root, "examples", "*.exg")))
    files += sorted(f for f in glob.glob(os.path.join(root, "test", "lit", "schedule", "*.exg"))
                    if not os.path.basename(f).startswith("fail_"))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for ok, text in pool.map(lambda f: run_one(exgc, cxx, root, tmp, f), files):
            print(text, flush=True)
            bad += not ok
    print("%d files, %d failed" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
