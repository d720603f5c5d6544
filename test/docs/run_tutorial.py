#!/usr/bin/env python3
"""run_tutorial.py - run docs/tutorial.md as written.

  run_tutorial.py --bin BUILD/bin --tutorial docs/tutorial.md
                  [--nvcc NVCC] [--install-from BUILD --cmake CMAKE]

The tutorial's files come from its code blocks and its commands are run in a
temporary folder, in the order the tutorial gives them, with BUILD/bin (exgc,
exg-emu) first on PATH. What a reader does that the prose only describes (an
edited line, `print(p)` added and taken out) is driven by HTML comments, which
Markdown does not show:

  <!-- test: write FILE -->          the next code block is the file FILE
  <!-- test: append FILE -->         the next code block is appended to FILE
  <!-- test: replace "OLD" "NEW" in FILE -->
                                     OLD (it must occur exactly once) becomes NEW;
                                     \\n, \\" and \\\\ are escapes in both
  <!-- test: lines in FILE -->       each line of the next code block is a line of FILE
  <!-- test: run -->                 the next code block is a terminal session, below
  <!-- test: in output of: CMD -->   the lines of the next code block occur, in a row,
                                     in what CMD prints
  <!-- test: cmake -->               the next code block is the body of a project's
                                     CMakeLists.txt, configured and built against an
                                     installed exgc (--install-from)

Every code block of the tutorial must follow one of these markers, so no new
block escapes the test.

A session is `$ command` lines, each followed by what it prints (standard
output and standard error together, as a terminal shows them). A line `...` in
the expected output matches any number of lines. `$ echo $?` prints the exit
code of the command before; a command that fails must be followed by one (a
tutorial does not hide a failure). Commands run with bash in the work folder;
`ls` lists in columns as it does at a terminal (`ls -C`, 80 columns). The one
normalisation of the output is for paths: the work folder's absolute path is
written as `.`; lines are compared after removing trailing spaces.

A command that runs nvcc, and every command after it in its session, is
skipped when nvcc is not found (--nvcc), and so is the cmake block (its
library is BACKEND cuda); the skips are printed. Exit 0 when every step that
ran matched.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!-- test: (.*?) -->\s*$")
FENCE = re.compile(r"^```")


class Failure(Exception):
    pass


def unquote(s):
    """The quoted strings of a marker, with \\n, \\" and \\\\ escapes."""
    out, i = [], 0
    while i < len(s):
        if s[i] == " ":
            i += 1
            continue
        if s[i] != '"':
            break
        i += 1
        cur = []
        while i < len(s) and s[i] != '"':
            if s[i] == "\\" and i + 1 < len(s):
                cur.append({"n": "\n"}.get(s[i + 1], s[i + 1]))
                i += 2
            else:
                cur.append(s[i])
                i += 1
        if i >= len(s):
            raise Failure("unterminated string in marker: " + s)
        out.append("".join(cur))
        i += 1
    return out, s[i:].strip()


def parse(text):
    """[(line number, marker, code block or None)] in the tutorial's order."""
    lines = text.split("\n")
    steps, pending, i = [], None, 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            if pending and pending[1].split()[0] not in ("replace",):
                raise Failure(f"tutorial line {pending[0]}: marker '{pending[1]}' has no code block")
            pending = (i + 1, m.group(1).strip())
            if pending[1].startswith("replace "):
                steps.append((pending[0], pending[1], None))
                pending = None
            i += 1
            continue
        if FENCE.match(lines[i]):
            start = i
            i += 1
            body = []
            while i < len(lines) and not FENCE.match(lines[i]):
                body.append(lines[i])
                i += 1
            if not pending:
                raise Failure(f"tutorial line {start + 1}: a code block with no '<!-- test: ... -->' "
                              "marker before it")
            steps.append((pending[0], pending[1], "\n".join(body) + "\n"))
            pending = None
        i += 1
    if pending:
        raise Failure(f"tutorial line {pending[0]}: marker '{pending[1]}' has no code block")
    return steps


