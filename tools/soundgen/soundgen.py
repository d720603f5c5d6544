#!/usr/bin/env python3
# soundgen.py - hunt for scheduling steps that exgc accepts and that change results
#
# usage: soundgen.py --exgc EXGC [--cxx CXX] [--seed S] [--batches B] [--first-batch F]
#                    [--jobs J] [--procs P] [--schedules K] [--steps N] [--out DIR]
#                    [--expect-steps M] [--expect PRIMITIVE=N ...] [--stats FILE]
#                    [--only PRIMITIVE] [--mixed some|all|none] [--roundtrip]
#                    [--unwritten] [--wide] [--gpu] [--sanitize]
#
# Each batch is one generated module (gen.py): random procs and random
# schedules of random primitive steps. exgc runs it with --emit=difftest;
# schedules whose step is refused are cut before that step (rejections are
# fine) and the module is compiled again, until exgc accepts it. The difftest
# program then checks every accepted step against its input on random data.
# Prints the accepted steps per primitive. Exit codes: 0 when every accepted
# step kept its results; 1 when a step changed a result, exgc crashed, or
# fewer than --expect-steps steps (or --expect steps of one primitive) were
# accepted (the slice lost its teeth); each failing module is kept in --out
# with the difftest output beside it. A step of a lineage exgc reported as
# rounding otherwise whose values overflow the narrow type (set_precision to
# f16 past 65504) is listed apart, not failed: the difftest bounds rounding,
# not overflow, and exgc's remark said the meaning changes. The difftest
# runtime every program carries is compiled once and linked into each;
# batches run --jobs at a time.
import argparse
import collections
import functools
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test",
                                "difftest"))
from shared_runtime import APART, compile_runtime  # noqa: E402

ROUNDTRIP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "roundtrip",
                         "print_parse.py")
# A step whose lineage rounds otherwise (set_precision to f16) and whose
# values left the narrow type's range: the difftest bounds the rounding, not
# an overflow, and exgc reported the step as changing the meaning (a remark).
OVERFLOW = re.compile(r"is -?inf, its input computes -?[0-9.e+]+ .*as the steps round otherwise")
STEP_LINE = re.compile(r":(\d+): step '([a-z_]+)' of schedule '([A-Za-z0-9_]+)': (ok|FAILED)(.*)")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def proc_of_line(text, line):
    """The proc whose text holds `line` (1-based), or None."""
    name = None
    for k, l in enumerate(text.split("\n"), 1):
        if l.startswith("proc "):
            name = l[5:l.index("(")]
        elif l.startswith("schedule "):
            name = None
        if k == line:
            return name
    return None


def accept_loop(exgc, path, parts, scheds, log):
    """Cuts refused steps until exgc accepts the module; returns the text and
    step lines, or None (a crash, recorded in `log`)."""
    for _ in range(60):
        text, where = gen.render(parts, scheds)
        with open(path, "w") as f:
            f.write(text)
        r = run([exgc, path, "--emit=difftest", "-o", path + ".cpp", "--diagnostics=json"])
        if r.returncode == 0:
            return text, where
        if r.returncode != 1:
            log.append(("crash", path, r.stderr[-2000:]))
            return None
        try:
            diags = json.loads(r.stderr[r.stderr.index("["):])
        except ValueError:
            log.append(("unparsed", path, r.stderr[-2000:]))
            return None
        progress = False
        for d in diags:
            if d.get("severity") != "error":
                continue
            line = d.get("line", 0)
            if line in where:
                name, i = where[line]
                if len(scheds[name][1]) > i:
                    scheds[name] = (scheds[name][0], scheds[name][1][:i])
                    progress = True
                continue
            # A result's re-check: "in proc 'g', the result of schedule 'g'".
            notes = " ".join(n.get("message", "") for n in d.get("notes", []))
            m = re.search(r"the result of schedule '([A-Za-z0-9_]+)'", notes + d.get("message", ""))
            if m and m.group(1) in scheds and scheds[m.group(1)][1]:
                scheds[m.group(1)] = (scheds[m.group(1)][0], scheds[m.group(1)][1][:-1])
                progress = True
                continue
            proc = proc_of_line(text, line)
            if proc and proc.startswith("h"):
                k = int(proc[1:])
                if parts[k + 1]:
                    parts[k + 1] = ""
                    for s in list(scheds):
                        if scheds[s][0] == proc:
                            del scheds[s]
                    progress = True
        if not progress:
            log.append(("stuck", path, r.stderr[-2000:]))
            return None
    return None


