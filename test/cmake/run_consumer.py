#!/usr/bin/env python3
"""run_consumer.py - the consumer project (test/cmake/consumer) against an installed exgc.

  run_consumer.py --install-from BUILD_DIR   install BUILD_DIR into a temporary prefix
  run_consumer.py --deb-from BUILD_DIR       cpack -G DEB there, unpack the .deb into a
                                             temporary root

Either way, the consumer is copied to a temporary folder, configured with
find_package(exgc) pointed at the installed tree, built with Ninja, and run;
then the imported module is touched (the file importing it must be compiled
again, and only then) and edited (the numbers must follow). Two libraries of
one module (one with NAMESPACE) are linked into one program and both called;
DEFINES sets a schedule's top-level value.
Where nvcc exists, the CUDA library is built and linked too, together with the
CPU reference of the same module (FUNCTION_PREFIX ref_). A project without the
CUDA language that asks for BACKEND cuda must fail to configure with
exgc_add_library's own message. Exit 0 when all holds.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = "y = 1 3 5 7"        # 2 * x + y for x = 0 1 2 3, y = 1
EXPECTED_EDITED = "y = 1 4 7 10"  # with the factor of vec.exg changed to 3


def run(cmd, **kw):
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    print(p.stdout, end="", flush=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit {p.returncode}: {' '.join(cmd)}")
    return p.stdout


def expect(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)
    print("ok: " + what, flush=True)


def install_prefix(args, tmp):
    if args.install_from:
        prefix = os.path.join(tmp, "prefix")
        run([args.cmake, "--install", args.install_from, "--prefix", prefix])
        return prefix
    packages = os.path.join(tmp, "packages")
    run([args.cpack, "-G", "DEB", "--config", os.path.join(args.deb_from, "CPackConfig.cmake"),
         "-B", packages])
    debs = [f for f in os.listdir(packages) if f.endswith(".deb")]
    expect(len(debs) == 1 and debs[0].startswith("exgc_") and debs[0].endswith("_amd64.deb"),
           "cpack made exgc_<version>_amd64.deb: " + ", ".join(debs))
    deb = os.path.join(packages, debs[0])
    contents = run(["dpkg-deb", "-c", deb])
    for path in ("./usr/bin/exgc", "./usr/bin/exgc-lsp", "./usr/bin/exg-emu",
                 "./usr/share/exgc/stdlib/cuda.exg",
                 "./usr/include/exgc/exg/runtime.h", "./usr/lib/cmake/exgc/exgcConfig.cmake",
                 "./usr/share/doc/exgc/copyright"):
        expect(path in contents, "the package holds " + path)
    root = os.path.join(tmp, "root")
    run(["dpkg-deb", "-x", deb, root])
    return os.path.join(root, "usr")


EMULATED_PROGRAM = r"""
#include <cstdio>
__global__ void add_one(int *x) { x[threadIdx.x] += 1; }
int main() {
  int h[64], *d;
  for (int i = 0; i < 64; ++i) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  add_one<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += h[i] != i + 1;
  std::printf(bad ? "emulated: wrong\n" : "emulated: ok\n");
  return bad;
}
"""


def check_emulator(prefix, nvcc, tmp):
    """The installed exg-emu finds its stand-in libraries and runs a program."""
    emu = os.path.join(prefix, "bin", "exg-emu")
    expect(os.path.isfile(emu), "exg-emu installed at " + emu)
    flags = run([emu, "--nvcc-flags"]).split()
    expect("-no-compress" in flags and "shared" in flags, "exg-emu --nvcc-flags: " + " ".join(flags))
    if not nvcc:
        return
    src, prog = os.path.join(tmp, "emulated.cu"), os.path.join(tmp, "emulated")
    with open(src, "w") as f:
        f.write(EMULATED_PROGRAM)
    run([nvcc] + flags + [src, "-o", prog])
    expect(run([emu, "--", prog]).strip() == "emulated: ok",
           "a program built with those flags runs under the installed exg-emu")


NO_CUDA_PROJECT = """cmake_minimum_required(VERSION 3.20)
project(no_cuda LANGUAGES CXX)
find_package(exgc REQUIRED)
exgc_add_library(kernels saxpy.exg BACKEND cuda)
"""


def check_no_cuda(cmake, prefix, tmp):
    """BACKEND cuda in a project without the CUDA language stops at configure
    time with exgc_add_library's message, not CMake's "can not determine
    linker language" at generate time."""
    project = os.path.join(tmp, "no_cuda")
    os.makedirs(project)
    with open(os.path.join(project, "CMakeLists.txt"), "w") as f:
        f.write(NO_CUDA_PROJECT)
    shutil.copy(os.path.join(HERE, "consumer", "kernels", "saxpy.exg"), project)
    cmd = [cmake, "-S", project, "-B", os.path.join(tmp, "no_cuda_build"), "-G", "Ninja",
           "-DCMAKE_PREFIX_PATH=" + prefix]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout, end="", flush=True)
    out = " ".join(p.stdout.split())  # CMake wraps long messages
    expect(p.returncode != 0 and "exgc_add_library(kernels): BACKEND cuda" in out and
           "CUDA is not a language of this project" in out and
           "can not determine linker language" not in out,
           "BACKEND cuda without the CUDA language fails with exgc_add_library's message")


