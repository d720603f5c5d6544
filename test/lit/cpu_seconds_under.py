# cpu_seconds_under.py S CODE CMD...: runs CMD (its output passes through) and
# succeeds only when it exits with CODE and used at most S seconds of CPU
# (user + system): a bound on work that a busy machine's wall clock would blur.
import resource
import subprocess
import sys

limit, want = float(sys.argv[1]), int(sys.argv[2])
got = subprocess.call(sys.argv[3:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
used = usage.ru_utime + usage.ru_stime
if got != want or used > limit:
    print("expected exit code %d within %.2f s of CPU, got %d after %.2f s: %s"
          % (want, limit, got, used, " ".join(sys.argv[3:])))
    sys.exit(1)
