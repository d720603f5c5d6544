#!/usr/bin/env python3
# script_fuzz.py - random schedule scripts must end cleanly (issue 15).
#
# usage: script_fuzz.py EXGC SOURCE_DIR [--seed=N] [--cases=N] [--keep=DIR]
#                       [--sanitized]  (EXGC is an ASan build: see memory_cap)
#
# A generative fuzzer of the schedule-script language: each case is a random
# script (calls of every primitive named in compiler/schedule/primitives.def,
# the dictionary; cursor methods; builtins; operators on edge integers such as
# 2^63 - 1; patterns; loops and ifs) run on one fixed proc. exgc must end
# within 30 s and 4 GB with exit 0 or 1, no internal error, and every error
# located (file:line:col). Deterministic for a seed; a failing case is
# printed (and written to --keep). Not coverage-guided: the libFuzzer target
# schedule_fuzz is (docs/reliability.md).
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

INTS = ["0", "1", "-1", "2", "4", "8", "65536", "4294967296", "9223372036854775807",
        "-9223372036854775807", "(-9223372036854775807 - 1)"]
STRS = ['"i"', '"j"', '"t"', '"x"', '"y"', '"i j"', '"n"', '"n - 1"', '"for _ in _: _"',
        '"x[_] = _"', '"t: _"', '"t[_] = _"', '"y[_] += _"', '"i #2"', '"_ #0"', '"#2 #1"',
        '""', '"i + 9999999999"', '"pass"', '"for i in _:\\n    t[0] = _"', '"f32"', '"\\u00e9"']
ATOMS = ["p", "c", "l", "s", "True", "False", "cuda_warp", "cuda_thread", "DRAM", "seq",
         "cuda_tasks", "[]", "[0, 1]", "f"]
OPS = ["+", "-", "*", "/", "%", "==", "!=", "<", "and", "or"]
METHODS = ["c.body()", "c.parent()", "c.next()", "c.prev()", "c.before()", "c.after()",
           "c.expand(1, 0)", "p.name()"]

# The fixed procs the scripts run on (shared with the schedule_fuzz target).
HEAD = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "schedule_procs.exg")).read()


def primitives(source_dir):
    text = open(os.path.join(source_dir, "compiler", "schedule", "primitives.def")).read()
    return re.findall(r"^EXGC_PRIMITIVE\((\w+),", text, re.M)


class Gen:
    def __init__(self, rng, prims):
        self.rng, self.prims = rng, prims

    def expr(self, depth=0):
        r = self.rng.random()
        if depth > 3 or r < 0.3:
            return self.rng.choice(INTS + STRS + ATOMS)
        if r < 0.5:
            return "(%s %s %s)" % (self.expr(depth + 1), self.rng.choice(OPS), self.expr(depth + 1))
        if r < 0.6:
            return "%s[%s]" % (self.rng.choice(["l", "c.body()", "s"]), self.expr(depth + 1))
        if r < 0.7:
            return self.rng.choice(METHODS + ["p.find(%s)" % self.expr(depth + 1),
                                              "range(%s)" % self.expr(depth + 1),
                                              "len(%s)" % self.expr(depth + 1),
                                              "%s * cuda_thread" % self.expr(depth + 1)])
        if r < 0.8:
            return "[%s, %s]" % (self.expr(depth + 1), self.expr(depth + 1))
        return self.call(depth + 1)

    def call(self, depth):
        args = ["p"] + [self.expr(depth) for _ in range(self.rng.randint(0, 4))]
        return "%s(%s)" % (self.rng.choice(self.prims), ", ".join(args))

    def stmts(self, depth=0):
        r = self.rng.random()
        if depth < 2 and r < 0.15:
            body = self.stmts(depth + 1)
            return ["for k in range(0, %s):" % self.rng.choice(["2", "10", "1000", "n"])] + [
                "    " + s for s in body]
        if depth < 2 and r < 0.25:
            return ["if %s:" % self.expr(1)] + ["    " + s for s in self.stmts(depth + 1)] + [
                "else:", "    pass"]
        if r < 0.65:
            return ["p = %s" % self.call(1)]
        if r < 0.75:
            return ["print(%s)" % self.expr()]
        return ["%s = %s" % (self.rng.choice(["c", "l", "s"]), self.expr())]

    def module(self):
        lines = ['c = p.find("i")', "l = [1, 2, 3]", 's = "ab"']
        for _ in range(self.rng.randint(1, 8)):
            lines += self.stmts()
        return HEAD + "\nschedule g from f:\n" + "".join("    %s\n" % l for l in lines)


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def memory_cap(sanitized):
    """How exgc is held to 4 GB: (environment, preexec_fn). An address-space
    limit cannot hold a sanitized exgc, whose shadow memory alone reserves
    terabytes of it: ASan's own resident-memory limit does, aborting (a finding)."""
    if not sanitized:
        return None, limit_memory
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "hard_rss_limit_mb=4096"]))
    return env, None


LOCATED = re.compile(r"^\S+:\d+:\d+: error: ")


def check(exgc, path, out, cap):
    env, preexec = cap
    try:
        r = subprocess.run([exgc, path, "-o", out], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=30, env=env, preexec_fn=preexec)
    except subprocess.TimeoutExpired:
        return "did not end within 30 s"
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode not in (0, 1):
        return "exit code %d:\n%s" % (r.returncode, err[-2000:])
    if "internal error" in err:
        return "internal error:\n" + err[-2000:]
    for line in err.splitlines():
        if re.search(r"(^|\s)error: ", line) and not LOCATED.match(line):
            return "error without file:line:col: " + line
    return None


def main(argv):
    opts = dict((a[2:].split("=", 1) + [""])[:2] for a in argv if a.startswith("--"))
    pos = [a for a in argv if not a.startswith("--")]
    if len(pos) != 2:
        sys.exit("usage: script_fuzz.py EXGC SOURCE_DIR [--seed=N] [--cases=N] [--keep=DIR]"
                 " [--sanitized]")
    cap = memory_cap("sanitized" in opts)
    exgc, source_dir = pos
    seed, cases = int(opts.get("seed", "1")), int(opts.get("cases", "40"))
    gen = Gen(random.Random(seed), primitives(source_dir))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path, out = os.path.join(tmp, "case.exg"), os.path.join(tmp, "case.cu")
        for i in range(cases):
            text = gen.module()
            open(path, "w").write(text)
            problem = check(exgc, path, out, cap)
            if not problem:
                continue
            failed += 1
            print("case %d (seed %d): %s\n%s" % (i, seed, problem, text))
            if "keep" in opts:
                os.makedirs(opts["keep"], exist_ok=True)
                open(os.path.join(opts["keep"], "case_%d_%d.exg" % (seed, i)), "w").write(text)
    print("%d cases, %d failed" % (cases, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
