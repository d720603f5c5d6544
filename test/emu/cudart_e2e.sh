#!/bin/sh
# test/emu/cudart_e2e.sh - an unmodified nvcc-built program under exg-emu ----#
# usage: cudart_e2e.sh EXG_EMU NVCC SOURCE_DIR WORK_DIR
# Builds test/emu/cudart_e2e.cu with the flags `exg-emu --nvcc-flags` prints
# (plus -lcuda) and checks: it runs right on the emulator; its own exit status
# passes through; a build without -no-compress is refused with the
# bad-program code (107) and the flags to use; a missing program is exit 2.
# Exit 77 (skipped) when nvcc is not there.
set -u
emu=$1 nvcc=$2 src=$3 work=$4
if [ ! -x "$nvcc" ]; then
  echo "nvcc not found: skipped"
  exit 77
fi
mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

flags=$("$emu" --nvcc-flags) || fail "exg-emu --nvcc-flags"
# shellcheck disable=SC2086
"$nvcc" $flags "$src/test/emu/cudart_e2e.cu" -lcuda -o e2e || fail "nvcc $flags"
out=$("$emu" --seed 3 -- ./e2e 2>err.txt); rc=$?
[ $rc -eq 0 ] && [ "$out" = "e2e ok" ] || { cat err.txt; fail "run: rc $rc, output: $out"; }
"$emu" -- ./e2e exit 5; rc=$?
[ $rc -eq 5 ] || fail "the program's exit status 5 came back as $rc"

# nvcc 13 compresses device code unless told not to: refused at registration.
"$nvcc" -cudart shared -gencode arch=compute_90a,code=compute_90a \
  "$src/test/emu/cudart_e2e.cu" -lcuda -o e2e_compressed || fail "nvcc (compressed)"
"$emu" -- ./e2e_compressed 2>err.txt; rc=$?
[ $rc -eq 107 ] || fail "a compressed fatbinary gave rc $rc, not 107"
grep -q -- "-no-compress" err.txt || { cat err.txt; fail "the refusal does not give the flags"; }

"$emu" -- ./no_such_program 2>err.txt; rc=$?
[ $rc -eq 2 ] || fail "a missing program gave rc $rc, not 2"
grep -q "cannot run './no_such_program'" err.txt || { cat err.txt; fail "missing-program message"; }
echo "cudart e2e: ok"
