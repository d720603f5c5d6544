#!/usr/bin/env bash
# dev.sh - the two commands of the README.
#   tools/dev.sh example   set up, build, compile the flagship example to .cu
#                          (and, where nvcc is installed, on to an sm_90a object)
#   tools/dev.sh test      set up, build, run every test (what .ci/run runs)
# BUILD_DIR (default: build) and JOBS (default: 2) may be set in the environment.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-2}"

setup_and_build() {
  bash "$root/tools/setup-deps.sh"
  cmake -S "$root" -B "$build" -G Ninja
  cmake --build "$build" -j "$jobs"
}

case "${1:-}" in
  example)
    setup_and_build
    out="$build/examples"
    mkdir -p "$out"
    "$build/bin/exgc" "$root/examples/gemm_naive.exg" -o "$out/gemm_naive.cu"
    echo "wrote $out/gemm_naive.cu and $out/gemm_naive.h"
    nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
    if [ -x "$nvcc" ]; then
      "$nvcc" -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
        -I"$("$build/bin/exgc" --print-include-dir)" -c "$out/gemm_naive.cu" -o "$out/gemm_naive.o"
      echo "wrote $out/gemm_naive.o (sm_90a)"
    else
      echo "nvcc not found: skipped compiling the .cu file"
    fi
    ;;
  test)
    setup_and_build
    ctest --test-dir "$build" -j "$jobs" --output-on-failure
    ;;
  *)
    echo "usage: tools/dev.sh example|test" >&2
    exit 2
    ;;
esac
