#!/usr/bin/env bash
# device.sh - everything GPU-related in one run, for a session lent an H200 -----------#
#
#   bench/gpu/device.sh --prepare     here, where exgc, exg-emu and nvcc are built
#   bench/gpu/device.sh               there (the device tool), with the carried builds
#   bench/gpu/device.sh --bench-only  there: step 3 and 4 only (the benchmark, ncu)
#   bench/gpu/device.sh --profile     there: ncu stall reasons and instruction counts of
#                                     three TF32 GEMMs at 4096^3 (ncu_stalls.txt), SASS
#
# --prepare builds every program the GPU run needs, so that the lent minutes go to
# running, not compiling (the GPU machine has nvcc but none of exgc's dependencies):
#   build/bench-gpu        the benchmark harness (bench/gpu/run.sh --build-only)
#   build/device/          emu_kernels_gpu: test/emu's example-kernel test (every example
#                          against its CPU reference at ragged sizes) with each kernel
#                          built for sm_90a instead of the emulator's PTX;
#                          warpspec/: the accepted cases of test/emu/warpspec_random.py
#                          (300 cases, seed 11) built for sm_90a, runs.txt their sizes;
#                          tensor_map_program, cudart_e2e: test/emu's plain CUDA programs
# and prints the device call. The run, in order, each step with its own time limit and
# its log under $OUT: the emulator's test programs on the hardware (device.log,
# warpspec_failures.txt), the harness's ragged small shapes (checks of every kernel;
# device.log), then bench/gpu/run.sh: checks at every shape, timing, compute-sanitizer
# memcheck, and PyTorch SDPA at the attention shapes where PyTorch is present (bench.log,
# bench.json, memcheck.log, sdpa.log, sdpa.json), then Nsight Compute's summary of the
# Hopper GEMMs at 4096^3 (ncu.txt).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dev="$root/build/device"

