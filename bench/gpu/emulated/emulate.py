#!/usr/bin/env python3
# emulate.py - runs the GPU benchmark's harness on the CPU, as the ctest gpu_bench_emulated.
#
# No GPU is needed: the harness is compiled with g++ against the emulated CUDA runtime and
# cuBLAS beside this file, its kernel launches rewritten to emu::launch, and each exgc
# kernel of kernels.def replaced by exgc's CPU reference of the same proc (--emit=cpp)
# behind the CUDA function's prototype. What this proves: the harness's flow, its checks
# (FP64 references, host samples, bounds, the NaN-filled outputs), the tables and the JSON
# work, and its reading of cuBLAS's column-major calls agrees with the host's row-major
# FP64. It runs the small shapes and a short full run (both must pass), then a kernel made
# wrong in one element (the run must fail and name it) and a kernel returning an error
# (the run must stop with exit 4 and the kernel in the fault file).
#
# usage: emulate.py --exgc=EXGC --cxx=CXX --work=DIR
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(GPU))
PROTO = re.compile(r"^cudaError_t (\w+)\(cudaStream_t stream, (.*)\);$")


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, **kw)
    return r.returncode, r.stdout


def must(cmd, what):
    rc, out = run(cmd)
    if rc != 0:
        sys.exit("%s failed (exit %d): %s\n%s" % (what, rc, " ".join(cmd), out))
    return out


def rewrite_launches(text):
    """k<<<grid, block, smem, stream>>>(args) -> ::emu::launch(grid, block, [&] { k(args); })"""
    out, pos = [], 0
    for m in re.finditer(r"(\w+)<<<(.*?)>>>\(", text):
        if m.start() < pos:
            continue
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        config, level, parts, cur = m.group(2), 0, [], ""
        for ch in config:
            level += {"(": 1, ")": -1}.get(ch, 0)
            if ch == "," and level == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        out.append(text[pos:m.start()])
        out.append("::emu::launch(dim3(%s), dim3(%s), [&] { %s(%s); })" %
                   (parts[0], parts[1], m.group(1), text[m.end():i - 1]))
        pos = i
    out.append(text[pos:])
    return "".join(out)


