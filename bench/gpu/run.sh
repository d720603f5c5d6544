#!/usr/bin/env bash
# run.sh - build and run the GPU benchmark of exgc's kernels against cuBLAS ----------#
#
#   bench/gpu/run.sh [--prepare | --build-only | --prebuilt]
#                    [--emulate [--exg-emu=PATH] [--seed=N]]
#                    [--exgc=PATH] [--gen=DIR] [--build=DIR] [--results=DIR]
#                    [--time-limit=SECONDS] [--jobs=N] [-- HARNESS_ARGS...]
#
# Steps: (1) generate: exgc compiles each .exg file that kernels.def names into GEN
# (.cu, .h, all_kernels.h, MANIFEST of the sources' hashes); skipped when no exgc is found,
# and then GEN must hold files made from the current sources (a GPU machine has no exgc:
# run `--prepare` here and carry GEN there). (2) build: nvcc compiles the generated files
# and harness.cu for sm_90a, in parallel, each object reused while its inputs are
# unchanged, and links them with cuBLAS. (3) when a GPU is present: the harness checks and
# times everything (bench.log, bench.json in RESULTS); where PyTorch is present, sdpa.py
# times torch's scaled_dot_product_attention at the same attention shapes (sdpa.log,
# sdpa.json); then the harness runs once more at small sizes under `compute-sanitizer
# --tool memcheck` (memcheck.log).
#
# --emulate: the same harness on exg-emu, no GPU needed (bench/README.md): step 2
# compiles with the flags `exg-emu --nvcc-flags` prints (PTX for compute_90a, no SASS)
# and links exg-emu's host stand-in for cuBLAS (lib/exg-emu/libcublas.so.13: FP64 loops
# on the host, not NVIDIA's); step 3 runs `exg-emu --seed N -- harness` at small sizes
# (unless HARNESS_ARGS say otherwise), every output element checked against FP64 as on a
# GPU, then the ragged `--small` shapes instead of memcheck (which needs a GPU; exg-emu
# checks every access itself). Times are emulated host times, meaningless for speed, and
# no target is judged. With --build-only: the emulator build, then `exg-emu -- harness
# --list`. An emulator hazard (exit 101-108) fails the run; its report is in the log.
#
#   --prepare      step 1 only
#   --build-only   steps 1 and 2, then `harness --list` (the ctest gpu_bench_build)
#   --prebuilt     skip step 2: BUILD/harness was built elsewhere from these sources
#                  (bench/gpu/device.sh --prepare) and carried here with GEN
#   --emulate      run on exg-emu instead of a GPU (above)
#   --exg-emu=PATH default: build/bin/exg-emu of this checkout
#   --seed=N       exg-emu's seed (scheduler and adversary; default 1)
#   --exgc=PATH    default: build/bin/exgc of this checkout, when it exists
#   --gen=DIR      default: bench/gpu/generated
#   --build=DIR    default: build/bench-gpu (--emulate: build/bench-gpu-emu)
#   --results=DIR  default: $OUT when set (the device tool), else bench/gpu/results
#                  (--emulate: BUILD/results)
#   --time-limit=S the harness's wall-clock limit (default 300; memcheck gets 150 more)
#   --jobs=N       nvcc processes at once (default: the number of processors)
#   HARNESS_ARGS   passed on (harness.cu: --samples=N, --squares=..., --gemv=MxK,...)
#
# Exit codes: 0 it ran and every check passed (speed targets are reported, not enforced);
# 1 a check failed, an exgc kernel faulted or hung, memcheck found an error, or the
# harness failed (--emulate: or the emulator reported a hazard); 2 bad usage, a missing
# tool, stale generated files or a compile error; 3 everything was built but no GPU is
# present, so nothing ran; 77 (--build-only, or --emulate) nvcc or cuBLAS is missing here,
# or with --emulate exg-emu or its cuBLAS stand-in (ctest counts it as skipped).
set -uo pipefail
export LC_ALL=C  # one sort order (the MANIFEST) on every machine

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mode=run exgc="" gen="$here/generated" build="" results="" emulate=0 seed=1
emu="$root/build/bin/exg-emu"
jobs_max=$(nproc 2>/dev/null || echo 4)
time_limit=300
harness_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --prepare) mode=prepare ;;
    --build-only) mode=build ;;
    --prebuilt) mode=prebuilt ;;
    --emulate) emulate=1 ;;
    --exg-emu=*) emu="${1#*=}" ;;
    --seed=*) seed="${1#*=}" ;;
    --exgc=*) exgc="${1#*=}" ;;
    --gen=*) gen="${1#*=}" ;;
    --build=*) build="${1#*=}" ;;
    --results=*) results="${1#*=}" ;;
    --time-limit=*) time_limit="${1#*=}" ;;
    --jobs=*) jobs_max="${1#*=}" ;;
    --) shift; harness_args=("$@"); break ;;
    *) echo "run.sh: unknown argument '$1' (see the top of bench/gpu/run.sh)" >&2; exit 2 ;;
  esac
  shift
