#!/usr/bin/env bash
# exg_checks.sh - synchronization checks of .exg kernels at growing sizes.
#
#   bench/sync/exg_checks.sh [BUILD_DIR]
#
# Runs `exgc --verify --check-size=...` on the repository's kernels and prints,
# per check, the time of the lowering plus the checks (exgc's --print-stats
# stage "synchronization checks", wall: the declared sizes and the derived
# ones, docs/sync.md), the whole run's wall time and its
# peak resident memory, and the CPU seconds of the declared-size check alone:
# the lowered program (`exgc --emit=sync`) checked by `exg-sync` (parsing
# included), which
# a loaded machine disturbs far less than wall times. Results go into
# bench/README.md by hand, with the date and the machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
exgc="$build/bin/exgc"
sync="$build/bin/exg-sync"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-16s %-26s %12s %10s %10s %14s\n' kernel sizes "check (s)" "wall (s)" "peak MiB" \
  "check CPU (s)"
run() {
  local file=$1 proc=$2 sizes=$3 out
  out=$( { /usr/bin/time -f 'TIME %e %M' "$exgc" --verify --print-stats \
             --check-size="$proc:$sizes" "$root/examples/$file" ; } 2>&1 )
  local check wall mem cpu
  check=$(awk '/synchronization checks/ {print $3}' <<<"$out")
  wall=$(awk '/^TIME/ {print $2}' <<<"$out")
  mem=$(awk '/^TIME/ {printf "%.0f", $3 / 1024}' <<<"$out")
  "$exgc" --emit=sync --check-size="$proc:$sizes" "$root/examples/$file" -o "$tmp/all.sync" \
    2>/dev/null
  # With --check-size the first program is that check (it replaces the own
  # one); the derived sizes' checks follow it, and are not timed here.
  awk '/^# check/ { n++ } n <= 1' "$tmp/all.sync" > "$tmp/p.sync"
  cpu=$( { /usr/bin/time -f 'CPU %U' "$sync" "$tmp/p.sync" >/dev/null ; } 2>&1 |
         awk '/^CPU/ {print $2}')
  printf '%-16s %-26s %12s %10s %10s %14s\n' "$proc" "$sizes" "$check" "$wall" "$mem" "$cpu"
}
run gemm_tf32_sm90a.exg gemm_tf32_sm90a M=900,N=700,K=272
run gemm_tf32_sm90a.exg gemm_tf32_sm90a M=4096,N=4096,K=4096
run gemm_tf32_sm90a.exg gemm_tf32_sm90a M=8192,N=8192,K=8192
run gemm_tf32_sm90a_cluster.exg gemm_tf32_sm90a_cluster M=900,N=700,K=272
run gemm_tf32_sm90a_cluster.exg gemm_tf32_sm90a_cluster M=4096,N=4096,K=4096
run gemm_tf32_sm90a_cluster.exg gemm_tf32_sm90a_cluster M=8192,N=8192,K=8192
run gemv_f32.exg gemv_f32 M=256,K=128
run gemv_f32.exg gemv_f32 M=65536,K=4096
run gemm_sm80.exg gemm_sm80 M=128,N=128,K=48
run gemm_sm80.exg gemm_sm80 M=1024,N=1024,K=1024
