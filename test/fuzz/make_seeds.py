#!/usr/bin/env python3
# make_seeds.py - seed inputs of the libFuzzer targets, from the tests.
#
# usage: make_seeds.py SOURCE_ROOT OUT_DIR
# Writes OUT_DIR/<target>/ for each target of test/fuzz/:
#   frontend_fuzz  every .exg of test/ and examples/ (and the stdlib's)
#   schedule_fuzz  the `schedule` blocks of those files (they run against the
#                  target's fixed procs: names that do not resolve still
#                  exercise the script language), plus scripts of
#                  script_fuzz.py's generator
#   sync_fuzz      every .sync of test/
#   driver_fuzz    option lines taken from the RUN lines of test/lit/driver
# The committed minimized corpora (test/fuzz/corpus/<target>) are seeds too.
import glob
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_fuzz  # noqa: E402  (the generator of random schedule scripts)


def write(out_dir, target, name, text):
    d = os.path.join(out_dir, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def schedule_blocks(text):
    lines, blocks, cur = text.splitlines(), [], None
    for line in lines:
        if line.startswith("schedule "):
            cur = [line]
            blocks.append(cur)
        elif cur is not None and (line.startswith(" ") or not line.strip()):
            cur.append(line)
        else:
            cur = None
    return ["\n".join(b) + "\n" for b in blocks]


def main(root, out_dir):
    exg = sorted(glob.glob(os.path.join(root, "test", "**", "*.exg"), recursive=True) +
                 glob.glob(os.path.join(root, "examples", "*.exg")) +
                 glob.glob(os.path.join(root, "stdlib", "**", "*.exg"), recursive=True))
    for i, f in enumerate(exg):
        text = open(f, errors="replace").read()
        write(out_dir, "frontend_fuzz", "t%04d.exg" % i, text)
        for j, b in enumerate(schedule_blocks(text)):
            write(out_dir, "schedule_fuzz", "t%04d_%d.exg" % (i, j), b)
    gen = script_fuzz.Gen(random.Random(1), script_fuzz.primitives(root))
    for i in range(40):
        write(out_dir, "schedule_fuzz", "gen%02d.exg" % i, gen.module()[len(script_fuzz.HEAD):])
    for i, f in enumerate(sorted(glob.glob(os.path.join(root, "test", "**", "*.sync"),
                                           recursive=True))):
        write(out_dir, "sync_fuzz", "t%04d.sync" % i, open(f, errors="replace").read())
    n = 0
    for f in sorted(g for g in glob.glob(os.path.join(root, "test", "lit", "driver", "*"))
                    if os.path.isfile(g)):
        for run in re.findall(r"RUN:.*?%exgc(.*)", open(f, errors="replace").read()):
            args = [a for a in run.split("|")[0].split() if not a.startswith("%") and "/" not in a
                    and a not in ("2>&1", ">", "not")]
            write(out_dir, "driver_fuzz", "r%03d" % n, chr(n % 3) + "\n".join(args))
            n += 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_seeds.py SOURCE_ROOT OUT_DIR")
    main(sys.argv[1], sys.argv[2])