def main():
    ap = argparse.ArgumentParser()
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--install-from", help="an exgc build folder to install")
    src.add_argument("--deb-from", help="an exgc build folder to package with cpack")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--cpack", default="cpack")
    ap.add_argument("--nvcc", default="", help="build the CUDA library with this nvcc")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="exgc_consumer_") as tmp:
        prefix = install_prefix(args, tmp)
        exgc = os.path.join(prefix, "bin", "exgc")
        expect(os.path.isfile(exgc), "exgc installed at " + exgc)
        include_dir = run([exgc, "--print-include-dir"]).strip()
        expect(include_dir.startswith(prefix) and
               os.path.isfile(os.path.join(include_dir, "exg", "runtime.h")),
               "--print-include-dir names the installed runtime headers: " + include_dir)

        # The installed stdlib is found without flags: a module of it imports,
        # and a missing module is looked for there.
        uses_stdlib = os.path.join(tmp, "uses_stdlib.exg")
        with open(uses_stdlib, "w") as f:
            f.write("import cuda.sm90a\n\nproc f(n: size, x: f32[n]):\n"
                    "    for i in seq(0, n):\n        x[i] = 0.0\n")
        run([exgc, "--verify", uses_stdlib])
        missing = os.path.join(tmp, "missing.exg")
        with open(missing, "w") as f:
            f.write("import no_such_module\n")
        p = subprocess.run([exgc, "--verify", missing], stderr=subprocess.PIPE, text=True)
        stdlib = os.path.join(prefix, "share", "exgc", "stdlib")
        expect(p.returncode == 1 and "looked for '" + stdlib in p.stderr,
               "imports search the installed stdlib " + stdlib + " without flags")

        project = os.path.join(tmp, "consumer")
        shutil.copytree(os.path.join(HERE, "consumer"), project)
        build = os.path.join(tmp, "build")
        configure = [args.cmake, "-S", project, "-B", build, "-G", "Ninja",
                     "-DCMAKE_PREFIX_PATH=" + prefix, "-DCMAKE_BUILD_TYPE=Release"]
        if args.nvcc:
            configure += ["-DCONSUMER_CUDA=ON", "-DCMAKE_CUDA_COMPILER=" + args.nvcc]
        run(configure)
        build_cmd = [args.cmake, "--build", build, "-j2", "--", "-v"]
        out = run(build_cmd)
        expect("-o" in out and "scale_add.cpp" in out, "the .exg file was compiled by exgc")
        expect("--emit=difftest" in out and "2 passed, 0 failed" in out,
               "CHECK_SIZES ran the schedule's differential test in the build")
        with open(os.path.join(build, "kernels_ref.exgc", "scale_add_difftest.cpp")) as f:
            expect("ii < 3;" in f.read(), "DEFINES SPLIT=3 set the schedule's top-level value")
        app = os.path.join(build, "app")
        expect(run([app]).strip() == EXPECTED, "the CPU reference computes " + EXPECTED)
        header = os.path.join(build, "kernels_ref.exgc", "kernels_ref", "scale_add.h")
        expect(os.path.isfile(header), "the header is in a folder of its target's name")
        both = run([os.path.join(build, "app_both")]).splitlines()
        expect(both == ["scale_add 0: " + EXPECTED, "consumer::ref::scale_add 0: " + EXPECTED],
               "two libraries of one module (one with NAMESPACE) link into one program")

        out = run(build_cmd)
        expect("no work to do" in out, "a second build does nothing")

        vec = os.path.join(project, "kernels", "vec.exg")
        os.utime(vec)
        # Ninja compares modification times; make sure the touch is newer.
        st = os.stat(vec)
        os.utime(vec, (st.st_atime + 2, st.st_mtime + 2))
        out = run(build_cmd)
        expect("scale_add.exg" in out and "-MD" in out,
               "touching the imported vec.exg compiles scale_add.exg again")
        expect("saxpy.exg" not in out, "and nothing that does not import it")

        with open(vec) as f:
            text = f.read()
        with open(vec, "w") as f:
            f.write(text.replace("2.0 * x[i]", "3.0 * x[i]"))
        st = os.stat(vec)
        os.utime(vec, (st.st_atime + 4, st.st_mtime + 4))
        run(build_cmd)
        expect(run([app]).strip() == EXPECTED_EDITED,
               "after editing vec.exg the program computes " + EXPECTED_EDITED)

        check_no_cuda(args.cmake, prefix, tmp)
        check_emulator(prefix, args.nvcc, tmp)
        if args.nvcc:
            expect(os.path.isfile(os.path.join(build, "app_gpu")),
                   "the CUDA library was built and linked")
            out = run([os.path.join(build, "app_gpu")])
            expect(out.startswith("ref_saxpy 0: y = 1 4 7 10\n") and
                   "differs" not in out,
                   "with the CPU reference of the same module (FUNCTION_PREFIX ref_)")
        else:
            print("note: no nvcc; the CUDA library was not built", flush=True)
    print("PASS")


if __name__ == "__main__":
    main()