def runtime_object(a, flags, tmp):
    """The difftest runtime every program carries, compiled once with `flags`
    (test/difftest/shared_runtime.py): any generated program is that runtime
    under -DEXGDT_RUNTIME_ONLY, so a one-line module gives it."""
    path = os.path.join(tmp, "runtime.exg")
    with open(path, "w") as f:
        f.write("proc one(n: size, x: f32[n]):\n    x[0] = 1.0\n")
    r = run([a.exgc, path, "--emit=difftest", "-o", path + ".cpp"])
    if r.returncode != 0:
        raise RuntimeError("exgc refused the runtime's module:\n" + r.stderr)
    return compile_runtime(a.cxx, flags, [path + ".cpp"], tmp)


def run_batch(a, flags, runtime, tmp, out, b):
    """Generates, accepts, compiles and runs batch `b`: (accepted steps per
    primitive, failing modules, problems); failing modules are copied to `out`."""
    counts, same, failures, log = collections.Counter(), collections.Counter(), [], []
    seed = a.seed * 100003 + b
    mixed = {"some": None, "all": True, "none": False}[a.mixed]
    parts, scheds = gen.batch(seed, a.procs, a.schedules, a.steps, a.only, mixed, a.unwritten,
                              a.wide, a.gpu, a.dead)
    path = os.path.join(tmp, "b%d.exg" % seed)
    got = accept_loop(a.exgc, path, parts, scheds, log)
    if got is None:
        shutil.copy(path, out)
        return counts, same, failures, log
    if a.roundtrip:
        rt = run([sys.executable, ROUNDTRIP, a.exgc, path])
        if rt.returncode != 0:
            log.append(("roundtrip", path, rt.stdout[-2000:]))
            shutil.copy(path, out)
    exe = path + ".exe"
    c = run([a.cxx] + flags + [APART, "-o", exe, path + ".cpp", runtime])
    if c.returncode != 0:
        log.append(("compile", path, c.stderr[-2000:]))
        shutil.copy(path, out)
        return counts, same, failures, log
    # A sanitizer's report exits 86: neither "all kept" (0) nor "a step changed a result" (1).
    env = dict(os.environ, ASAN_OPTIONS="exitcode=86:detect_leaks=0",
               UBSAN_OPTIONS="halt_on_error=1:exitcode=86:print_stacktrace=1")
    r = run([exe], timeout=600, env=env)
    bad = []
    for l in r.stdout.splitlines():
        m = STEP_LINE.search(l)
        if not m:
            continue
        if m.group(4) == "ok":
            if re.match(r"h\d+_s\d+$", m.group(3)): # not the prelude's
                counts[m.group(2)] += 1
                # Checked by its code alone: the CPU reference ignores what it changed.
                same[m.group(2)] += "the same C++ code" in m.group(5)
        elif OVERFLOW.search(l):
            log.append(("overflow", path, l))
        else:
            bad.append(l)
    overflowed = any(k == "overflow" for k, _, _ in log)
    if overflowed:
        shutil.copy(path, out)
    if bad or r.returncode not in (0, 1) or (r.returncode == 1 and not bad and not overflowed):
        failures.append((path, bad or [r.stdout[-500:] + r.stderr[-1500:]]))
        shutil.copy(path, out)
        with open(os.path.join(out, os.path.basename(path) + ".out"), "w") as f:
            f.write(r.stdout)
    for f in (path, path + ".cpp", exe):
        if os.path.exists(f):
            os.remove(f)
    return counts, same, failures, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exgc", required=True)
    ap.add_argument("--cxx", default=shutil.which("clang++") or "g++")  # clang compiles it faster
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batches", type=int, default=1)
    ap.add_argument("--first-batch", type=int, default=0,
                    help="the batch to start at (a long hunt resumed: batches b of seed s "
                         "always give the same module)")
    ap.add_argument("--jobs", type=int, default=1, help="batches run at once")
    ap.add_argument("--procs", type=int, default=30)
    ap.add_argument("--schedules", type=int, default=4)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--out", default=None)
    ap.add_argument("--expect-steps", type=int, default=0)
    ap.add_argument("--expect", action="append", default=[], metavar="PRIMITIVE=N",
                    help="at least N accepted steps of PRIMITIVE (repeatable)")
    ap.add_argument("--stats", default=None, help="JSON file of the counts, rewritten per batch")
    ap.add_argument("--mixed", choices=["some", "all", "none"], default="none",
                    help="procs whose x, y, z are f32, i32 and i8: a quarter of them, all, or "
                         "none (the default, which keeps the seeds of earlier runs)")
    ap.add_argument("--roundtrip", action="store_true",
                    help="also check that every accepted result prints and parses back "
                         "(test/roundtrip/print_parse.py)")
    ap.add_argument("--unwritten", action="store_true",
                    help="procs also read memory before anything wrote it (its value is "
                         "unspecified; the difftest compares what does not depend on it)")
    ap.add_argument("--wide", action="store_true",
                    help="every shape and primitive the generator knows (--unwritten, 2-D local "
                         "buffers and the dim primitives, butterfly_sum, replace, rewrite_expr, "
                         "guards on strides, calls passing a control argument); "
                         "without it earlier seeds give the modules they gave")
    ap.add_argument("--gpu", action="store_true",
                    help="also procs over device memory and the GPU steps: wrap_with_context, "
                         "set_loop_mode, bind_window, insert_fence, the barrier insertions, "
                         "set_trailing_barrier_expr, rename, insert_pass, delete_pass")
    ap.add_argument("--dead", action="store_true",
                    help="also allocations nothing reads (some written once), which "
                         "delete_buffer may delete")
    ap.add_argument("--sanitize", action="store_true",
                    help="build the difftest programs with AddressSanitizer and "
                         "UndefinedBehaviorSanitizer (any report fails the batch)")
    ap.add_argument("--only", default=None,
                    help="a primitive every step uses where it can (one primitive's hunt)")
    a = ap.parse_args()

    counts, same = collections.Counter(), collections.Counter()
    failures, log = [], []
    tmp = tempfile.mkdtemp(prefix="soundgen")
    out = a.out or os.path.join(tmp, "kept")
    os.makedirs(out, exist_ok=True)
    flags = ["-std=c++17", "-O0", "-w"]
    if a.sanitize:
        flags += ["-fsanitize=address,undefined,float-cast-overflow", "-fno-sanitize-recover=all"]
    runtime = runtime_object(a, flags, tmp)
    work = functools.partial(run_batch, a, flags, runtime, tmp, out)
    batches = range(a.first_batch, a.first_batch + a.batches)
    pool = multiprocessing.Pool(a.jobs) if a.jobs > 1 else None
    results = pool.imap(work, batches) if pool else map(work, batches)
    for n, (b, (c, sc, f, l)) in enumerate(zip(batches, results), 1):
        counts.update(c)
        same.update(sc)
        failures += f
        log += l
        if a.stats:
            with open(a.stats, "w") as fs:
                json.dump({"seed": a.seed, "first_batch": a.first_batch, "batches": n,
                           "accepted": dict(counts), "same_code": dict(same),
                           "failing": len(failures),
                           "overflows": sum(1 for k, _, _ in log if k == "overflow"),
                           "problems": sum(1 for k, _, _ in log if k != "overflow")}, fs)
        print("batch %d (seed %d): %d accepted steps so far, %d failing" %
              (b, a.seed * 100003 + b, sum(counts.values()), len(failures)), flush=True)
    if pool:
        pool.close()
    print("accepted steps per primitive (of them, with the same C++ code as their input):")
    for k, v in sorted(counts.items()):
        print("  %-26s %d (%d)" % (k, v, same[k]))
    total = sum(counts.values())
    print("total accepted steps: %d" % total)
    for kind, path, msg in log:
        print("%s: %s\n%s" % (kind.upper(), path, msg))
    overflows = sum(1 for k, _, _ in log if k == "overflow")
    if overflows:
        print("%d steps of a lineage exgc reported as rounding otherwise overflowed a narrow "
              "type (reported, not failures)" % overflows)
    for path, lines in failures:
        print("MISMATCH in %s:" % os.path.join(out, os.path.basename(path)))
        for l in lines[:10]:
            print("  " + l)
    short = []
    if total < a.expect_steps:
        short.append("only %d accepted steps, expected at least %d" % (total, a.expect_steps))
    for e in a.expect:
        prim, want = e.split("=")
        if counts[prim] < int(want):
            short.append("only %d accepted '%s' steps, expected at least %s" %
                         (counts[prim], prim, want))
    for s in short:
        print(s)
    shutil.rmtree(tmp, ignore_errors=True)
    problems = [k for k, _, _ in log if k != "overflow"]
    return 0 if not failures and not problems and not short else 1


if __name__ == "__main__":
    sys.exit(main())
