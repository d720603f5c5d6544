# expect_exit.py CODE CMD...: runs CMD and succeeds only when it exits with CODE.
# lit's internal shell has no `$?`; usage errors must be told apart from input errors.
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if got != want:
    print("expected exit code %d, got %d: %s" % (want, got, " ".join(sys.argv[2:])))
    sys.exit(1)
