#!/usr/bin/env python3
# print_parse.py EXGC FILE... - every proc a schedule makes prints as .exg that
# parses back to the same proc (issue 27, item 7).
#
# For each schedule `s` of each FILE that compiles, the result is printed
# (`exgc --emit=exg -e s`); the printed proc, renamed, is added to the module
# (whose procs, results, imports and instrs it may call), compiled again and
# printed again. The two prints must be the same text: what the
# printer writes, the parser reads back as the same proc. A result that calls
# another result (call_eqv) is counted and skipped: source cannot name one. Files whose schedules
# fail on purpose (fail_*) are skipped. Exit 1 on the first difference.
import os
import re
import subprocess
import sys
import tempfile


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def main(argv):
    exgc, files = argv[0], argv[1:]
    checked = calls_results = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            if os.path.basename(path).startswith("fail_"):
                continue
            text = open(path).read()
            if run([exgc, "--verify", path]).returncode != 0:
                continue
            for name in re.findall(r"^schedule (\w+)", text, re.M):
                first = os.path.join(tmp, "first.exg")
                r = run([exgc, "--emit=exg", "-e", name, path, "-o", first])
                if r.returncode != 0:
                    print("%s: printing '%s' failed:\n%s" % (path, name, r.stderr))
                    return 1
                printed = open(first).read()
                schedules = set(re.findall(r"^schedule (\w+)", text, re.M))
                if any(re.search(r"^\s+%s\(" % s, printed, re.M) for s in schedules):
                    # A proc body cannot name a result (no proc calls one in
                    # source); call_eqv makes such calls. Counted, not checked.
                    calls_results += 1
                    continue
                again = os.path.join(tmp, "again.exg")
                renamed = re.sub(r"^proc %s\(" % name, "proc rt__%s(" % name, printed, flags=re.M)
                with open(again, "w") as f:
                    f.write(text + "\n\n" + renamed)
                second = os.path.join(tmp, "second.exg")
                # Imports resolve against the original file's folder.
                r = run([exgc, "--emit=exg", "-I", os.path.dirname(os.path.abspath(path)), "-e",
                         "rt__" + name, again, "-o", second])
                if r.returncode != 0:
                    print("%s: the printed result of '%s' does not compile:\n%s\n%s"
                          % (path, name, r.stderr[-3000:], printed))
                    return 1
                back = open(second).read().replace("proc rt__%s(" % name, "proc %s(" % name, 1)
                if back != printed:
                    print("%s: '%s' printed, parsed and printed again differs:\n--- first\n%s\n"
                          "--- second\n%s" % (path, name, printed, back))
                    return 1
                checked += 1
    print("%d schedule results print and parse back; %d call another result (not checked)"
          % (checked, calls_results))
    return 0 if checked > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