if [ "${1:-}" = --prepare ]; then
  nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
  sm90a=(-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -cudart shared)
  "$here/run.sh" --build-only || exit 2
  rm -rf "$dev" && mkdir -p "$dev/obj"
  emu="$root/build/test/emu"
  for cu in "$emu"/generated/*.cu; do
    "$nvcc" "${sm90a[@]}" -I"$root/runtime/include" -c "$cu" \
      -o "$dev/obj/$(basename "$cu" .cu).o" || exit 2
  done
  "$nvcc" "${sm90a[@]}" "$dev"/obj/*.o "$emu"/CMakeFiles/emu_kernels.dir/emu_kernels.cpp.o \
    "$emu"/CMakeFiles/emu_kernels.dir/generated/*_ref.cpp.o -o "$dev/emu_kernels_gpu" || exit 2
  rm -rf "$dev/obj"
  for p in tensor_map_program cudart_e2e; do
    "$nvcc" "${sm90a[@]}" "$root/test/emu/$p.cu" -lcuda -o "$dev/$p" || exit 2
  done
  python3 "$root/test/emu/warpspec_random.py" "$root/build" --nvcc "$nvcc" --count 300 \
    --seed 11 --gpu "$dev/warpspec" > "$dev/warpspec_build.log" 2>&1
  tail -n 1 "$dev/warpspec_build.log"
  echo "device.sh: prepared ($(du -sh "$dev" "$root/build/bench-gpu" | awk '{print $1}' |
    paste -sd+) carried). Run with the device tool:"
  echo "  run(command=\"bench/gpu/device.sh\", carry=[\"build/device\", \"build/bench-gpu\"," \
       "\"bench/gpu/generated\"], timeout_s=600)"
  exit 0
fi

out="${OUT:-$root/bench/gpu/results}"
mkdir -p "$out"
log="$out/device.log"
: > "$log"
t0=$SECONDS
say() { echo "device.sh [$((SECONDS - t0))s]: $*" | tee -a "$log"; }
# The programs were linked here against libcudart.so.13 and cuBLAS 13: find them there.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
         $(python3 -c 'import nvidia.cublas as m; print(list(m.__path__)[0] + "/lib")' 2>/dev/null) \
         $(python3 -c 'import nvidia.cuda_runtime as m; print(list(m.__path__)[0] + "/lib")' 2>/dev/null); do
  [ -d "$d" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
say "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1)"
say "$(nvcc --version 2>&1 | tail -n 1)"

step() {  # step NAME SECONDS COMMAND...: one program, its exit status in the log
  local name=$1 limit=$2; shift 2
  local s=$SECONDS
  timeout "$limit" "$@" >> "$log" 2>&1
  local rc=$?
  say "$name: exit $rc ($((SECONDS - s)) s)"
  return $rc
}

# Nsight Compute: on the PATH, or where the CUDA image keeps it.
ncu_bin="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)"
bench_only=0
[ "${1:-}" = --bench-only ] && bench_only=1
if [ "${1:-}" = --profile ]; then
  # Stall reasons and instruction counts of the 128 x 256 and 128 x 128 TF32 GEMMs and the
  # 2 x 1 cluster one at 4096^3 (ncu_stalls.txt), and their SASS (sass.txt).
  timeout 240 "$ncu_bin" --clock-control none --launch-count 3 \
    -k 'regex:gemm_tf32_128x(128|256)(_2x1)?_kernel' \
    --metrics 'regex:^smsp__average_warp_latency_issue_stalled_.*\.ratio$,smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,sm__cycles_elapsed.max,smsp__warps_issue_stalled_barrier_per_warp_active.pct' \
    "$root/build/bench-gpu/harness" --squares=4096 --thin-m= --gemv= --attention= --samples=1 --warmup=0 \
    --copy-mib=1 --skip=gemm_tf32_sm90a --skip=gemm_tf32_256x128 --skip=gemm_tf32_sm90a_cluster \
    --skip=gemm_tf32_sm90a_tmastore --skip=gemm_tf32_256x128_2x1 --skip=gemm_tf32_128x128_2x1 \
    > "$out/ncu_stalls.txt" 2>&1
  say "ncu: exit $?"
  cuobjdump -sass -fun gemm_tf32_128x128_kernel0 "$root/build/bench-gpu/gemm_hopper.o" > "$out/sass.txt" 2>&1 ||
    cuobjdump -sass "$root/build/bench-gpu/gemm_hopper.o" > "$out/sass.txt" 2>&1
  say "cuobjdump: exit $?"
  exit 0
fi
if [ $bench_only = 0 ]; then
# 1. The emulator's own test programs, on the hardware.
step "tensor_map_program" 60 "$dev/tensor_map_program"
step "cudart_e2e" 30 "$dev/cudart_e2e"
for c in $("$dev/emu_kernels_gpu" --list); do
  step "emu_kernels --only=$c" 60 "$dev/emu_kernels_gpu" --only="$c"
done
# 2. Every accepted random warp-specialized program, at its sizes and with 1000 more
# tasks than the checked size, twice each, eight programs at once (a context's start
# costs more than the kernel): each must exit 0 (the right result).
ok=0 bad=0
if [ -f "$dev/warpspec/runs.txt" ]; then
  s=$SECONDS
  awk '{print $0; print $0}' "$dev/warpspec/runs.txt" |
    xargs -P 8 -L 1 sh -c 'timeout 10 "$0/$1" "$2" "$3" > /dev/null 2>&1 ||
      echo "warpspec $1 $2 $3: FAILED (exit $?; 124: hung)"' "$dev/warpspec" \
    > "$out/warpspec_failures.txt"
  bad=$(wc -l < "$out/warpspec_failures.txt")
  ok=$(( $(wc -l < "$dev/warpspec/runs.txt") * 2 - bad ))
  head -n 20 "$out/warpspec_failures.txt" | tee -a "$log"
  say "warpspec runs took $((SECONDS - s)) s"
fi
say "warpspec_random on the GPU: $ok runs right, $bad wrong"
fi
# 3. The benchmark. First every kernel at its small ragged shape, checks only: a kernel
# that faults or hangs ends the harness's context, so it is left out and the rest run
# again; the full run (checks at every shape, timing, memcheck) then skips those.
h="$root/build/bench-gpu/harness" skips=()
for attempt in 1 2 3 4 5 6; do
  rm -f "$out/fault"
  args=(--small --watchdog=10 --fault-file="$out/fault")
  for k in "${skips[@]}"; do args+=(--skip="$k"); done
  step "harness ${args[*]}" 120 "$h" "${args[@]}"
  [ -s "$out/fault" ] || break
  skips+=("$(cat "$out/fault")")
  say "FAULTED or HUNG at the small shape: ${skips[-1]}"
done
rm -f "$out/fault"
skip_args=()
for k in "${skips[@]}"; do skip_args+=(--skip="$k"); done
say "bench/gpu/run.sh --prebuilt -- --watchdog=10 ${skip_args[*]}"
"$here/run.sh" --prebuilt --time-limit=240 -- --watchdog=10 "${skip_args[@]}" 2>&1 |
  tail -n 40 >> "$log"
say "run.sh: exit ${PIPESTATUS[0]}"

# 4. Where the time goes: Nsight Compute's summary sections (throughput, occupancy, warp
# stall reasons) of the 1 x 1 and 2 x 1 Hopper GEMMs at 4096^3, one sample each (ncu.txt).
if [ -n "$ncu_bin" ]; then
  s=$SECONDS
  timeout 150 "$ncu_bin" --clock-control none -k 'regex:gemm_(tf32|bf16)_128x(128|256)(_2x1)?_kernel' \
    --launch-count 10 --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats \
    "$h" --squares=4096 --thin-m= --gemv= --attention= --samples=1 --warmup=0 --copy-mib=1 \
    --skip=gemm_tf32_sm90a --skip=gemm_tf32_256x128 --skip=gemm_tf32_sm90a_cluster \
    --skip=gemm_tf32_sm90a_tmastore --skip=gemm_f16_128x256 --skip=gemm_tf32_256x128_2x1 \
    --skip=gemm_f16_128x256_2x1 --skip=gemm_bf16_128x256_2x1 --skip=gemm_tf32_128x128_2x1 \
    > "$out/ncu.txt" 2>&1
  say "ncu: exit $? ($((SECONDS - s)) s; ncu.txt)"
else
  say "ncu: not found"
fi