def match(expected, actual):
    """Whether the actual lines match the expected ones, '...' matching any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(match(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and match(expected[1:], actual[1:])


class Tutorial:
    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.env = dict(os.environ)
        path = [os.path.abspath(args.bin)]
        if args.nvcc:
            path.append(os.path.dirname(os.path.abspath(args.nvcc)))
        self.env["PATH"] = os.pathsep.join(path + [self.env.get("PATH", "")])
        self.env.pop("CDPATH", None)
        self.skipped = []
        self.ran = 0

    def shell(self, cmd):
        prelude = "ls() { command ls -C -w 80 -T 0 \"$@\"; }\n"
        p = subprocess.run(["bash", "-c", prelude + cmd], cwd=self.work, env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = p.stdout.replace(self.work + os.sep, "").replace(self.work, ".")
        return p.returncode, [l.rstrip() for l in out.split("\n")][:-1] if out else []

    def path(self, name):
        if os.sep in name or name.startswith("."):
            raise Failure("a tutorial file is a plain name: " + name)
        return os.path.join(self.work, name)

    def session(self, where, block):
        items = []  # (command, expected lines)
        for line in block.rstrip("\n").split("\n"):
            if line.startswith("$ "):
                items.append((line[2:], []))
            elif not items:
                raise Failure(f"{where}: a session starts with a '$ ' line")
            else:
                items[-1][1].append(line.rstrip())
        last_rc, last_cmd, checked = 0, None, True
        for n, (cmd, expected) in enumerate(items):
            if cmd == "echo $?":
                if last_cmd is None:
                    raise Failure(f"{where}: 'echo $?' with no command before it")
                if expected != [str(last_rc)]:
                    raise Failure(f"{where}: '{last_cmd}' exited {last_rc}; the tutorial says "
                                  f"{' '.join(expected)}")
                checked = True
                continue
            if not checked:
                raise Failure(f"{where}: '{last_cmd}' exited {last_rc} and the tutorial does not "
                              "show it ('$ echo $?')")
            if re.search(r"\bnvcc\b", cmd) and not self.args.nvcc:
                self.skipped += [f"'{c}' (no nvcc)" for c, _ in items[n:]]
                return
            rc, actual = self.shell(cmd)
            self.ran += 1
            print(f"$ {cmd}\n" + "".join(l + "\n" for l in actual) + f"(exit {rc})", flush=True)
            if not match(expected, actual):
                raise Failure(f"{where}: the output of '{cmd}' differs from the tutorial's.\n"
                              "expected:\n" + "".join("  | " + l + "\n" for l in expected) +
                              "actual:\n" + "".join("  | " + l + "\n" for l in actual))
            last_rc, last_cmd, checked = rc, cmd, rc == 0
        if not checked:
            raise Failure(f"{where}: '{last_cmd}' exited {last_rc} and the tutorial does not "
                          "show it ('$ echo $?')")

    def cmake(self, where, block):
        if not self.args.nvcc:
            self.skipped.append("the CMake project of step 7 (no nvcc; BACKEND cuda needs it)")
            return
        if not self.args.install_from:
            self.skipped.append("the CMake project of step 7 (no --install-from build to install)")
            return
        prefix = os.path.join(self.work, "_prefix")
        self.run_checked([self.args.cmake, "--install", self.args.install_from, "--prefix", prefix],
                         where)
        project = os.path.join(self.work, "_project")
        os.makedirs(project)
        for name in ("matmul.exg",):
            shutil.copy(self.path(name), project)
        # The app: any program that calls what kernels' header declares.
        with open(os.path.join(project, "app.cpp"), "w") as f:
            f.write('#include "matmul.h"\nint main() { return gemm == nullptr; }\n')
        with open(os.path.join(project, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.20)\n"
                    "project(app LANGUAGES CXX CUDA)\n"
                    "add_executable(app app.cpp)\n" + block)
        build = os.path.join(self.work, "_build")
        self.run_checked([self.args.cmake, "-S", project, "-B", build, "-G", "Ninja",
                          "-DCMAKE_PREFIX_PATH=" + prefix,
                          "-DCMAKE_CUDA_COMPILER=" + self.args.nvcc], where)
        out = self.run_checked([self.args.cmake, "--build", build, "-j2", "--", "-v"], where)
        if "--emit=difftest" not in out or " passed, 0 failed" not in out:
            raise Failure(f"{where}: CHECK_SIZES did not run the differential test in the build")
        if not os.path.isfile(os.path.join(build, "app")):
            raise Failure(f"{where}: the app was not linked")
        self.ran += 1

    def run_checked(self, cmd, where):
        print("$ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           env=self.env)
        print(p.stdout, end="", flush=True)
        if p.returncode != 0:
            raise Failure(f"{where}: exit {p.returncode}: {' '.join(cmd)}")
        return p.stdout

    def step(self, line, marker, block):
        where = f"tutorial line {line} ({marker})"
        verb = marker.split()[0]
        if verb in ("write", "append"):
            name = marker.split(None, 1)[1]
            with open(self.path(name), "w" if verb == "write" else "a") as f:
                f.write(block)
        elif verb == "replace":
            strings, rest = unquote(marker[len("replace"):])
            if len(strings) != 2 or not rest.startswith("in "):
                raise Failure(f"{where}: write replace \"OLD\" \"NEW\" in FILE")
            name = rest[3:].strip()
            with open(self.path(name)) as f:
                text = f.read()
            if text.count(strings[0]) != 1:
                raise Failure(f"{where}: '{strings[0]}' occurs {text.count(strings[0])} times in "
                              f"{name}, not once")
            with open(self.path(name), "w") as f:
                f.write(text.replace(strings[0], strings[1]))
        elif marker.startswith("lines in "):
            with open(self.path(marker[len("lines in "):].strip())) as f:
                have = f.read().split("\n")
            for l in block.rstrip("\n").split("\n"):
                if l not in have:
                    raise Failure(f"{where}: the file has no line '{l}'")
        elif verb == "run":
            self.session(where, block)
        elif marker.startswith("in output of: "):
            cmd = marker[len("in output of: "):]
            _, actual = self.shell(cmd)
            self.ran += 1
            want = block.rstrip("\n").split("\n")
            if not any(actual[k:k + len(want)] == want for k in range(len(actual))):
                raise Failure(f"{where}: these lines are not in the output of '{cmd}':\n" +
                              "".join("  | " + l + "\n" for l in want) + "output:\n" +
                              "".join("  | " + l + "\n" for l in actual))
        elif verb == "cmake":
            self.cmake(where, block)
        else:
            raise Failure(f"{where}: unknown marker")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the folder of exgc and exg-emu")
    ap.add_argument("--tutorial", required=True)
    ap.add_argument("--nvcc", default="")
    ap.add_argument("--install-from", default="", help="an exgc build folder to install for step 7")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    # exg-emu is needed only by the steps that need nvcc (a build without CUDA's
    # headers has neither).
    for tool in ("exgc", "exg-emu") if args.nvcc else ("exgc",):
        if not os.path.isfile(os.path.join(args.bin, tool)):
            sys.exit(f"FAIL: no {tool} in {args.bin}")
    with open(args.tutorial) as f:
        text = f.read()
    work = tempfile.mkdtemp(prefix="exgc_tutorial_")
    try:
        t = Tutorial(args, os.path.realpath(work))
        for line, marker, block in parse(text):
            t.step(line, marker, block)
    except Failure as e:
        print("FAIL: " + str(e), flush=True)
        if args.keep:
            print("work folder kept: " + work)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for s in t.skipped:
        print("skipped: " + s)
    print(f"PASS: {t.ran} commands of the tutorial ran as written, {len(t.skipped)} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
