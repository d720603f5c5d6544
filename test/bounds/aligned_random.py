#!/usr/bin/env python3
"""aligned_random.py - random programs against the bounds check's aligned() proof.

Each case is a proc that passes a 4-element window of a 1- to 3-D buffer to an instr
asserting `aligned(src, 4)`: the buffer's extents carry random `%` asserts, the proc may
assert `aligned(A, a)`, the leading dimensions are indexed by loop iterators (plus a
constant), the last one by a slice `c * j + o`, sometimes through a window statement.
exgc decides each call (PreconditionFailed at its line, or not); this script enumerates
small sizes, root addresses and iterations and computes the window's address itself.

Sound: a call exgc accepts must be aligned in every enumerated instance (a mismatch fails
the run). Complete enough: the share of always-aligned calls that exgc refuses is printed
(the proof is a sufficient condition: constant-stride terms summed, symbolic ones per term).

    aligned_random.py --exgc build/bin/exgc [--seed S] [--cases N] [--max-gave-up K]
"""
import argparse
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile

INSTR = '''instr take4(dst: [f32][4], src: [f32][4]):
    emit: "take4({dst}, {src});"
    assert aligned(src, 4)
    for i in seq(0, 4):
        dst[i] = src[i]
'''
SIZES = range(1, 18)
BASES = range(0, 8)


class Case:
    def __init__(self, rng, n):
        self.name = "k%d" % n
        self.rank = rng.choice([1, 2, 2, 3])
        # Mostly the forms that align, so both verdicts come up often.
        self.mods = [rng.choice([1, 2, 4, 4, 8]) for _ in range(self.rank)]
        self.root_align = rng.choice([None, 2, 4, 4, 4])
        self.point_off = [rng.choice([0, 0, 0, 1, 2, 4]) for _ in range(self.rank - 1)]
        self.scale = rng.choice([1, 2, 4, 4, 8])
        self.start = rng.choice([0, 0, 2, 4, 8])
        self.via_window = self.rank > 1 and rng.random() < 0.4

    def dims(self):
        return ["D%d" % d for d in range(self.rank)]

    def text(self):
        dims = self.dims()
        args = ", ".join("%s: size" % d for d in dims)
        lines = ["proc %s(%s, A: f32[%s], y: f32[4]):" % (self.name, args, ", ".join(dims))]
        for d, m in zip(dims, self.mods):
            if m > 1:
                lines.append("    assert %s %% %d == 0" % (d, m))
        if self.root_align:
            lines.append("    assert aligned(A, %d)" % self.root_align)
        ind = "    "
        idx = []
        for d in range(self.rank - 1):
            lines.append("%sfor i%d in seq(0, %s):" % (ind, d, dims[d]))
            ind += "    "
            if self.point_off[d]:
                lines.append("%sif i%d + %d < %s:" % (ind, d, self.point_off[d], dims[d]))
                ind += "    "
            idx.append("i%d + %d" % (d, self.point_off[d]) if self.point_off[d] else "i%d" % d)
        last = dims[-1]
        lines.append("%sfor j in seq(0, %s):" % (ind, last))
        ind += "    "
        lo = "%d * j + %d" % (self.scale, self.start)
        lines.append("%sif %s + 4 <= %s:" % (ind, lo, last))
        ind += "    "
        if self.via_window:
            lines.append("%srow = A[%s, :]" % (ind, ", ".join(idx)))
            src = "row[%s:%s + 4]" % (lo, lo)
        else:
            src = "A[%s]" % ", ".join(idx + ["%s:%s + 4" % (lo, lo)])
        lines.append("%stake4(y, %s)" % (ind, src))
        self.call_line_offset = len(lines) - 1
        return "\n".join(lines) + "\n"

    def instances(self):
        """Every (sizes, base) the asserts admit, with each call's element address."""
        for sizes in itertools.product(SIZES, repeat=self.rank):
            if any(s % m for s, m in zip(sizes, self.mods)):
                continue
            strides = [1] * self.rank
            for d in range(self.rank - 2, -1, -1):
                strides[d] = strides[d + 1] * sizes[d + 1]
            for base in BASES:
                if self.root_align and base % self.root_align:
                    continue
                ranges = [range(0, sizes[d] - self.point_off[d]) for d in range(self.rank - 1)]
                for pts in itertools.product(*ranges):
                    for j in range(sizes[-1]):
                        lo = self.scale * j + self.start
                        if lo + 4 > sizes[-1]:
                            continue
                        flat = base + lo
                        for d, p in enumerate(pts):
                            flat += (p + self.point_off[d]) * strides[d]
                        yield sizes, base, flat

    def always_aligned(self):
        for sizes, base, flat in self.instances():
            if flat % 4:
                return False, (sizes, base, flat)
        return True, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exgc", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--max-gave-up", type=int, default=None,
                    help="fail when the solver gives up on more calls than this (seed 14's "
                         "300 cases once had one, from the incremental solver's history)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cases = [Case(rng, n) for n in range(args.cases)]
    text, lines = INSTR + "\n", {}
    for c in cases:
        start = text.count("\n") + 1
        text += "\n" + c.text()
        lines[start + 1 + c.call_line_offset] = c
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "cases.exg")
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([args.exgc, src, "--emit=cpp", "-o", os.path.join(tmp, "out.cpp")],
                           capture_output=True, text=True)
    # A refusal is an unproven precondition, or one the solver gave up on (also refused).
    refused = {int(m.group(1)) for m in re.finditer(
        r"cases\.exg:(\d+):\d+: error: (?:could not prove )?precondition 'aligned\(src, 4\)'",
        r.stderr)}
    gave_up = len(re.findall(r"could not prove precondition 'aligned", r.stderr))
    others = [l for l in r.stderr.splitlines() if ": error:" in l and "aligned(src, 4)" not in l]
    if others:
        print("unexpected errors:\n" + "\n".join(others[:10]))
        return 1
    unsound, exact, refused_aligned, refused_misaligned, vacuous = [], 0, 0, 0, 0
    for line, c in lines.items():
        ok, witness = c.always_aligned()
        if not any(True for _ in c.instances()):
            vacuous += 1
            continue
        if line in refused:
            refused_aligned += ok
            refused_misaligned += not ok
        elif ok:
            exact += 1
        else:
            unsound.append((line, c, witness))
    print("%d cases: %d accepted (all aligned), %d refused and misaligned somewhere, "
          "%d refused though aligned everywhere in the enumerated sizes, %d without an "
          "instance; the solver gave up on %d" % (len(cases), exact, refused_misaligned,
                                                   refused_aligned, vacuous, gave_up))
    for line, c, (sizes, base, flat) in unsound[:5]:
        print("UNSOUND: line %d accepted, but sizes %s, root at element %d put the window at "
              "element %d:\n%s" % (line, sizes, base, flat, c.text()))
    if unsound:
        return 1
    if args.max_gave_up is not None and gave_up > args.max_gave_up:
        print("the solver gave up on %d calls (at most %d allowed)" % (gave_up, args.max_gave_up))
        return 1
    if exact == 0 or refused_misaligned == 0:
        print("the generator reached only one verdict: it tests nothing")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
