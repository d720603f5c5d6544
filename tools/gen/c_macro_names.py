#!/usr/bin/env python3
# c_macro_names.py - writes compiler/codegen/c_macro_names.inc
#
# A parameter or proc named `NAN`, `M_PI` or `INT64_MAX` becomes a C++ name
# the preprocessor replaces, so the generated file no longer compiles.
# c_identifier() appends `_` to every macro name the headers of a generated
# file define. This script is the list's single source: it asks the C++
# compiler (and nvcc, where installed) which macros those headers define,
# and keeps the ones c_identifier's other rules do not already cover.
# Run it after changing it or the toolchain, and commit its output
# (a ctest checks that the committed list covers this machine's headers).
#
# usage: c_macro_names.py [--cxx CXX] [--nvcc NVCC] [OUT]   write OUT (or stdout)
#        c_macro_names.py [--cxx CXX] [--nvcc NVCC] --check FILE
#                         exit 1 when a macro of this machine's headers is missing
import os
import re
import subprocess
import sys
import tempfile

# What the generated CPU reference (cpp_backend), its difftest harness and the
# generated header include, and what a CUDA file includes (runtime.h, sm90.h).
CPU_HEADERS = ["cmath", "cstdint", "type_traits", "vector", "cstdlib", "cstring", "cstdio",
               "stdint.h", "stdbool.h"]
CUDA_HEADERS = ["cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "cuda_bf16.h", "cuda_fp16.h"]


def covered(name):
    """True when c_identifier already renames `name` by another rule."""
    return ("__" in name or (len(name) > 1 and name[0] == "_" and name[1].isupper())
            or name.startswith(("exg_", "cuda", "CU"))
            or (name.startswith("cu") and len(name) > 2 and name[2].isupper()))


def macros(command, headers, suffix):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "h" + suffix)
        with open(src, "w") as f:
            f.write("".join("#include <%s>\n" % h for h in headers))
        out = subprocess.run(command + [src], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        m = re.match(r"#define ([A-Za-z_][A-Za-z0-9_]*)", line)
        if m and not covered(m.group(1)):
            names.add(m.group(1))
    return names


def machine_macros(cxx, nvcc):
    names = macros([cxx, "-std=c++17", "-dM", "-E"], CPU_HEADERS, ".cpp")
    if nvcc:
        names |= macros([nvcc, "-std=c++17", "-x", "cu", "-E", "-Xcompiler", "-dM"],
                        CPU_HEADERS + CUDA_HEADERS, ".cu")
    return names


def render(names):
    lines = ["// c_macro_names.inc - written by tools/gen/c_macro_names.py; do not edit.",
             "// Macros the headers of generated files define (c_identifier renames them)."]
    lines += ['"%s",' % n for n in sorted(names)]
    return "\n".join(lines) + "\n"


def main(argv):
    cxx, nvcc, check, out = os.environ.get("CXX", "c++"), None, None, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--cxx":
            cxx = args.pop(0)
        elif a == "--nvcc":
            nvcc = args.pop(0) or None
        elif a == "--check":
            check = args.pop(0)
        else:
            out = a
    names = machine_macros(cxx, nvcc)
    if check:
        listed = set(re.findall(r'^"([^"]+)",$', open(check).read(), re.M))
        missing = sorted(names - listed)
        if missing:
            print("%s lacks %d macro names of this machine's headers (run %s): %s"
                  % (check, len(missing), sys.argv[0], " ".join(missing[:40])))
            return 1
        return 0
    text = render(names)
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