def main():
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    exgc, cxx, work = opts["exgc"], opts["cxx"], os.path.abspath(opts["work"])
    gen, src = os.path.join(work, "gen"), os.path.join(work, "src")
    os.makedirs(gen, exist_ok=True)
    os.makedirs(src, exist_ok=True)
    with open(os.path.join(GPU, "kernels.def")) as f:
        files = sorted({m.group(1) for m in re.finditer(r'^EXG_\w+\("([^"]+)"', f.read(), re.M)})

    # exgc: the CUDA prototypes (stem.h) and the CPU references (stem_cpu.cpp).
    objects, wrappers, includes = [], ['#include "cuda_runtime.h"', "#include <cstdlib>",
                                       "#include <cstring>"], []
    compile_flags = [cxx, "-std=c++20", "-O1", "-pthread", "-I" + HERE]
    for exg in files:
        stem = os.path.splitext(os.path.basename(exg))[0]
        path = os.path.join(ROOT, exg)
        must([exgc, path, "-o", os.path.join(gen, stem + ".cu")], "exgc")
        must([exgc, "--emit=cpp", path, "-o", os.path.join(gen, stem + "_cpu.cpp")], "exgc")
        includes.append('#include "%s.h"' % stem)
        renames = []
        with open(os.path.join(gen, stem + ".h")) as f:
            for line in f:
                m = PROTO.match(line.strip())
                if not m:
                    continue
                name, params = m.group(1), m.group(2)
                args = [p.split()[-1].lstrip("*") for p in params.split(",")]
                renames.append("-D%s=emu_cpu_%s" % (name, name))
                # The last argument is the output (C of a GEMM, y of a GEMV).
                wrappers += [
                    'extern "C" int emu_cpu_%s(%s);' % (name, params),
                    'extern "C" cudaError_t %s(cudaStream_t, %s) {' % (name, params),
                    '  const char *fault = std::getenv("EMU_FAULT"), *wrong = std::getenv("EMU_BREAK");',
                    '  if (fault && !std::strcmp(fault, "%s")) return cudaErrorUnknown;' % name,
                    '  if (emu_cpu_%s(%s)) return cudaErrorInvalidValue;' % (name, ", ".join(args)),
                    '  if (wrong && std::strstr(wrong, "%s")) %s[0] += 1.0f;' % (name, args[-1]),
                    "  return cudaSuccess;", "}"]
        obj = os.path.join(work, stem + "_cpu.o")
        must(compile_flags + renames + ["-c", os.path.join(gen, stem + "_cpu.cpp"), "-o", obj],
             "compiling the CPU reference")
        objects.append(obj)
    with open(os.path.join(gen, "all_kernels.h"), "w") as f:
        f.write("\n".join(includes) + "\n")
    with open(os.path.join(work, "wrappers.cpp"), "w") as f:
        # The generated headers declare the element types (exg_bf16, exg_f16) the prototypes use.
        f.write('#include "all_kernels.h"\n' + "\n".join(wrappers) + "\n")

    # The harness, its launches rewritten.
    for name in os.listdir(GPU):
        if name.endswith((".cu", ".cuh", ".h", ".def")):
            with open(os.path.join(GPU, name)) as f:
                text = rewrite_launches(f.read())
            with open(os.path.join(src, name[:-3] + ".cpp" if name == "harness.cu" else name),
                      "w") as f:
                f.write(text)
    harness = os.path.join(work, "harness")
    must(compile_flags + ["-I" + src, "-I" + gen, os.path.join(src, "harness.cpp"),
                          os.path.join(work, "wrappers.cpp")] + objects + ["-o", harness],
         "compiling the harness")
    kernels = [l.split()[2] for l in must([harness, "--list"], "harness --list").splitlines()]

    small = must([harness, "--small"], "harness --small")
    report = os.path.join(work, "bench.json")
    must([harness, "--samples=3", "--warmup=1", "--squares=256", "--thin-m=128",
          "--thin-k=64", "--gemv=256x256", "--attention=", "--attention-shapes=2x192",
          "--copy-mib=8", "--json=" + report],
         "harness (a short full run)")
    with open(report) as f:
        rows = json.load(f)["rows"]
    for k in kernels:
        mine = [r for r in rows if r["contender"] == k]
        if not mine or not all(r["check"]["passed"] and "time_ms" in r for r in mine):
            sys.exit("kernel %s: missing, failing or untimed in %s" % (k, report))
    if not any(r["op"] == "copy" for r in rows) or not small.count("pass"):
        sys.exit("no copy rows or no passing small rows:\n" + small)

    # Every kernel wrong in one element at once: each must be reported.
    rc, out = run([harness, "--small"], env=dict(os.environ, EMU_BREAK=",".join(kernels)))
    for k in kernels:
        if rc != 1 or not re.search(r"\b%s\b.*FAIL" % k, out):
            sys.exit("a wrong %s was not reported (exit %d):\n%s" % (k, rc, out))
    # The first kernel returns an error: the run stops, naming it.
    fault = os.path.join(work, "fault")
    if os.path.exists(fault):
        os.remove(fault)
    rc, out = run([harness, "--small", "--fault-file=" + fault],
                  env=dict(os.environ, EMU_FAULT=kernels[0]))
    if rc != 4 or not os.path.exists(fault) or open(fault).read().strip() != kernels[0]:
        sys.exit("a fault in %s did not stop the run with exit 4 (exit %d):\n%s" %
                 (kernels[0], rc, out))
    print("emulated harness: %d kernel(s) checked and timed; wrong ones reported, a fault "
          "stops the run" % len(kernels))


if __name__ == "__main__":
    main()
