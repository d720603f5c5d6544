#!/usr/bin/env bash
# profile.sh - what each kernel of bench/gpu/kernels.def asks of the machine ---------#
#
#   bench/emu/profile.sh [--exgc=PATH] [--exg-emu=PATH] [--build=DIR] [--jobs=N]
#                        [--static-only]
#
# Static (ptxas): every generated .cu compiled for sm_90a with `-Xptxas -v`: registers,
# spill bytes, stack frame, shared memory and named barriers of each kernel.
# Dynamic (exg-emu --profile, docs/emulator.md): the bench harness on the emulator,
# `--no-adversary`, each kernel's first launch counted by instruction class and warpgroup.
# GEMMs at M = N = 256 and K = 2048 and 4096: the difference of the two counts is the main
# loop's, per consumer warp per K step (one 128-byte swizzle row of A and B: 32 TF32 or 64
# 16-bit elements), and the producer warpgroup's per K step of its CTA. Attention at BH = 1,
# Sq = Sk = 1024, not causal: everything the consumers issue, per consumer warp per 64-key
# tile (prologue and epilogue included). The GEMV at 1024 x 4096: thread instructions per
# element of A. Counts are PTX warp instructions (what nvcc emitted, before ptxas).
# profile_table.py prints the table (bench/README.md has the last one).
# Exit codes: 0 done; 1 a harness or emulator failure; 2 bad usage, a missing tool or a
# build error.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exgc="$root/build/bin/exgc" emu="$root/build/bin/exg-emu" build="$root/build/bench-profile"
jobs_max=$(nproc 2>/dev/null || echo 2) static_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --exgc=*) exgc="${1#*=}" ;;
    --exg-emu=*) emu="${1#*=}" ;;
    --build=*) build="${1#*=}" ;;
    --jobs=*) jobs_max="${1#*=}" ;;
    --static-only) static_only=1 ;;
    *) echo "profile.sh: unknown argument '$1' (see the top of bench/emu/profile.sh)" >&2; exit 2 ;;
  esac
  shift
done
. "$here/tools.sh"
require_tools profile.sh "$exgc" "$emu"
gen="$build/generated"
mkdir -p "$build/ptxas"

# --- the emulated harness (bench/gpu/run.sh builds it and generates the .cu files) ------
"$root/bench/gpu/run.sh" --emulate --build-only --exgc="$exgc" --exg-emu="$emu" --gen="$gen" \
  --build="$build/emu" --jobs="$jobs_max" > "$build/build.log" 2>&1 ||
  { tail -n 30 "$build/build.log"; echo "profile.sh: building the emulated harness failed" >&2; exit 2; }

# --- static: ptxas -v of each generated file (reused while the file is unchanged) --------
ptxas_one() {  # FILE.cu
  local cu=$1 log="$build/ptxas/$(basename "$1" .cu).log" h
  h=$({ cat "$cu" "$root"/runtime/include/exg/*; "$nvcc" --version; } | sha256sum | cut -c1-64)
  [ -f "$log" ] && [ "$(cat "$log.hash" 2>/dev/null)" = "$h" ] && return 0
  "$nvcc" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I"$root/runtime/include" \
    -I"$gen" -Xptxas -v -c "$cu" -o /dev/null > "$log" 2>&1 || { cat "$log"; return 1; }
  echo "$h" > "$log.hash"
}
status=0
for cu in "$gen"/*.cu; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || status=2; done
  ptxas_one "$cu" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || status=2; done
[ $status = 0 ] || { echo "profile.sh: nvcc failed (above)" >&2; exit 2; }
args=(--ptxas "$build"/ptxas/*.log --kernels="$root/bench/gpu/kernels.def")

# --- dynamic: the harness on the emulator, every launch profiled -------------------------
# Twice for the GEMMs (K = 2048 and 4096): the difference is the main loop's alone.
if [ $static_only = 0 ]; then
  run_profiled() {  # OUT.jsonl HARNESS_ARGS...
    local out=$1
    shift
    rm -f "$out"
    "$emu" --no-adversary --seed 1 --profile "$out" -- "$build/emu/harness" --squares= \
      --thin-m=256 --thin-n=256 --samples=1 --warmup=0 --copy-mib=1 "$@" \
      > "${out%.jsonl}.log" 2>&1 ||
      { tail -n 30 "${out%.jsonl}.log"; echo "profile.sh: the emulated harness failed" >&2; exit 1; }
  }
  run_profiled "$build/profile_k2048.jsonl" --thin-k=2048 --gemv=1024x4096 --attention= \
    --attention-shapes=1x1024
  run_profiled "$build/profile_k4096.jsonl" --thin-k=4096 --gemv= --attention= --attention-shapes=
  args+=(--profile="$build/profile_k2048.jsonl" --profile2="$build/profile_k4096.jsonl")
fi
echo "exgc kernel profile: $(date -u '+%Y-%m-%d'), nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), exg-emu (PTX warp instructions)"
python3 "$here/profile_table.py" "${args[@]}"
