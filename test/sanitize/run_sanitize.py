#!/usr/bin/env python3
# run_sanitize.py - every accepted example and lit program's CPU reference,
# run under AddressSanitizer and UndefinedBehaviorSanitizer.
#
# usage: run_sanitize.py EXGC CXX SOURCE_ROOT [FILE.exg ...]
# For each examples/*.exg and test/lit/**/*.exg not named fail_* (or the files
# given): `exgc --emit=runall` writes a program that runs every proc of the
# file at sizes that satisfy its asserts (all sizes 1 first, then larger and
# random ones) on random data with tensors of exactly their declared size;
# CXX builds it with -fsanitize=address,undefined and it must print
# 'N passed, 0 failed' with no sanitizer report. A file exgc refuses (an
# expected error, a construct the CPU reference lacks) is listed as skipped.
# The programs' common runtime is compiled once, with the same flags
# (test/difftest/shared_runtime.py). Exits 1 when any accepted file fails,
# naming it.
import concurrent.futures
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "difftest"))
from shared_runtime import APART, compile_runtime  # noqa: E402

FLAGS = ["-std=c++17", "-O0", "-g0", "-fsanitize=address,undefined",
         "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]


def files_of(root):
    files = sorted(glob.glob(os.path.join(root, "examples", "*.exg")))
    for f in sorted(glob.glob(os.path.join(root, "test", "lit", "**", "*.exg"), recursive=True)):
        if not os.path.basename(f).startswith("fail_") and os.sep + "Inputs" + os.sep not in f:
            files.append(f)
    return files


def run(cmd, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=env)
    return r.returncode, r.stdout


def program_of(f, exgc, tmp):
    """(the runall program's path, None), or (None, why exgc refused the file)."""
    name = os.path.relpath(f).replace(os.sep, "_").replace(".", "_")
    cpp = os.path.join(tmp, name + ".cpp")
    inc = os.path.join(os.path.dirname(f), "Inputs")
    cmd = [exgc, f, "--emit=runall", "-o", cpp] + (["-I", inc] if os.path.isdir(inc) else [])
    rc, out = run(cmd)
    if rc != 0:
        return None, out.strip().splitlines()[0] if out.strip() else "exgc exit %d" % rc
    return cpp, None


def check(cpp, cxx, runtime):
    exe = cpp[:-len(".cpp")]
    rc, out = run([cxx] + FLAGS + [APART, "-o", exe, cpp, runtime])
    if rc != 0:
        return "FAIL", "compile:\n" + out
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    rc, out = run([exe], env)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    if rc != 0 or not last.endswith(" 0 failed") or "runtime error" in out:
        return "FAIL", "run (exit %d):\n%s" % (rc, out[-4000:])
    return "ok", last


def main():
    exgc, cxx, root = sys.argv[1:4]
    files = sys.argv[4:] or files_of(root)
    counts = {"ok": 0, "skip": 0, "FAIL": 0}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        programs = list(pool.map(lambda f: program_of(f, exgc, tmp), files))
        runtime = compile_runtime(cxx, FLAGS, [cpp for cpp, _ in programs], tmp)
        jobs = [(f, pool.submit(check, cpp, cxx, runtime) if cpp else None, why)
                for f, (cpp, why) in zip(files, programs)]
        for f, job, why in jobs:
            status, what = job.result() if job else ("skip", why)
            counts[status] += 1
            print("%-4s %s: %s" % (status, os.path.relpath(f, root), what))
    print("%d files: %d ran clean, %d skipped (not accepted), %d failed" %
          (len(files), counts["ok"], counts["skip"], counts["FAIL"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
