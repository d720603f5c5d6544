#!/usr/bin/env python3
"""check_readme.py - every command README.md shows is run here or checked elsewhere.

  check_readme.py --bin BUILD/bin --readme README.md --example examples/X.exg [--nvcc NVCC]

Each command of the README's `sh` blocks and each inline `exgc ...` / `nvcc ...`
command that names a file must be listed below: RUN (run here, in a temporary folder with
BUILD/bin first on PATH, on a real example copied to the names the README
uses: kernels/gemm.exg, kernel.exg) or ELSEWHERE (with the test that checks
it). A command the README gains and this list lacks fails the test, so the
README's commands cannot drift unnoticed. Exit 0 when all holds.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# command as the README writes it (comment removed) -> what checks it
ELSEWHERE = {
    "cmake -S . -B build -G Ninja && cmake --build build": "every ctest run builds this way (tools/dev.sh)",
    "cmake --install build --prefix ~/.local": "ctest cmake_consumer (install into a prefix, a project uses it)",
    "tools/dev.sh example": "sets up and builds the tree (not run inside a test of that tree)",
    "tools/dev.sh test": "runs every test: .ci/run",
}
# command -> (expected exit code, files it must write)
RUN = {
    "exgc --verify kernels/gemm.exg": (0, []),
    "exgc --verify --diagnostics=sarif kernels/gemm.exg 2> gemm.sarif": (0, ["gemm.sarif"]),
    "exgc kernel.exg -o kernel.cu": (0, ["kernel.cu", "kernel.h"]),
    "exgc --emit=cpp kernel.exg -o ref.cpp": (0, ["ref.cpp", "ref.h"]),
    "nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I$(exgc --print-include-dir) -c kernel.cu":
        (0, ["kernel.o"]),
}


def commands(text):
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.split("\n"):
            line = line.split("#")[0].strip()
            if line:
                out.append(line)
    # Inline commands: those naming a file (`exgc --verify` alone is a mention).
    for span in re.findall(r"`((?:exgc|nvcc) [^`]*)`", text):
        if re.search(r"\.(exg|cu)\b", span):
            out.append(span.strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--example", required=True)
    ap.add_argument("--nvcc", default="")
    args = ap.parse_args()
    with open(args.readme) as f:
        cmds = commands(f.read())
    failures, ran, skipped = [], 0, []
    env = dict(os.environ)
    path = [os.path.abspath(args.bin)] + ([os.path.dirname(os.path.abspath(args.nvcc))]
                                          if args.nvcc else [])
    env["PATH"] = os.pathsep.join(path + [env.get("PATH", "")])
    if len(cmds) < len(RUN):
        failures.append(f"only {len(cmds)} commands found in the README")
    with tempfile.TemporaryDirectory(prefix="exgc_readme_") as work:
        os.makedirs(os.path.join(work, "kernels"))
        shutil.copy(args.example, os.path.join(work, "kernels", "gemm.exg"))
        shutil.copy(args.example, os.path.join(work, "kernel.exg"))
        for cmd in cmds:
            if cmd in ELSEWHERE:
                print(f"checked elsewhere: {cmd} ({ELSEWHERE[cmd]})")
                continue
            if cmd not in RUN:
                failures.append(f"the README's command '{cmd}' is neither run here nor listed "
                                "as checked elsewhere")
                continue
            if cmd.startswith("nvcc") and not args.nvcc:
                skipped.append(cmd)
                continue
            rc_want, files = RUN[cmd]
            p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            ran += 1
            print(f"$ {cmd}\n{p.stdout}(exit {p.returncode})")
            if p.returncode != rc_want:
                failures.append(f"'{cmd}' exited {p.returncode}, not {rc_want}")
            for name in files:
                if not os.path.isfile(os.path.join(work, name)) or \
                        os.path.getsize(os.path.join(work, name)) == 0:
                    failures.append(f"'{cmd}' did not write {name}")
    for cmd in skipped:
        print(f"skipped (no nvcc): {cmd}")
    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print(f"PASS: {ran} README commands ran, the rest are checked elsewhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
