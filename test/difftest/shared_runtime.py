# shared_runtime.py - compile the difftest runtime once for many programs.
#
# Every program exgc writes with --emit=difftest or --emit=runall carries the
# same runtime (the size search, the data, the driver). Compiled with
# -DEXGDT_RUNTIME_ONLY, any one of them is that runtime alone; compiled with
# -DEXGDT_RUNTIME_APART, a program leaves the runtime's definitions to it.
# For a small program the runtime is most of its compile time.
import os
import subprocess

APART = "-DEXGDT_RUNTIME_APART"


def compile_runtime(cxx, flags, programs, tmp):
    """The object of the runtime in the first of `programs` (generated .cpp
    paths; None for a file exgc refused) built with `flags`, or None when
    there is none; raises RuntimeError with the compiler's output on failure."""
    program = next((p for p in programs if p), None)
    if program is None:
        return None
    obj = os.path.join(tmp, "exgdt_runtime.o")
    r = subprocess.run([cxx] + flags + ["-DEXGDT_RUNTIME_ONLY", "-c", "-o", obj, program],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0:
        raise RuntimeError("compiling the runtime of %s:\n%s" % (program, r.stdout))
    return obj