done
[ -z "$exgc" ] && [ -x "$root/build/bin/exgc" ] && exgc="$root/build/bin/exgc"
if [ $emulate = 1 ]; then
  build="${build:-$root/build/bench-gpu-emu}" results="${results:-${OUT:-$build/results}}"
else
  build="${build:-$root/build/bench-gpu}" results="${results:-${OUT:-$here/results}}"
fi
t_start=$SECONDS
say() { echo "run.sh [$((SECONDS - t_start))s]: $*"; }

# --- 1. generate ----------------------------------------------------------------------
exg_files=$(sed -n 's/^EXG_[A-Z]*("\([^"]*\)".*/\1/p' "$here/kernels.def" | sort -u)
manifest_sources() {  # what the generated files are made from, relative to the root
  (cd "$root" && { echo bench/gpu/kernels.def; echo "$exg_files"; find stdlib -name '*.exg'; } |
    sort -u)
}
if [ -n "$exgc" ]; then
  mkdir -p "$gen"
  rm -f "$gen"/*.cu "$gen"/*.h "$gen"/MANIFEST
  for f in $exg_files; do
    stem=$(basename "$f" .exg)
    if ! "$exgc" "$root/$f" -o "$gen/$stem.cu"; then
      say "exgc failed on $f"; exit 2
    fi
    echo "#include \"$stem.h\"" >> "$gen/all_kernels.h"
  done
  (cd "$root" && manifest_sources | xargs sha256sum) > "$gen/MANIFEST"
  say "generated $(echo $exg_files | wc -w) file(s) with $exgc into $gen"
elif [ ! -f "$gen/MANIFEST" ]; then
  say "no exgc (build/bin/exgc or --exgc) and no generated files in $gen: run" \
      "'bench/gpu/run.sh --prepare' where exgc is built, and bring $gen along"
  exit 2
elif ! (cd "$root" && sha256sum --quiet -c "$gen/MANIFEST" >/dev/null 2>&1) ||
     [ "$(manifest_sources)" != "$(awk '{print $2}' "$gen/MANIFEST")" ]; then
  say "the files in $gen were generated from other sources than these (kernels.def," \
      "the .exg files or stdlib changed): run 'bench/gpu/run.sh --prepare' again"
  exit 2
else
  say "using the generated files in $gen (no exgc here; MANIFEST matches the sources)"
fi
[ "$mode" = prepare ] && exit 0

# --- 2. build -------------------------------------------------------------------------
skip_or_fail() { say "$1"; [ "$mode" = build ] || [ $emulate = 1 ] && exit 77; exit 2; }
nvcc="$(command -v nvcc || true)"
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
[ -z "$nvcc" ] && skip_or_fail "nvcc not found: nothing built"
cuda_home="$(cd "$(dirname "$(readlink -f "$nvcc")")/.." && pwd)"
blas_cflags=() blas_lflags=(-lcublas)
for d in "$cuda_home"/lib64 "$cuda_home"/lib "$cuda_home"/targets/*/lib; do
  # The harness finds libcublas where it was linked, whatever the loader's paths.
  ls "$d"/libcublas.so* >/dev/null 2>&1 && blas_lflags+=(-Xlinker "-rpath=$d")
