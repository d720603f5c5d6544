#!/usr/bin/env python3
# check_ptxas.py - compiles CUDA for sm_90a and holds ptxas to the Hopper
# kernels' standard: no spills, no stack frame, no compiler or ptxas warning
# (wgmma serialization included), every kernel within the register budget of
# its consumers' setmaxnreg (232). A .cu source (test/runtime/sm90_kernels.cu)
# is linked, proving its host side needs no -lcuda; an .exg source is first
# compiled by exgc (--exgc) and its .cu, every exported kernel in one file,
# compiled once, without linking (nvcc is slow). Each kernel's facts are
# checked and printed.
#
# usage: check_ptxas.py NVCC INCLUDE_DIR SOURCE [--exgc=EXGC] [--kernels=N]
#   --kernels=N   the number of kernels SOURCE must define (default 5)
import os
import re
import subprocess
import sys
import tempfile

BUDGET = 232


def main():
    nvcc, include, source = sys.argv[1:4]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[4:] if a.startswith("--") and "=" in a)
    expected = int(opts.get("kernels", "5"))
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [nvcc, "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a", "-I" + include,
               "-Xptxas", "-v"]
        if source.endswith(".exg"):
            cu = os.path.join(tmp, os.path.basename(source)[:-4] + ".cu")
            g = subprocess.run([opts["exgc"], source, "-o", cu], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True)
            if g.returncode != 0:
                sys.exit("exgc failed:\n" + g.stdout)
            cmd += ["-c", cu, "-o", os.path.join(tmp, "k.o")]
        else:
            cmd += [source, "-o", os.path.join(tmp, "a.out")]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    out = r.stdout
    if r.returncode != 0:
        sys.exit("nvcc failed:\n" + out)
    problems = []
    for line in out.splitlines():
        if re.search(r"warning|serializ|Performance Loss", line, re.I):
            problems.append(line)
    kernel, kernels, facts = None, 0, []
    for line in out.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            kernel, kernels = m.group(1), kernels + 1
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m and any(int(x) for x in m.groups()):
            problems.append("%s: %s" % (kernel, line.strip()))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            facts.append("  %s: %s registers, no stack, no spills" % (kernel, m.group(1)))
            if int(m.group(1)) > BUDGET:
                problems.append("%s: %s registers, over the budget of %d" %
                                (kernel, m.group(1), BUDGET))
    if kernels != expected:
        problems.append("expected the %d kernel(s) of %s, ptxas compiled %d" %
                        (expected, source, kernels))
    if problems:
        sys.exit("ptxas is not clean:\n" + "\n".join(problems))
    print("ptxas clean: %d kernels, no spills, no warnings, registers within %d" % (kernels, BUDGET))
    print("\n".join(facts))


if __name__ == "__main__":
    main()
