#!/usr/bin/env python3
# run_difftest.py - every schedule step of every example and positive schedule
# test, run against its input on random data (exgc --emit=difftest).
#
# usage: run_difftest.py EXGC CXX SOURCE_ROOT
# For each examples/*.exg and test/lit/schedule/*.exg not named fail_*:
# exgc writes the test program, CXX compiles it, and it must print
# 'N passed, 0 failed'. Exits 1 when any file fails, naming it and the step.
# Files run in parallel (one per CPU); results print in file order. The
# programs' common runtime is compiled once (shared_runtime.py).
import concurrent.futures
import glob
import os
import subprocess
import sys
import tempfile

from shared_runtime import APART, compile_runtime

FLAGS = ["-std=c++17", "-O1"]


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)


def program_of(exgc, tmp, f):
    """(the test program's path, None) or (None, exgc's output)."""
    cpp = os.path.join(tmp, os.path.splitext(os.path.basename(f))[0] + ".cpp")
    r = run([exgc, f, "--emit=difftest", "-o", cpp])
    return (cpp, None) if r.returncode == 0 else (None, r.stdout)


def run_one(cxx, runtime, root, f, cpp):
    """(ok, report line or failure text) for one .exg file's program."""
    exe = cpp[:-len(".cpp")]
    for cmd, what in [([cxx] + FLAGS + [APART, "-o", exe, cpp, runtime], "compile"),
                      ([exe], "run")]:
        r = run(cmd)
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
        programs = list(pool.map(lambda f: program_of(exgc, tmp, f), files))
        runtime = compile_runtime(cxx, FLAGS, [cpp for cpp, _ in programs], tmp)

        def one(f, program):
            cpp, refused = program
            return run_one(cxx, runtime, root, f, cpp) if cpp else \
                (False, "FAIL %s (exgc):\n%s" % (f, refused))
        for ok, text in pool.map(one, files, programs):
            print(text, flush=True)
            bad += not ok
    print("%d files, %d failed" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