done
if ! ls "$cuda_home"/include/cublas_v2.h "$cuda_home"/targets/*/include/cublas_v2.h \
       >/dev/null 2>&1; then
  # No cuBLAS in the toolkit: try the pip package nvidia-cublas (the GPU machine's PyTorch).
  pip_blas=$(python3 -c 'import nvidia.cublas as m, os; print(os.path.dirname(m.__file__) if m.__file__ else list(m.__path__)[0])' 2>/dev/null)
  lib=$(ls "$pip_blas"/lib/libcublas.so* 2>/dev/null | head -1)
  [ -z "$pip_blas" ] || [ -z "$lib" ] && skip_or_fail "cuBLAS (cublas_v2.h) not found: nothing built"
  blas_cflags=(-I"$pip_blas/include")
  blas_lflags=("$lib" -Xlinker "-rpath=$pip_blas/lib")
  lt=$(ls "$pip_blas"/lib/libcublasLt.so* 2>/dev/null | head -1)
  [ -n "$lt" ] && blas_lflags+=("$lt")
fi
flags=(-std=c++17 -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -I"$root/runtime/include")
link_flags=(-gencode=arch=compute_90a,code=sm_90a)
run_prefix=()  # what runs the harness: nothing on a GPU, exg-emu under --emulate
if [ $emulate = 1 ]; then
  [ -x "$emu" ] || skip_or_fail "--emulate: no exg-emu at $emu (build it, or --exg-emu=PATH)"
  emu_lib="$(cd "$(dirname "$emu")/.." && pwd)/lib/exg-emu"
  [ -f "$emu_lib/libcublas.so.13" ] ||
    skip_or_fail "--emulate: exg-emu's cuBLAS stand-in $emu_lib/libcublas.so.13 is not built"
  read -r -a emu_flags <<< "$("$emu" --nvcc-flags)"
  flags=(-std=c++17 -O3 "${emu_flags[@]}" -I"$root/runtime/include")
  link_flags=("${emu_flags[@]}")
  # The stand-in's soname is NVIDIA's (libcublas.so.13): exg-emu puts its folder first on
  # the library path, so the harness gets the host stand-in however it was linked.
  blas_lflags=(-L"$emu_lib" -lcublas)
  run_prefix=("$emu" --seed "$seed" --)
  say "EMULATED: kernels on exg-emu ($emu); cuBLAS is its HOST STAND-IN" \
      "($emu_lib/libcublas.so.13, FP64 loops on the host), not NVIDIA's"
fi
mkdir -p "$build"
inputs_hash() {  # the hash of a compile's inputs and command: an object is reused while it matches
  { cat "$@" "$root"/runtime/include/exg/* "$gen"/*.h; echo "${flags[*]} ${blas_cflags[*]}";
    "$nvcc" --version; } | sha256sum | cut -c1-64
}
compile() {  # compile OBJ SOURCE [EXTRA INPUTS...] [-- NVCC FLAGS...]
  local obj=$1 src=$2; shift 2
  local deps=() extra=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do deps+=("$1"); shift; done
  [ $# -gt 0 ] && shift && extra=("$@")
  local h; h=$(inputs_hash "$src" "${deps[@]}")
  if [ -f "$obj" ] && [ "$(cat "$obj.hash" 2>/dev/null)" = "$h" ]; then return 0; fi
  rm -f "$obj" "$obj.hash"
  "$nvcc" "${flags[@]}" "${extra[@]}" -c "$src" -o "$obj" > "$obj.log" 2>&1 || return 1
  echo "$h" > "$obj.hash"
}
in_background() {  # at most $jobs_max compiles at once; each one's success is its .hash file
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  "$@" &
}
build_harness() {  # compiles the objects whose inputs changed, links when one is newer
  objs=()
  for f in $exg_files; do
    stem=$(basename "$f" .exg)
    in_background compile "$build/$stem.o" "$gen/$stem.cu"
    objs+=("$build/$stem.o")
  done
  in_background compile "$build/harness.o" "$here/harness.cu" "$here"/*.cuh "$here"/*.h \
    "$here/kernels.def" -- -I"$gen" "${blas_cflags[@]}"
  objs+=("$build/harness.o")
  wait
  failed=0
  for o in "${objs[@]}"; do
    [ -f "$o.hash" ] || { failed=1; say "nvcc failed on ${o%.o}:"; cat "$o.log"; }
  done
  [ $failed = 0 ] || exit 2
  if [ ! -x "$build/harness" ] || [ -n "$(find "${objs[@]}" -newer "$build/harness")" ]; then
    "$nvcc" "${link_flags[@]}" "${objs[@]}" "${blas_lflags[@]}" \
      -o "$build/harness" || { say "link failed"; exit 2; }
  fi
}
if [ "$mode" = prebuilt ]; then
  [ -x "$build/harness" ] || { say "--prebuilt: no harness in $build"; exit 2; }
  say "--prebuilt: using $build/harness as carried (built from these sources elsewhere)"
else
  build_harness
fi
"${run_prefix[@]}" "$build/harness" --list > "$build/kernels.txt" ||
  { say "the harness does not start"; exit 2; }
say "built $build/harness: $(wc -l < "$build/kernels.txt") kernel(s)"
[ "$mode" = build ] && { say "build only: nothing was run"; exit 0; }

# --- 3. run ---------------------------------------------------------------------------
# The harness itself says whether there is a GPU (exit 3 when CUDA finds no device);
# nvidia-smi, when present, only adds the clocks and temperature to the log.
no_gpu() {
  say "NO GPU HERE ($1): everything was built, nothing was run, no result was recorded"
  exit 3
}
mkdir -p "$results"
gpu_state() {
  command -v nvidia-smi >/dev/null 2>&1 || { echo "(no nvidia-smi)"; return; }
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv,noheader 2>&1
}
if [ $emulate = 1 ]; then
  # Small sizes: about a minute on 2 cores. One sample, no warm-up: emulated times mean
  # nothing, but the timing path still runs.
  [ ${#harness_args[@]} = 0 ] && harness_args=(--squares=256 --thin-m=128 --thin-k=64
    --gemv=1024x1024 --attention= --attention-shapes=2x192 --samples=1 --warmup=0
    --copy-mib=1)
  say "EMULATED run (exg-emu --seed $seed): harness ${harness_args[*]}"
else
  say "GPU before: $(gpu_state)"
fi
skips=() rc=4
: > "$results/bench.log"
rm -f "$results/bench.json" "$results/memcheck.log" "$results/small.log"
for attempt in 1 2 3 4; do
  rm -f "$build/fault"
  args=(--json="$results/bench.json" --fault-file="$build/fault")
  for s in "${skips[@]}"; do args+=(--skip="$s"); done
  timeout "$time_limit" "${run_prefix[@]}" "$build/harness" "${args[@]}" "${harness_args[@]}" 2>&1 |
    tee -a "$results/bench.log"
  rc=${PIPESTATUS[0]}
  [ "$rc" = 4 ] && [ -s "$build/fault" ] || break
  skips+=("$(cat "$build/fault")")
  say "exgc kernel '${skips[-1]}' faulted: running again without it (attempt $((attempt + 1)))"
done
[ "$rc" = 3 ] && no_gpu "CUDA finds no device"
[ $emulate = 1 ] || say "GPU after: $(gpu_state)"
status=0
case "$rc" in
  0) say "harness: every check passed" ;;
  124) say "harness: stopped after $time_limit s (--time-limit)"; status=1 ;;
  10[1-8]) say "harness: exg-emu stopped it on a hazard (exit $rc; the report is in" \
                "bench.log)"; status=1 ;;
  *) say "harness: exit $rc (1: a check failed; 4: a kernel faulted)"; status=1 ;;
esac
[ ${#skips[@]} -gt 0 ] && { say "FAULTED and left out: ${skips[*]}"; status=1; }

if [ $emulate = 1 ]; then
  # compute-sanitizer needs a GPU; exg-emu checks every access's bounds itself, so the
  # ragged small shapes run on it instead (the tile edges of every kernel).
  say "memcheck: does not apply under the emulator; the ragged --small shapes run on" \
      "exg-emu instead (small.log)"
  skip_args=()
  for s in "${skips[@]}"; do skip_args+=(--skip="$s"); done
  timeout 150 "${run_prefix[@]}" "$build/harness" --small "${skip_args[@]}" \
    > "$results/small.log" 2>&1
  src=$?
  tail -n 3 "$results/small.log"
  case "$src" in
    0) say "small shapes: every check passed" ;;
    10[1-8]) say "small shapes: exg-emu stopped the harness on a hazard (exit $src," \
                  "small.log)"; status=1 ;;
    *) say "small shapes: harness exit $src (small.log)"; status=1 ;;
  esac
  say "results in $results (bench.log, bench.json, small.log); EMULATED: cuBLAS a host" \
      "stand-in, times host times; exit $status"
  exit $status
fi

# PyTorch's attention at the harness's attention shapes, where the machine has PyTorch:
# figures to set beside the exgc kernels (sdpa.log, sdpa.json); not ours, so reported only.
if [ -s "$results/bench.json" ] && grep -q '"op": "attn"' "$results/bench.json"; then
  timeout 300 python3 "$here/sdpa.py" "$results/bench.json" --json="$results/sdpa.json" \
    > "$results/sdpa.log" 2>&1
  prc=$?
  tail -n 1 "$results/sdpa.log"
  case "$prc" in
    0) say "torch SDPA: timed at the attention shapes (sdpa.log, sdpa.json)" ;;
    3) say "torch SDPA: NOT RUN (no PyTorch or no GPU for it; sdpa.log)" ;;
    *) say "torch SDPA: exit $prc (1: one of its outputs failed the check; sdpa.log)" ;;
  esac
fi

sanitizer="$(command -v compute-sanitizer || true)"
for c in "$cuda_home"/bin/compute-sanitizer "$cuda_home"/compute-sanitizer/compute-sanitizer; do
  [ -z "$sanitizer" ] && [ -x "$c" ] && sanitizer="$c"
done
if [ -z "$sanitizer" ]; then
  say "memcheck: NOT RUN (compute-sanitizer not found)"
else
  skip_args=()
  for s in "${skips[@]}"; do skip_args+=(--skip="$s"); done
  for a in "${harness_args[@]}"; do [[ "$a" == --skip=* ]] && skip_args+=("$a"); done
  timeout 150 "$sanitizer" --tool memcheck --error-exitcode 86 "$build/harness" --small \
    "${skip_args[@]}" > "$results/memcheck.log" 2>&1
  mrc=$?
  tail -n 5 "$results/memcheck.log"
  case "$mrc" in
    0) say "memcheck: clean at the small sizes" ;;
    86) say "memcheck: ERRORS (memcheck.log)"; status=1 ;;
    1 | 4) say "memcheck: the harness failed under memcheck (exit $mrc, memcheck.log)"; status=1 ;;
    *) say "memcheck: NOT COMPLETED (compute-sanitizer exit $mrc; memcheck.log)" ;;
  esac
fi
say "results in $results (bench.log, bench.json, sdpa.log, memcheck.log); exit $status"
exit $status
