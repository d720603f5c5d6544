#!/usr/bin/env python3
# gen_bounds_edge.py - random programs at the edge of the bounds check, run
# under the sanitizers when exgc accepts them.
#
# usage: gen_bounds_edge.py EXGC CXX [COUNT] [SEED]
# Writes COUNT random procs that pass a tile of `x: f32[n]` (a window that
# overhangs x for the last tile) to a random chain of callees: guarded or not,
# with off-by-one guards, window statements, windows of windows, whole and
# partial passes to nested procs, elements passed as data arguments. Each is
# checked by exgc on its own; the accepted ones go into one module whose
# `--emit=runall` program must run clean under -fsanitize=address,undefined
# (all sizes 1 first, so the smallest tiles overhang most). An accepted program
# that touches memory outside x is a hole in the bounds proof. Exits 1 then,
# or when no candidate was accepted or none refused (the generator would be
# testing nothing).
import os
import random
import subprocess
import sys
import tempfile

FLAGS = ["-std=c++17", "-O0", "-g0", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]


class Gen:
    def __init__(self, rng, tag):
        self.rng, self.tag, self.procs, self.n = rng, tag, [], 0

    def name(self, what):
        self.n += 1
        return "%s_%s%d" % (self.tag, what, self.n)

    def guard(self, i, off):
        # A guard that keeps i + off < end, or one that is off by one.
        r = self.rng.random()
        if r < 0.45:
            return "%s + %d < end" % (i, off) if off else "%s < end" % i
        if r < 0.65:
            return "%s + %d <= end" % (i, off) if off else "%s <= end" % i
        if r < 0.8:
            return None
        return "%s < end + 1" % i

    def leaf(self, width, depth):
        """A proc (x: [f32][width], end: index, y: f32[1]) touching x."""
        rng = self.rng
        name = self.name("leaf")
        body = []
        kind = rng.choice(["store", "read", "window", "element", "nested", "whole"])
        ind = "    "
        if kind == "window" and width >= 2:
            lo = rng.randint(0, width // 2)
            body.append(ind + "w = x[%d:%d]" % (lo, width))
            target, w_off, w_width = "w", lo, width - lo
        else:
            target, w_off, w_width = "x", 0, width
        if kind in ("nested", "whole") and depth < 3:
            sub = width if kind == "whole" or width < 2 else rng.randint(1, width)
            callee = self.leaf(sub, depth + 1)
            start = 0 if sub == width else rng.randint(0, width - sub)
            arg = "x" if sub == width and rng.random() < 0.5 else "x[%d:%d]" % (start, start + sub)
            g = self.guard("0", start + sub - 1) if rng.random() < 0.7 else None
            call = "%s(%s, end - %d, y)" % (callee, arg, start)
            if g:
                body += [ind + "if %s:" % g, ind + "    " + call]
            else:
                body.append(ind + call)
        else:
            body.append(ind + "for i in seq(0, %d):" % w_width)
            g = self.guard("i", w_off)
            inner = ind + "    "
            if g:
                body.append(inner + "if %s:" % g)
                inner += "    "
            if kind == "read":
                body.append(inner + "y[0] += %s[i]" % target)
            elif kind == "element":
                body.append(inner + "%s(%s[i], y)" % (self.use(), target))
            else:
                body.append(inner + "%s[i] = 1.0" % target)
        self.procs.append("proc %s(x: [f32][%d], end: index, y: f32[1]):\n%s\n" %
                          (name, width, "\n".join(body)))
        return name

    def use(self):
        name = self.name("use")
        self.procs.append("proc %s(a: f32, y: f32[1]):\n    y[0] += a\n" % name)
        return name

    def top(self):
        width = self.rng.choice([1, 2, 3, 4, 8])
        callee = self.leaf(width, 0)
        name = self.name("top")
        self.procs.append(
            "proc %s(n: size, x: f32[n], y: f32[1]):\n"
            "    for t in seq(0, (n + %d) / %d):\n"
            "        %s(x[%d * t:%d * t + %d], n - %d * t, y)\n" %
            (name, width - 1, width, callee, width, width, width, width))
        return "\n".join(self.procs)


def main():
    exgc, cxx = sys.argv[1:3]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 14
    rng = random.Random(seed)
    accepted, refused = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(count):
            text = Gen(rng, "p%d" % k).top()
            path = os.path.join(tmp, "cand%d.exg" % k)
            with open(path, "w") as f:
                f.write(text)
            r = subprocess.run([exgc, "--show-diag-kind", path, "--emit=cpp", "-o", os.devnull],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            if r.returncode == 0:
                accepted.append(text)
            elif r.returncode == 1 and "OutOfBounds" in r.stdout:
                refused += 1
            else:
                print("exgc failed unexpectedly on:\n%s\n%s" % (text, r.stdout))
                return 1
        print("%d candidates: %d accepted, %d refused" % (count, len(accepted), refused))
        if not accepted or not refused:
            print("FAIL: the generator tests nothing")
            return 1
        module = os.path.join(tmp, "accepted.exg")
        with open(module, "w") as f:
            f.write("\n".join(accepted))
        cpp, exe = os.path.join(tmp, "accepted.cpp"), os.path.join(tmp, "accepted")
        for cmd in ([exgc, module, "--emit=runall", "-o", cpp], [cxx] + FLAGS + ["-o", exe, cpp],
                    [exe]):
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True,
                               env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
            if r.returncode != 0 or "runtime error" in r.stdout:
                print("FAIL (%s):\n%s" % (os.path.basename(cmd[0]), r.stdout[-6000:]))
                with open(module) as f:
                    print(f.read())
                return 1
        print(r.stdout.strip().splitlines()[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
