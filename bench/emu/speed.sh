#!/usr/bin/env bash
# speed.sh - how fast exg-emu runs exgc's kernels: wall time per emulated launch ------#
#
#   bench/emu/speed.sh [--exgc=PATH] [--exg-emu=PATH] [--build=DIR] [--seed=N] [--all]
#                      [--jobs=N]
#
# exgc writes the .cu of the Hopper GEMMs and the GEMV (examples/), nvcc compiles them
# and emu_speed.cu with the flags `exg-emu --nvcc-flags` prints, and each case runs as
# `exg-emu --seed N --trace -- emu_speed KERNEL SIZES`, alone in its process. Cases
# (issue 24, item 7; target: each under 10 s on the 2-core machine):
#   gemm_tf32_128x256 and gemm_tf32_sm90a at 512 x 512 x 512, gemv_f32 at 8192 x 8192;
#   --all adds the other TF32 GEMMs of the family at 512^3.
# Columns: launch = wall time of the generated host function plus the synchronize (the
# emulated kernel, its PTX decode included; the target is judged on it); CPU = the
# process's CPU time over the same span (the engine is single-threaded: steadier than wall
# time on a loaded machine); 2nd = CPU time of a second launch in the same process (the
# PTX already decoded); process = the whole exg-emu run's wall time (start-up, PTX parse,
# operands, both launches, the host's exact check); warp instr = the warp instructions
# the engine counted in one launch (--trace); instr/s = those per CPU second of the
# second launch.
# Exit codes: 0 every output exact (targets are reported, not enforced); 1 a wrong
# output, a CUDA error or an emulator hazard; 2 bad usage, a missing tool, a build error.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exgc="$root/build/bin/exgc" emu="$root/build/bin/exg-emu" build="$root/build/bench-emu"
seed=1 all=0 jobs_max=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
  case "$1" in
    --exgc=*) exgc="${1#*=}" ;;
    --exg-emu=*) emu="${1#*=}" ;;
    --build=*) build="${1#*=}" ;;
    --seed=*) seed="${1#*=}" ;;
    --all) all=1 ;;
    --jobs=*) jobs_max="${1#*=}" ;;
    *) echo "speed.sh: unknown argument '$1' (see the top of bench/emu/speed.sh)" >&2; exit 2 ;;
  esac
  shift
done
. "$here/tools.sh"
require_tools speed.sh "$exgc" "$emu"

# --- build: exgc, then nvcc for the emulator (objects reused while their inputs match) --
sources=(gemm_hopper gemm_tf32_sm90a gemm_tf32_sm90a_cluster gemm_tf32_sm90a_tmastore gemv_f32)
gen="$build/generated"
mkdir -p "$gen"
read -r -a emu_flags <<< "$("$emu" --nvcc-flags)"
flags=(-std=c++17 -O3 "${emu_flags[@]}" -I"$root/runtime/include" -I"$gen")
compile() {  # compile OBJ SOURCE
  local obj=$1 src=$2 h
  h=$({ cat "$src" "$root"/runtime/include/exg/* "$gen"/*.h; echo "${flags[*]}";
        "$nvcc" --version; } | sha256sum | cut -c1-64)
  [ -f "$obj" ] && [ "$(cat "$obj.hash" 2>/dev/null)" = "$h" ] && return 0
  rm -f "$obj" "$obj.hash"
  "$nvcc" "${flags[@]}" -c "$src" -o "$obj" > "$obj.log" 2>&1 || return 1
  echo "$h" > "$obj.hash"
}
rm -rf "$gen/new" && mkdir -p "$gen/new"
for s in "${sources[@]}"; do
  "$exgc" "$root/examples/$s.exg" -o "$gen/new/$s.cu" 2> "$gen/$s.exgc.log" ||
    { cat "$gen/$s.exgc.log"; echo "speed.sh: exgc failed on examples/$s.exg" >&2; exit 2; }
done
for f in "$gen"/new/*; do  # files exgc wrote the same stay untouched (their objects too)
  cmp -s "$f" "$gen/${f##*/}" || mv "$f" "$gen/"
done
rm -rf "$gen/new"
objs=()
for s in "${sources[@]}" emu_speed; do
  src="$gen/$s.cu"
  [ "$s" = emu_speed ] && src="$here/emu_speed.cu"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  compile "$build/$s.o" "$src" &
  objs+=("$build/$s.o")
done
wait
for o in "${objs[@]}"; do
  [ -f "$o.hash" ] || { cat "$o.log"; echo "speed.sh: nvcc failed on ${o%.o}" >&2; exit 2; }
done
"$nvcc" "${emu_flags[@]}" "${objs[@]}" -o "$build/emu_speed" || { echo "speed.sh: link failed" >&2; exit 2; }

# --- run: one process per case ----------------------------------------------------------
cases=("gemm_tf32_128x256 512 512 512" "gemm_tf32_sm90a 512 512 512" "gemv_f32 8192 8192")
[ $all = 1 ] && cases+=("gemm_tf32_256x128 512 512 512" "gemm_tf32_128x128 512 512 512"
                        "gemm_tf32_128x256_2x1 512 512 512" "gemm_tf32_256x128_2x1 512 512 512"
                        "gemm_tf32_128x128_2x1 512 512 512"
                        "gemm_tf32_sm90a_cluster 512 512 512" "gemm_tf32_sm90a_tmastore 512 512 512")
echo "exg-emu speed, seed $seed: $(nproc) cores, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p'), $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%-26s %-12s %8s %6s %6s %9s %11s %9s  %s\n' kernel shape "launch s" "CPU s" \
  "2nd s" "process s" "warp instr" "instr/s" "target (< 10 s)"
status=0
for c in "${cases[@]}"; do
  read -r -a words <<< "$c"
  log="$build/${words[0]}.log"
  t0=$(date +%s.%N)
  "$emu" --seed "$seed" --trace -- "$build/emu_speed" "${words[@]}" --repeat=2 > "$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  shape=$(IFS=x; echo "${words[*]:1}")
  launch=$(sed -n 's/^call 1: .*: \([0-9.]*\) s wall, .*$/\1/p' "$log")
  cpu=$(sed -n 's/^call 1: .* s wall, \([0-9.]*\) s CPU$/\1/p' "$log")
  cpu2=$(sed -n 's/^call 2: .* s wall, \([0-9.]*\) s CPU$/\1/p' "$log")
  instr=$(sed -n 's/^exg-emu: .* done, \([0-9]*\) warp instructions$/\1/p' "$log" | head -n 1)
  if [ $rc != 0 ] || [ -z "$launch" ] || [ -z "$cpu2" ] || [ -z "$instr" ] ||
     ! grep -q '^check: all' "$log"; then
    printf '%-26s %-14s FAILED (exit %s):\n' "${words[0]}" "$shape" "$rc"
    sed 's/^/    /' "$log" | grep -v ' launch \| done, ' | tail -n 20
    status=1
    continue
  fi
  awk -v k="${words[0]}" -v s="$shape" -v l="$launch" -v c="$cpu" -v c2="$cpu2" -v t0="$t0" \
      -v t1="$t1" -v n="$instr" \
    'BEGIN { printf "%-26s %-12s %8.3f %6.3f %6.3f %9.3f %11d %9.3g  %s\n", k, s, l, c, c2,
             t1 - t0, n, (c2 > 0 ? n / c2 : 0), (l < 10 ? "MET" : "MISSED") }'
done
echo "(logs in $build/*.log; launch: the generated host function and the synchronize, PTX decode included)"
exit $status
