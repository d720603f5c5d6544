#!/usr/bin/env python3
# check_ptxas.py - compiles test/runtime/sm90_kernels.cu for sm_90a and holds
# ptxas to the Hopper kernels' standard: no spills, no stack frame, no ptxas
# warning (wgmma serialization included), every kernel within the register
# budget of its consumers' setmaxnreg (232), and a host side that links
# without -lcuda.
#
# usage: check_ptxas.py NVCC INCLUDE_DIR SOURCE
import re
import subprocess
import sys
import tempfile

BUDGET = 232


def main():
    nvcc, include, source = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([nvcc, "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a",
                            "-I" + include, "-Xptxas", "-v", source, "-o", tmp + "/a.out"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    out = r.stdout
    if r.returncode != 0:
        sys.exit("nvcc failed:\n" + out)
    problems = []
    for line in out.splitlines():
        if re.search(r"warning|serializ|Performance Loss", line, re.I):
            problems.append(line)
    kernel, kernels = None, 0
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
        if m and int(m.group(1)) > BUDGET:
            problems.append("%s: %s registers, over the budget of %d" % (kernel, m.group(1), BUDGET))
    if kernels < 5:
        problems.append("expected the 5 kernels of %s, ptxas compiled %d" % (source, kernels))
    if problems:
        sys.exit("ptxas is not clean:\n" + "\n".join(problems))
    print("ptxas clean: %d kernels, no spills, no warnings, registers within %d" % (kernels, BUDGET))


if __name__ == "__main__":
    main()
