#!/usr/bin/env bash
# check_scaling.sh - synchronization check cost against problem size.
#
#   bench/sync/check_scaling.sh [BUILD_DIR] [SIZES...]
#
# For the scalar kernels of issue 28 (bench/sync/atb_smem.exg, C = A^T B with
# 32 x 32 tiles and 8 x 32 shared stages; examples/gemm_sm80.exg) at square
# sizes (default 256 512 1024 2048), lowers the declared-size check
# (`exgc --emit=sync`, the first program: derived sizes are checks of their
# own) and checks it with `exg-sync`, with loop replay and without
# (--no-loop-replay), printing CPU seconds (user + system: the page faults of
# a large check are part of its cost), peak resident MiB and the growth
# factor of CPU time per doubling. Results go into bench/README.md by hand,
# with the date and the machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256 512 1024 2048)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %6s %-16s %10s %9s %8s %12s\n' kernel size mode "CPU (s)" "peak MiB" growth replayed
run() {
  local file=$1 proc=$2 n=$3
  "$build/bin/exgc" --emit=sync --check-size="$proc:M=$n,N=$n,K=$n" "$file" -o "$tmp/all.sync"
  awk '/^# check/ { n++ } n <= 1' "$tmp/all.sync" > "$tmp/p.sync"
  for mode in loop-replay no-loop-replay; do
    local flag=""
    [ "$mode" = no-loop-replay ] && flag=--no-loop-replay
    local out
    out=$( { /usr/bin/time -f 'TIME %U %S %M' "$build/bin/exg-sync" --stats $flag \
               --max-check-time=0 --max-check-memory=0 "$tmp/p.sync" ; } 2>&1 || true)
    local cpu mem rep key growth="-"
    cpu=$(awk '/^TIME/ { printf "%.2f", $2 + $3 }' <<<"$out")
    mem=$(awk '/^TIME/ { printf "%.0f", $4 / 1024 }' <<<"$out")
    rep=$(grep -o 'replayed_iterations=[0-9]*' <<<"$out" | cut -d= -f2)
    key="$proc-$mode"
    if [ -n "${last[$key]:-}" ]; then
      growth=$(awk -v a="${last[$key]}" -v b="$cpu" 'BEGIN { printf "%.1fx", (a > 0 ? b / a : 0) }')
    fi
    last[$key]=$cpu
    printf '%-10s %6s %-16s %10s %9s %8s %12s\n' "$proc" "$n" "$mode" "$cpu" "$mem" "$growth" "$rep"
  done
}
declare -A last
for n in "${sizes[@]}"; do
  run "$root/bench/sync/atb_smem.exg" atb_smem "$n"
  run "$root/examples/gemm_sm80.exg" gemm_sm80 "$n"
done
