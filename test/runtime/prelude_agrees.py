#!/usr/bin/env python3
# prelude_agrees.py - builds and runs prelude_agrees.cu: the CPU reference's prelude (from a
# file exgc generates) against exg/runtime.h's host side, helper by helper.
#
# usage: prelude_agrees.py NVCC INCLUDE_DIR EXGC
import os
import subprocess
import sys
import tempfile

PROC = "proc touch(x: f32[4]):\n    x[0] = 1.0\n"


def main():
    nvcc, include, exgc = sys.argv[1:4]
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "touch.exg")
        with open(src, "w") as f:
            f.write(PROC)
        gen = os.path.join(tmp, "touch.cpp")
        subprocess.run([exgc, src, "--emit=cpp", "-o", gen], check=True)
        exe = os.path.join(tmp, "agree")
        r = subprocess.run([nvcc, "-std=c++17", "-I" + include, "-I" + tmp,
                            '-DEXG_GENERATED="' + gen + '"',
                            os.path.join(here, "prelude_agrees.cu"), "-o", exe],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode != 0:
            sys.exit("nvcc failed:\n" + r.stdout)
        run = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
        print(run.stdout, end="")
        return run.returncode


if __name__ == "__main__":
    sys.exit(main())
