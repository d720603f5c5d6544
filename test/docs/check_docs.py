#!/usr/bin/env python3
"""check_docs.py - the repository's text stands alone and its docs agree.

  check_docs.py SOURCE_ROOT

1. No file of the repository cites a file outside it: the design documents
   that a clone does not have (`../shared/...`, `LANGUAGE.md`, `exo_core.md`,
   `exo_gpu_*.md`) or their numbered sections ("reference 1.6", "reference D3",
   "gap G8"). Docs, code comments, tests and fuzz corpora alike: say the fact,
   or point at the project's own doc.
2. Claims the docs once made and the code outgrew are gone (each with what
   is true now): a doc that says them again contradicts the README.
3. LICENSE is the MIT license package.json names, editors/vscode/ has a copy
   and a .vscodeignore, and the install puts it in the .deb's copyright file.

The files are those git tracks (every file under SOURCE_ROOT that is not in a
build folder, when SOURCE_ROOT is not a git checkout). Exit 0 when all holds.
"""
import os
import re
import subprocess
import sys

# This file names the patterns, so it is the one file not searched.
SELF = "test/docs/check_docs.py"
CITATIONS = [
    (re.compile(r"\.\./" + "shared"), "../shared (a folder outside the repository)"),
    (re.compile(r"shared/(design|reference)/"), "the design folder outside the repository"),
    (re.compile("LANGUAGE" + r"\.md"), "the design's language document"),
    (re.compile("LANGUAGE" + r" gap"), "the design's list of gaps"),
    (re.compile("exo_" + r"core"), "the design's Exo core document"),
    (re.compile("exo_" + r"gpu_[a-z]+\.md"), "a design document of Exo-GPU"),
    (re.compile(r"\b[Rr]eference" + r" [0-9]+\.[0-9]"), "a numbered section of the reference"),
    (re.compile(r"\breference" + r" [A-H][0-9]"), "an item of the reference's checklist "
                                                   "(test/lit/synccheck/CATALOG.md states them)"),
    (re.compile(r"\bgaps? " + r"G[0-9]"), "a numbered gap of the design"),
]

# (file, stale text, what is true now). The text is matched with its
# whitespace collapsed.
STALE = [
    ("docs/language.md", "not run" + " yet (warning)",
     "every `check` runs the sync checker, in --verify and before .cu is written"),
    ("docs/language.md", "| no-ops | not" + " yet (error) |",
     "sync statements, barriers and rings compile to CUDA (docs/hopper.md)"),
    ("docs/language.md", "| ignored | not" + " yet (error) |",
     "warp roles, CudaWarps and 2 x 1 clusters compile to CUDA"),
    ("docs/language.md", "guarded | not" + " yet (error) |",
     "instruction calls compile to their emit: strings"),
    ("docs/abi.md", "`Arrive`, `Await`, fences on other" + " timelines",
     "Arrive and Await on mbarriers, commit groups and cluster barriers compile"),
    ("docs/abi.md", "`CudaWarps`, warp roles, clusters, tensor" + " maps",
     "CudaWarps, warp roles, clusters and tensor maps compile (docs/hopper.md)"),
    ("docs/tutorial.md", "exgc -e gemm" + " matmul.exg",
     "the tutorial's file exports gemm; the unscheduled matmul is host code over GPU buffers"),
    ("docs/hopper.md", "It has not run on a" + " GPU yet",
     "bench/gpu/run.sh ran on an H200 (bench/README.md)"),
]


def tracked_files(root):
    if os.path.isdir(os.path.join(root, ".git")) or os.path.isfile(os.path.join(root, ".git")):
        p = subprocess.run(["git", "-C", root, "ls-files", "-z"], stdout=subprocess.PIPE)
        if p.returncode == 0:
            return [f for f in p.stdout.decode().split("\0") if f]
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and
                   not os.path.isfile(os.path.join(d, x, "CMakeCache.txt"))]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def main():
    root = os.path.abspath(sys.argv[1])
    failures = []
    files = tracked_files(root)
    if len(files) < 100:
        sys.exit(f"FAIL: only {len(files)} files found under {root}")
    for rel in files:
        path = os.path.join(root, rel)
        if rel == SELF or not os.path.isfile(path) or os.path.islink(path):
            continue
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        for n, line in enumerate(text.split("\n"), 1):
            for pattern, what in CITATIONS:
                if pattern.search(line):
                    failures.append(f"{rel}:{n}: cites {what}: {line.strip()[:120]}")
    for rel, stale, now in STALE:
        with open(os.path.join(root, rel)) as f:
            text = " ".join(f.read().split())
        if " ".join(stale.split()) in text:
            failures.append(f"{rel}: says '{stale}' again; now: {now}")
    # The license the packages claim is in the repository and in each package.
    import json
    with open(os.path.join(root, "LICENSE")) as f:
        license_text = f.read()
    if not license_text.startswith("MIT License"):
        failures.append("LICENSE: not the MIT license that package.json and the .deb name")
    vscode = os.path.join(root, "editors", "vscode")
    with open(os.path.join(vscode, "package.json")) as f:
        if json.load(f).get("license") != "MIT":
            failures.append("editors/vscode/package.json: license is not MIT")
    if not os.path.isfile(os.path.join(vscode, "LICENSE")) or \
            open(os.path.join(vscode, "LICENSE")).read() != license_text:
        failures.append("editors/vscode/LICENSE: not a copy of LICENSE (vsce packages it)")
    if not os.path.isfile(os.path.join(vscode, ".vscodeignore")):
        failures.append("editors/vscode/.vscodeignore: missing (vsce would package the tests)")
    with open(os.path.join(root, "cmake", "install.cmake")) as f:
        if "RENAME copyright" not in f.read():
            failures.append("cmake/install.cmake: the .deb has no copyright file")
    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print(f"PASS: {len(files)} files cite nothing outside the repository; "
          f"{len(STALE)} stale claims are gone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
