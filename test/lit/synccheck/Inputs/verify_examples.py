"""verify_examples.py - every example kernel passes `exgc --verify`, all of it checked.

Usage: verify_examples.py EXAMPLES_DIR EXGC [EXGC_ARGS...]

Runs `EXGC --verify` on every `EXAMPLES_DIR/**/*.exg` and fails (exit 1) when one
exits non-zero, prints an error, or warns that a proc's synchronization was not
verified: every parallel example must carry a `check` at which it passes, so no
correct kernel of the repository is a false alarm and none goes unchecked. Prints
one line per file with the number of checks it ran (the `# check` headers of
`--emit=sync`), so a test can also see that the checks really ran.
"""
import pathlib
import subprocess
import sys


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    root = pathlib.Path(sys.argv[1])
    exgc = sys.argv[2:]
    files = sorted(root.rglob("*.exg"))
    if not files:
        print(f"no .exg file under {root}")
        return 1
    failed = 0
    for path in files:
        name = path.relative_to(root).as_posix()
        verify = run(exgc + ["--verify", str(path)])
        problems = [line for line in verify.stdout.splitlines()
                    if ": error:" in line or "was not verified" in line]
        if verify.returncode != 0 or problems:
            failed += 1
            print(f"FAIL {name} (exit {verify.returncode})")
            print(verify.stdout)
            continue
        checks = sum(line.startswith("# check ")
                     for line in run(exgc + ["--emit=sync", str(path)]).stdout.splitlines())
        print(f"PASS {name}: {checks} check(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
