#!/usr/bin/env bash
# dev.sh - the two commands of the README.
#   tools/dev.sh example   set up, build, compile the flagship example to .cu
#                          (and, where nvcc is installed, on to an sm_90a object)
#   tools/dev.sh test      set up, build, run every test (what .ci/run runs)
#   tools/dev.sh sanitize  build with clang, AddressSanitizer and UBSan (in
#                          build-sanitize) and run every test there
#   tools/dev.sh fuzz [S]  build the libFuzzer targets (same build) and run each
#                          for S seconds (default 60), one at a time under nice;
#                          findings land in build-sanitize/fuzz/findings
# BUILD_DIR (default: build), SANITIZE_BUILD_DIR (default: build-sanitize) and
# JOBS (default: 2) may be set in the environment.
# docs/reliability.md says what the fuzz targets check and what they found.
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
    # The flagship: the warp-specialized TF32 GEMM (TMA, wgmma, mbarrier rings),
    # written only after its synchronization check passes.
    "$build/bin/exgc" "$root/examples/gemm_tf32_sm90a.exg" -o "$out/gemm_tf32_sm90a.cu"
    echo "checked and wrote $out/gemm_tf32_sm90a.cu and $out/gemm_tf32_sm90a.h"
    nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
    if [ -x "$nvcc" ]; then
      "$nvcc" -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
        -I"$("$build/bin/exgc" --print-include-dir)" -c "$out/gemm_tf32_sm90a.cu" \
        -o "$out/gemm_tf32_sm90a.o"
      echo "wrote $out/gemm_tf32_sm90a.o (sm_90a)"
    else
      echo "nvcc not found: skipped compiling the .cu file"
    fi
    ;;
  test)
    setup_and_build
    ctest --test-dir "$build" -j "$jobs" --output-on-failure
    ;;
  sanitize|fuzz)
    # One clang build serves both: ASan + UBSan on every target, plus
    # libFuzzer's coverage instrumentation and the fuzz targets (EXGC_FUZZ).
    bash "$root/tools/setup-deps.sh"
    # Absolute: driver_fuzz works in a scratch directory.
    sbuild="$(realpath -m "${SANITIZE_BUILD_DIR:-$root/build-sanitize}")"
    CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$sbuild" -G Ninja -DEXGC_FUZZ=ON \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only"
    targets=(sync_fuzz frontend_fuzz schedule_fuzz driver_fuzz lsp_fuzz)
    if [ "$1" = sanitize ]; then
      cmake --build "$sbuild" -j "$jobs"
      # A report aborts: exit 1, the sanitizers' default, is also exgc's
      # ordinary error exit, which tests of rejected programs expect.
      ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" \
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1" \
        ctest --test-dir "$sbuild" -j "$jobs" --output-on-failure
      exit
    fi
    seconds="${2:-60}"
    cmake --build "$sbuild" -j "$jobs" --target "${targets[@]}"
    work="$sbuild/fuzz"
    python3 "$root/test/fuzz/make_dicts.py" "$root" "$work"
    python3 "$root/test/fuzz/make_seeds.py" "$root" "$work/seeds"
    mkdir -p "$work/findings"
    for t in "${targets[@]}"; do
      dict="$work/exg.dict"; quiet=1
      [ "$t" = sync_fuzz ] && dict="$work/sync.dict"
      [ "$t" = driver_fuzz ] && quiet=3 # the driver prints diagnostics
      mkdir -p "$work/corpus/$t" "$root/test/fuzz/corpus/$t" "$work/seeds/$t"
      echo "== $t for $seconds s"
      # CPU time is what a run is worth (docs/reliability.md records it): under
      # nice on a busy machine it can be a small part of the wall time.
      TIMEFORMAT="== $t: %R s wall, %U s user + %S s system CPU"
      # New inputs go to the first directory (the build's); the committed
      # minimized corpus and the seeds are read only.
      time nice -n 19 "$sbuild/bin/$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 \
        -max_len=65536 -close_fd_mask="$quiet" -print_final_stats=1 -dict="$dict" \
        -artifact_prefix="$work/findings/$t-" \
        "$work/corpus/$t" "$root/test/fuzz/corpus/$t" "$work/seeds/$t" || status=1
    done
    exit "${status:-0}"
    ;;
  *)
    echo "usage: tools/dev.sh example|test|sanitize|fuzz [seconds]" >&2
    exit 2
    ;;
esac
